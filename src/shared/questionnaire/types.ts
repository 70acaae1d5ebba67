import type { Definition } from './definition.js';

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

export interface Target {
  kind: TargetKind;
  /** teacher group, grade or class ids, or user ids (USERS); none for ALL_* */
  ids?: number[];
}

export interface Person {
  id: number;
  nameHk: string;
  nameEn: string;
}

/** A questionnaire as the staff API answers it. Times are ISO-8601 UTC. */
export interface Questionnaire {
  id: number;
  title: string;
  schoolYearId: number | null;
  inChargeId: number;
  inCharge: Person;
  assistantIds: number[];
  type: QuestionnaireType;
  status: QuestionnaireStatus;
  openDate: string | null;
  endDate: string | null;
  createDate: string;
  lastNoticeTime: string | null;
  targets: Target[];
  /** people the audience resolves to (distinct) */
  audienceCount: number;
  /** feedback records submitted / in all (from PROCESSING on) */
  submittedCount: number;
  respondentCount: number;
  /** whether a reply exists (the type is then frozen) */
  hasReplies: boolean;
  /** what the caller may do with it */
  mayEdit: boolean;
  /** only in the answer for one questionnaire */
  definition?: Definition;
}

/** The audience picker's count: how many people each choice covers, and all of them without duplicates. */
export interface AudienceCount {
  targets: (Target & { count: number })[];
  total: number;
}
