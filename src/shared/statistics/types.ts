import type { Definition, QuestionType } from '../questionnaire/definition-types.js';
import type { Answers } from '../questionnaire/answer-types.js';
import type { QuestionnaireStatus, QuestionnaireType } from '../questionnaire/enums.js';

/** Names in both languages, as master data keeps them. */
export interface Names {
  nameHk: string;
  nameEn: string;
}

/** Respondent roles in statistics (docs/product-rules.md#roles-and-default-permissions). */
export const RESPONDENT_ROLES = ['STUDENT', 'TEACHER'] as const;
export type RespondentRole = (typeof RESPONDENT_ROLES)[number];

/** One row of the statistics list (docs/product-rules.md#records-and-fields). */
export interface StatisticsRow {
  id: number;
  /** questionTitle */
  title: string;
  /** years: the questionnaire's school year (its name, e.g. 2026-2027) */
  schoolYear: { id: number; name: string } | null;
  /** principal: the person in charge */
  principal: Names & { id: number };
  status: QuestionnaireStatus;
  type: QuestionnaireType;
  createDate: string;
  openDate: string | null;
  endDate: string | null;
  submittedNum: number;
  respondentNum: number;
  /** submittedNum / respondentNum as a percentage with one decimal; null when nobody is asked */
  responseRate: number | null;
}

/** Which respondents a summary counts: every filter optional; all absent = everyone. */
export interface StatisticsFilter {
  role?: RespondentRole;
  gradeId?: number;
  classId?: number;
}

/** A count and its share of `base` (percentage, one decimal). */
export interface Count {
  count: number;
  percent: number;
}

export interface ChoiceCount extends Count {
  /** a choice id, or OTHER ('__other__') for the respondents' own texts */
  id: string;
  label: string;
}

export interface ValueCount extends Count {
  /** a scale point as text ('1'), a date yyyy-MM-dd or a time HH:mm */
  value: string;
}

/** The summary that fits the question's type (docs/recipes/add-statistics-summary.md). */
export type QuestionSummary =
  /** RADIO, DROPDOWN: percent of those who answered; CHECKBOX: percent of respondents who answered the question (a reply counts once per choice) */
  | { kind: 'choices'; base: number; choices: ChoiceCount[] }
  /** GRID_RADIO, GRID_CHECKBOX: per row, each column's count and its percent of those who answered that row */
  | { kind: 'grid'; columns: { id: string; label: string }[]; rows: { id: string; label: string; base: number; cells: (Count & { id: string })[] }[] }
  /** LINEAR_SCALE: every point from min to max (zero counts included), mean and median of the answers (null without answers) */
  | { kind: 'scale'; base: number; min: number; max: number; minLabel?: string; maxLabel?: string; points: ValueCount[]; mean: number | null; median: number | null }
  /** DATE, TIME: each value given, in order */
  | { kind: 'distribution'; base: number; values: ValueCount[] }
  /** SHORT_TEXT, PARAGRAPH: how many answered; the texts come from GET …/texts, paged */
  | { kind: 'texts'; base: number };

export interface QuestionStatistics {
  id: string;
  /** 1-based over the whole questionnaire, as the respondent saw it */
  number: number;
  sectionTitle: string;
  type: QuestionType;
  title: string;
  description?: string;
  /** path under /qe/storage/ */
  image?: string;
  required: boolean;
  /** replies that answered this question */
  answered: number;
  /** null when withheld */
  summary: QuestionSummary | null;
}

/** A group the detail can be filtered by, with how many were asked and answered. */
export interface GroupCount {
  respondentNum: number;
  submittedNum: number;
}

/**
 * Why an anonymous questionnaire's results are withheld: the filter's group is too small, or
 * leaves too few outside it (`group`); or the questionnaire has fewer replies than the
 * minimum in all (`total`).
 */
export interface Withheld {
  minGroupSize: number;
  reason: 'group' | 'total';
}

export interface StatisticsDetail {
  questionnaire: StatisticsRow;
  filter: StatisticsFilter;
  /** the groups to filter by: roles; grades and classes of the questionnaire's school year that have respondents */
  groups: {
    roles: (GroupCount & { role: RespondentRole })[];
    grades: (GroupCount & Names & { id: number })[];
    classes: (GroupCount & Names & { id: number; gradeId: number })[];
  };
  /** the replies the filter selects (every reply without a filter) */
  replyCount: number;
  /** respondents the filter selects and how many of them submitted */
  respondentNum: number;
  submittedNum: number;
  /**
   * Anonymous questionnaires only: replies enter results (and the submitted counts) in batches
   * of at least this many, and all of them once it finishes; null for a named one.
   */
  releaseBatch: number | null;
  /** Anonymous questionnaires only: every summary and text is withheld (see Withheld). */
  withheld: Withheld | null;
  questions: QuestionStatistics[];
}

/** A respondent of a named questionnaire (who has and has not answered). */
export interface NamedRespondent extends Names {
  feedbackId: number;
  role: RespondentRole;
  userNo: string | null;
  class: (Names & { id: number }) | null;
  classNumber: number | null;
  status: 'SUBMITTED' | 'NOT_SUBMITTED';
  submittedAt: string | null;
  /** to open the reply: GET /v1/statistics/{id}/replies/{replyId} */
  replyId: string | null;
}

/** A reply of an anonymous questionnaire: 'anonymous N', never a name. */
export interface AnonymousRespondent {
  number: number;
  replyId: string;
  submittedOn: string;
}

export type RespondentPage =
  | { anonymous: false; list: NamedRespondent[]; total: number }
  | { anonymous: true; list: AnonymousRespondent[]; total: number; notSubmittedNum: number; withheld: Withheld | null };

/** One text answer (SHORT_TEXT, PARAGRAPH, or the 'other' text of a choice question). */
export interface TextAnswer {
  replyId: string;
  text: string;
}

export type TextPage = { list: TextAnswer[]; total: number; withheld: Withheld | null };

/** One reply, to read it whole with the questions it answers. */
export interface StatisticsReply {
  replyId: string;
  /** 'anonymous N' for an anonymous questionnaire; null for a named one */
  number: number | null;
  /** yyyy-MM-dd: the day only */
  submittedOn: string;
  definition: Definition;
  answers: Answers;
}

/** A percentage with one decimal, the same everywhere a count is shown (detail, xlsx, PDF). */
export function percent(count: number, base: number): number {
  return base > 0 ? Math.round((count * 1000) / base) / 10 : 0;
}
