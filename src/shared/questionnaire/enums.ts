/**
 * The fixed values of a questionnaire, as `as const` tuples: the schemas of its calls are typed
 * from them (src/shared/calls/questionnaires.ts) and the client lists them at run time
 * (through types.ts), so they live in this plain module that imports nothing.
 */

/** docs/product-rules.md#states: PREPARING → (design complete) NOT_OPEN → (open date) PROCESSING → (end date or closed) FINISHED. */
export const QUESTIONNAIRE_STATUSES = ['PREPARING', 'NOT_OPEN', 'PROCESSING', 'FINISHED'] as const;
export type QuestionnaireStatus = (typeof QUESTIONNAIRE_STATUSES)[number];

/** A respondent's feedback on a questionnaire, as the server keeps it. */
export const FEEDBACK_STATUSES = ['NOT_SUBMITTED', 'SUBMITTED'] as const;

export const QUESTIONNAIRE_TYPES = ['NAMED', 'ANONYMOUS'] as const;
export type QuestionnaireType = (typeof QUESTIONNAIRE_TYPES)[number];

/** Who must answer: every choice adds people; a person chosen twice answers once. */
export const TARGET_KINDS = ['ALL_TEACHERS', 'ALL_STUDENTS', 'TEACHER_GROUP', 'GRADE', 'CLASS', 'USERS'] as const;
export type TargetKind = (typeof TARGET_KINDS)[number];
