/**
 * What the statistics calls answer (src/shared/statistics/API.md), whose types are read from the
 * calls' schemas (src/shared/calls/statistics.ts, docs/conventions.md#call-shapes), and the
 * statistics' fixed values (enums.ts). Only types come from the schemas: nothing of a schema
 * reaches the client that imports this module.
 */
export { RESPONDENT_ROLES, type RespondentRole } from './enums.js';

export type {
  /** Names in both languages, as master data keeps them. */
  Names,
  /** One row of the statistics list (docs/product-rules.md#records-and-fields). */
  StatisticsRow,
  /** Which respondents a summary counts: every filter optional; all absent = everyone. */
  StatisticsFilter,
  /** A count and its share of `base` (percentage, one decimal). */
  Count,
  /** A choice's count: a choice id, or OTHER ('__other__') for the respondents' own texts. */
  ChoiceCount,
  /** A value's count: a scale point as text ('1'), a date yyyy-MM-dd or a time HH:mm. */
  ValueCount,
  /** The summary that fits the question's type, told by its `kind` (docs/recipes/add-statistics-summary.md). */
  QuestionSummary,
  /** A question with its summary (null when withheld). */
  QuestionStatistics,
  /** A group the detail can be filtered by, with how many were asked and answered. */
  GroupCount,
  /** Why an anonymous questionnaire's results are withheld: `group` (the filter's group, or what it leaves outside, is too small) or `total`. */
  Withheld,
  /** GET /v1/statistics/:id */
  StatisticsDetail,
  /** A respondent of a named questionnaire (who has and has not answered). */
  NamedRespondent,
  /** A reply of an anonymous questionnaire: 'anonymous N', never a name. */
  AnonymousRespondent,
  /** GET /v1/statistics/:id/respondents: named or anonymous, told by `anonymous`. */
  RespondentPage,
  /** One text answer (SHORT_TEXT, PARAGRAPH, or the 'other' text of a choice question). */
  TextAnswer,
  /** GET /v1/statistics/:id/texts */
  TextPage,
  /** PUT /v1/statistics/:id/texts/marks: how many answers now have the mark. */
  TextMarksResult,
  /** GET /v1/statistics/:id/comparison: the questionnaire's series, year by year. */
  StatisticsComparison,
  /** A word or phrase and how many answers use it. */
  TermCount,
  /** GET /v1/statistics/:id/terms: the most frequent words and phrases of a question's texts. */
  TermList,
  /** One reply, to read it whole with the questions it answers. */
  StatisticsReply,
} from '../calls/statistics.js';

/** A percentage with one decimal, the same everywhere a count is shown (detail, xlsx, PDF). */
export function percent(count: number, base: number): number {
  return base > 0 ? Math.round((count * 1000) / base) / 10 : 0;
}
