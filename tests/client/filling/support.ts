import type { MyQuestionnaireDetail } from '../../../src/client/filling/model';
import type { Definition } from '../../../src/shared/questionnaire/definition';

/** Questionnaire 5 as the answer screen receives it: named, in progress, not yet answered by me. */
export function questionnaireDetail(definition: Definition, over: Partial<MyQuestionnaireDetail> = {}): MyQuestionnaireDetail {
  return {
    id: 5,
    title: '學生意見調查',
    titleTranslation: null,
    languages: ['zh-hk'],
    status: 'PROCESSING',
    type: 'NAMED',
    openDate: '2025-03-01T01:00:00.000Z',
    endDate: '2099-03-20T09:00:00.000Z',
    schoolYearId: 3,
    inCharge: { nameHk: '李老師', nameEn: 'Lee' },
    feedbackStatus: 'NOT_SUBMITTED',
    submittedAt: null,
    designatedCode: 'D-1',
    definition,
    answers: null,
    ...over,
  };
}
