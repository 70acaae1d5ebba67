/**
 * What a question type is, as both halves run it: one `QuestionTypeRules` per type, in a module
 * of its own beside this file, registered in `index.ts` (docs/recipes/add-question-type.md).
 * Pure logic only; the client's half of a type (icon, settings editor, answer input) is in
 * src/client/questionnaires/question-types/.
 */
import type { Lang } from '../../errors.js';
import type { AppMessages } from '../../i18n/app-en.js';
import type { QuestionSummary } from '../../statistics/types.js';
import type { AnsweredFrom, Question, QuestionType } from '../definition-types.js';
import type { Answer, AnswerProblem } from '../answer-types.js';
import type { Sampler } from './sampling.js';

/** Adds a problem of a definition at a path (`definitionErrors`). */
export type AddProblem = (path: string, problem: string) => void;

/** What the patterns of a definition cost so far (RE2 program size): checked against DEFINITION_MAX_PROGRAM. */
export interface PatternBudget {
  program: number;
}

/**
 * One countable row of an answer (src/server/statistics/answerRows.ts): `item` is what is counted
 * (an option id, a grid row id, the value of a scale/date/time answer), `col` a grid column id,
 * `value_text` the text of a text answer or of an 'other'.
 */
export interface AnswerCell {
  item: string;
  col: string;
  value_text: string | null;
  value_number: number | null;
}

/** One grouped count: replies that gave `item` (and, in a grid, `col`) to a question. */
export interface CountRow {
  questionId: string;
  item: string;
  col: string;
  n: number;
}

/** The raw-answers sheet's texts (qe.statisticsExport), by their key in that group. */
export type ExportTranslate = (key: keyof AppMessages['qe']['statisticsExport'], p?: Record<string, string | number>) => string;
/** One column of the raw-answers sheet: its heading and a reply's cell. */
export interface AnswerColumn {
  header: string;
  value: (answers: Record<string, Answer>, t: ExportTranslate) => string | number | null;
}
/** A question's columns in the raw sheet, under `header` (its number and title). */
export type ColumnsOf = (question: Question, header: string) => AnswerColumn[];

/**
 * Everything of one question type that is pure logic. A module per type exports one; `index.ts`
 * holds them in a table keyed by type, so a type without its module, or a module without one of
 * these parts, does not compile.
 */
export interface QuestionTypeRules<T extends QuestionType = QuestionType> {
  readonly type: T;
  /** what it is answered from: `CHOICE_TYPES` and `GRID_TYPES` are made from it */
  readonly answeredFrom: AnsweredFrom;
  /**
   * Its part of `definitionErrors`' check of a question (whose id, type, title, description,
   * image and required are checked already): its own settings, and the response rules it takes.
   */
  settingsErrors(q: Record<string, unknown>, path: string, add: AddProblem, budget: PatternBudget): void;
  /**
   * A free text (SHORT_TEXT, PARAGRAPH): its leading spaces, inner spaces and line breaks are the
   * respondent's and are kept, its trailing whitespace goes (`keptAnswer`); any other type's texts
   * (a date, a time, an option id) are trimmed.
   */
  readonly keepsText?: true;
  /** Whether an answer (not undefined or null) is there at all (`isAnswered`). */
  isAnswered(answer: Answer): boolean;
  /** What is wrong with an answer that is there (`answerProblem`), null when acceptable. */
  answerProblem(question: Question, answer: Answer): AnswerProblem | null;
  /** A sample answer that keeps the question's rules (`sampleAnswer`); undefined when none can be made. */
  sampleAnswer(question: Question, sample: Sampler): Answer | undefined;
  /** The rows an answer is counted as (`answerRows`). */
  rowsOf(question: Question, answer: Answer): AnswerCell[];
  /** The summary the counts of its answers make (`summarise`). */
  summary(question: Question, cells: CountRow[], answered: number, rowBases: Map<string, number>, lang: Lang): QuestionSummary;
  /** Its columns in the raw-answers sheet (`ANSWER_COLUMNS`). */
  readonly answerColumns: ColumnsOf;
}
