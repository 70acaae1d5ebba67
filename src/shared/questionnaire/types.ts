/**
 * A questionnaire's fixed values (enums.ts) and what the staff calls answer about it, whose
 * types are read from the calls' schemas (src/shared/calls/questionnaires.ts,
 * docs/conventions.md#call-shapes). Only types come from there: nothing of a schema reaches the
 * client that imports this module.
 */
export { FEEDBACK_STATUSES, QUESTIONNAIRE_STATUSES, QUESTIONNAIRE_TYPES, TARGET_KINDS, type QuestionnaireStatus, type QuestionnaireType, type TargetKind } from './enums.js';

export type {
  /** Who must answer: a kind, and the teacher group, grade or class ids, or user ids (USERS); none for ALL_* */
  Target,
  Person,
  /** A questionnaire as the staff API answers it. Times are ISO-8601 UTC; `definition` only in the answer for one questionnaire. */
  Questionnaire,
  /** The audience picker's count: how many people each choice covers, and all of them without duplicates. */
  AudienceCount,
} from '../calls/questionnaires.js';
