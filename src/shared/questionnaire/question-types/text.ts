/**
 * What the types answered with a text share: SHORT_TEXT and PARAGRAPH (free texts, read back
 * a page at a time), DATE and TIME (a value in a fixed form, counted by value). Each type's
 * module composes these.
 */
import type { Question } from '../definition-types.js';
import { ANSWER_LIMITS, matchesPattern, NUMBER, textLength, type AnswerProblem } from '../answer-types.js';
import { percent } from '../../statistics/types.js';
import { cell, countIn, oneColumn, ruleErrors } from './common.js';
import type { QuestionTypeRules } from './rules.js';

function textRuleProblem(rule: NonNullable<Question['textRule']>, text: string): AnswerProblem | null {
  const { min, max, message } = rule;
  const has = (n: number | undefined): n is number => typeof n === 'number' && Number.isFinite(n);
  let problem: AnswerProblem | null = null;
  if (rule.kind === 'length') {
    const n = textLength(text);
    if ((has(min) && n < min) || (has(max) && n > max)) {
      problem = has(min) && has(max) ? { problem: 'length', min, max } : has(min) ? { problem: 'minLength', min } : { problem: 'maxLength', max };
    }
  } else if (rule.kind === 'number') {
    const value = NUMBER.test(text) ? Number(text) : NaN;
    if (Number.isNaN(value)) problem = { problem: 'number' };
    else if ((has(min) && value < min) || (has(max) && value > max)) {
      problem = has(min) && has(max) ? { problem: 'numberRange', min, max } : has(min) ? { problem: 'minNumber', min } : { problem: 'maxNumber', max };
    }
  } else if (rule.kind === 'pattern') {
    if (matchesPattern(rule.pattern ?? '', text) === false) problem = { problem: 'pattern' };
  }
  if (problem && message && message.trim()) problem.message = message;
  return problem;
}

/** The parts every text type shares: a non-blank text is an answer, written as it is in the raw sheet. */
const textAnswer = {
  isAnswered: (answer) => typeof answer === 'string' && answer.trim() !== '',
  answerColumns: oneColumn(() => (answer) => (typeof answer === 'string' ? answer : null)),
} satisfies Pick<QuestionTypeRules, 'isAnswered' | 'answerColumns'>;

/**
 * A free text of at most `limit` characters (SHORT_TEXT, PARAGRAPH), with a text rule where the
 * type takes one; stored as typed but for its trailing whitespace (its row is the question's
 * "answered" row) and read back a page at a time rather than summarised. Its length and rule
 * judge the text trimmed: leading spaces are layout, not content.
 */
export function freeText(limit: keyof typeof ANSWER_LIMITS, textRule: boolean, sample: QuestionTypeRules['sampleAnswer']): Omit<QuestionTypeRules, 'type'> {
  return {
    ...textAnswer,
    answeredFrom: 'text',
    keepsText: true,
    settingsErrors: (q, path, add, budget) => ruleErrors(q, path, add, budget, { textRule }),
    answerProblem(question, answer) {
      const text = (answer as string).trim();
      if (textLength(text) > ANSWER_LIMITS[limit]) return { problem: 'tooLong', max: ANSWER_LIMITS[limit] };
      return textRule && question.textRule ? textRuleProblem(question.textRule, text) : null;
    },
    sampleAnswer: sample,
    rowsOf: (_question, answer) => (typeof answer === 'string' && answer !== '' ? [cell('', '', answer)] : []),
    summary: (_question, _cells, answered) => ({ kind: 'texts', base: answered }),
  };
}

/** A value in a fixed form (DATE, TIME): `valid` says whether a text is one; counted by value, summarised as their distribution. */
export function valueText(valid: (text: string) => boolean, sample: QuestionTypeRules['sampleAnswer']): Omit<QuestionTypeRules, 'type'> {
  return {
    ...textAnswer,
    answeredFrom: 'text',
    settingsErrors: (q, path, add, budget) => ruleErrors(q, path, add, budget, {}),
    answerProblem: (_question, answer) => (valid((answer as string).trim()) ? null : { problem: 'invalid' }),
    sampleAnswer: sample,
    rowsOf: (_question, answer) => (typeof answer === 'string' && answer !== '' ? [cell(answer)] : []),
    summary(_question, cells, answered) {
      const count = countIn(cells);
      return {
        kind: 'distribution',
        base: answered,
        values: cells
          .map((c) => c.item)
          .sort()
          .map((value) => ({ value, count: count(value), percent: percent(count(value), answered) })),
      };
    },
  };
}
