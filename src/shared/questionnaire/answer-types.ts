/**
 * What a respondent's answers look like, what can be wrong with one, and the checks of their
 * parts (a date, a time, a number, a pattern). Only these, so that the question-type modules
 * (`question-types/`, docs/recipes/add-question-type.md) and `answers.ts`, which runs them,
 * both import them. `answers.ts` re-exports everything here.
 */
import { compilePattern } from './pattern.js';

/** The choice id of the "other" option (RADIO, CHECKBOX) — never the id of a real option. */
export const OTHER = '__other__';

/** RADIO and DROPDOWN: the chosen option's id (or OTHER with its text). */
export interface SingleChoiceAnswer {
  choice: string;
  otherText?: string;
}
/** CHECKBOX: the chosen options' ids (OTHER among them with its text). */
export interface MultiChoiceAnswer {
  choices: string[];
  otherText?: string;
}
/** GRID_RADIO: row id → column id. */
export type GridRadioAnswer = Record<string, string>;
/** GRID_CHECKBOX: row id → column ids. */
export type GridCheckboxAnswer = Record<string, string[]>;

/**
 * The answer to one question, by type:
 * SHORT_TEXT, PARAGRAPH: string · DATE: 'YYYY-MM-DD' · TIME: 'HH:mm' · LINEAR_SCALE: number ·
 * RADIO, DROPDOWN: SingleChoiceAnswer · CHECKBOX: MultiChoiceAnswer · GRID_RADIO: GridRadioAnswer ·
 * GRID_CHECKBOX: GridCheckboxAnswer. An unanswered question has no entry (or undefined).
 */
export type Answer = string | number | SingleChoiceAnswer | MultiChoiceAnswer | GridRadioAnswer | GridCheckboxAnswer;
/** A reply: answers keyed by question id. */
export type Answers = Record<string, Answer | undefined>;

/** Hard limits of a text answer (characters), whatever the rules say: checked before a rule, they also bound a pattern's work. */
export const ANSWER_LIMITS = { SHORT_TEXT: 1000, PARAGRAPH: 10000, other: 1000 } as const;

/**
 * Why an answer is refused. `problem` names the message (qe.question.answerProblems.{problem});
 * `count`, `min`, `max` fill it in; `message` is the designer's own text (a text rule's), shown
 * instead when set; `row` is the grid row concerned.
 */
export interface AnswerProblem {
  problem:
    | 'required'
    | 'requiredRow'
    | 'invalid'
    | 'otherText'
    | 'tooLong'
    | 'atLeast'
    | 'atMost'
    | 'exactly'
    | 'onePerColumn'
    | 'length'
    | 'minLength'
    | 'maxLength'
    | 'number'
    | 'minNumber'
    | 'maxNumber'
    | 'numberRange'
    | 'pattern';
  count?: number;
  min?: number;
  max?: number;
  message?: string;
  row?: string;
}
/** Every answer problem name (messages exist for each: a test checks). */
export const ANSWER_PROBLEMS: AnswerProblem['problem'][] = [
  'required',
  'requiredRow',
  'invalid',
  'otherText',
  'tooLong',
  'atLeast',
  'atMost',
  'exactly',
  'onePerColumn',
  'length',
  'minLength',
  'maxLength',
  'number',
  'minNumber',
  'maxNumber',
  'numberRange',
  'pattern',
];

/** Characters as a person counts them (a Chinese character or an emoji is one). */
export const textLength = (text: string) => [...text].length;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
/** A real calendar day written YYYY-MM-DD. */
export function isDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const day = new Date(Date.UTC(y, mo - 1, d));
  return day.getUTCFullYear() === y && day.getUTCMonth() === mo - 1 && day.getUTCDate() === d;
}
export const isTime = (text: string) => TIME.test(text);
/** A number as a person types it: optional sign, digits, optional decimals. */
export const NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)$/;

/**
 * Whether the whole text matches a designer's pattern, on RE2 (linear time: see pattern.ts), or
 * undefined when it is not judged. `definitionErrors` refuses a pattern RE2 cannot use when a
 * questionnaire is saved, but one stored before RE2 may hold a back-reference or a lookaround:
 * then the rule is not applied at all (the answer's length limit still is). It never runs on the
 * backtracking engine, which a crafted pattern stalls, and a respondent is never locked out of a
 * question for the designer's mistake; the designer sees the problem when they next open it.
 * (Undefined too in a browser whose engine is still loading: the server judges then.)
 */
export function matchesPattern(pattern: string, text: string): boolean | undefined {
  const compiled = compilePattern(pattern);
  return compiled?.ok ? compiled.pattern.testExact(text) : undefined;
}
