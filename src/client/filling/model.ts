import { composedKey } from '../../shared/i18n/keys';
import { FEEDBACK_STATUSES } from '../../shared/questionnaire/types';
import type { MyQuestionnaire } from '../../shared/calls/filling';

// what the respondent's calls answer, described once with their schemas (docs/conventions.md#call-shapes)
export type { MyQuestionnaire, MyQuestionnaireDetail } from '../../shared/calls/filling';
export { FEEDBACK_STATUSES };

/** react-admin's resource name of my questionnaires (GET /v1/my/questionnaires …). */
export const MY_QUESTIONNAIRES = 'my/questionnaires';

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
