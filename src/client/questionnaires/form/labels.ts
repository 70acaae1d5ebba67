import type { QuestionnaireStatus, QuestionnaireType, TargetKind } from '../../../shared/questionnaire/types';
import { composedKey } from '../../../shared/i18n/keys';
import type { Lang } from '../../../shared/i18n/text';

/**
 * The message keys of the questionnaire screens (qe.questionnaire.*). Statuses, types and
 * target kinds are translated on the client (API.md); tests/client/questionnaires check that
 * each has its text in both message files.
 */
export const statusKey = (status: QuestionnaireStatus | string) => composedKey(`qe.questionnaire.status.${status}`);
export const typeKey = (type: QuestionnaireType | string) => composedKey(`qe.questionnaire.type.${type}`);
export const targetKindKey = (kind: TargetKind | string) => composedKey(`qe.questionnaire.targetKind.${kind}`);
export const fieldKey = (name: string) => composedKey(`qe.questionnaire.fields.${name}`);
/** A content language's name (qe.questionnaire.language.*): Chinese, English. */
export const languageKey = (lang: Lang) => (lang === 'en' ? 'qe.questionnaire.language.en' : 'qe.questionnaire.language.zhHk');

/** What the target picker offers: the target kinds, with "chosen people" split into teachers and students. */
export const PICK_KINDS = ['ALL_TEACHERS', 'ALL_STUDENTS', 'TEACHER_GROUP', 'GRADE', 'CLASS', 'TEACHER', 'STUDENT'] as const;
export type PickKind = (typeof PICK_KINDS)[number];
export const pickKey = (pick: PickKind) => (pick === 'TEACHER' || pick === 'STUDENT' ? (`qe.questionnaire.pick.${pick}` as const) : targetKindKey(pick));

/** The list's scope filter: in my charge, assisting, and all (form.management only). */
export const SCOPES = ['mine', 'assisting', 'all'] as const;

/** The chip colour of each status. */
export const STATUS_COLORS: Record<QuestionnaireStatus, 'default' | 'info' | 'success' | 'warning'> = {
  PREPARING: 'warning',
  NOT_OPEN: 'info',
  PROCESSING: 'success',
  FINISHED: 'default',
};
