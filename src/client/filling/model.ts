import type { Definition } from '../../shared/questionnaire/definition';
import type { Answers } from '../../shared/questionnaire/answers';
import type { Person, QuestionnaireStatus, QuestionnaireType } from '../../shared/questionnaire/types';
import { composedKey } from '../../shared/i18n/keys';

/** react-admin's resource name of my questionnaires (GET /v1/my/questionnaires …). */
export const MY_QUESTIONNAIRES = 'my/questionnaires';

/** My feedback on a questionnaire (docs/product-rules.md#states); the server keeps NOT_SUBMITTED and SUBMITTED. */
export const FEEDBACK_STATUSES = ['NOT_SUBMITTED', 'SUBMITTED'] as const;
export type FeedbackStatus = (typeof FEEDBACK_STATUSES)[number] | 'FINISHED' | 'PROCESSING';

/** One questionnaire that targets me, as GET /v1/my/questionnaires lists it. Times are ISO-8601 UTC. */
export interface MyQuestionnaire {
  id: number;
  title: string;
  status: QuestionnaireStatus;
  type: QuestionnaireType;
  openDate: string | null;
  endDate: string | null;
  schoolYearId?: number | null;
  inCharge: Pick<Person, 'nameHk' | 'nameEn'>;
  feedbackStatus: FeedbackStatus;
  submittedAt: string | null;
  designatedCode: string;
}

/** One questionnaire to answer (GET /v1/my/questionnaires/:id): its questions, and my answers once submitted (null when anonymous). */
export interface MyQuestionnaireDetail extends MyQuestionnaire {
  definition: Definition;
  answers: Answers | null;
}

/** The two routes of the answer screen (docs/product-rules.md#screens-and-routes): detail fills in, view is read only; the record's id as `?id=`. */
export type FillingScreenType = 'detail' | 'view';
export const fillingPath = (screen: 'list' | FillingScreenType, id?: unknown) =>
  `/questionnaire-filling/${screen}${id === undefined || id === null ? '' : `?id=${encodeURIComponent(String(id))}`}`;

/** Whether I may still answer: in progress and not submitted yet. */
export const isAnswerable = (q: Pick<MyQuestionnaire, 'status' | 'feedbackStatus'>) => q.status === 'PROCESSING' && q.feedbackStatus === 'NOT_SUBMITTED';

/** The screen a questionnaire opens on: the detail route while I may answer it, the view route otherwise. */
export const screenFor = (q: Pick<MyQuestionnaire, 'status' | 'feedbackStatus'>): FillingScreenType => (isAnswerable(q) ? 'detail' : 'view');

export const feedbackStatusKey = (status: string) => composedKey(`qe.filling.feedbackStatus.${status}`);
export const fillingFieldKey = (name: string) => composedKey(`qe.filling.fields.${name}`);
