/**
 * The question types, each by its module (docs/recipes/add-question-type.md). A mapped type over
 * `QuestionType`: a type added to QUESTION_TYPES does not compile until it has a module here, and
 * a module does not compile until it has every part of `QuestionTypeRules`.
 */
import type { QuestionType } from '../definition-types.js';
import type { QuestionTypeRules } from './rules.js';
import { CHECKBOX } from './checkbox.js';
import { DATE } from './date.js';
import { DROPDOWN } from './dropdown.js';
import { GRID_CHECKBOX } from './grid-checkbox.js';
import { GRID_RADIO } from './grid-radio.js';
import { LINEAR_SCALE } from './linear-scale.js';
import { PARAGRAPH } from './paragraph.js';
import { RADIO } from './radio.js';
import { SHORT_TEXT } from './short-text.js';
import { TIME } from './time.js';

export type { AddProblem, AnswerCell, AnswerColumn, ColumnsOf, CountRow, ExportTranslate, PatternBudget, QuestionTypeRules } from './rules.js';

export const QUESTION_TYPE_RULES: { readonly [T in QuestionType]: QuestionTypeRules<T> } = {
  GRID_RADIO,
  SHORT_TEXT,
  PARAGRAPH,
  RADIO,
  CHECKBOX,
  DROPDOWN,
  LINEAR_SCALE,
  GRID_CHECKBOX,
  DATE,
  TIME,
};

/** The rules of a question's type; a type outside the list (data the checks let through) throws. */
export function rulesOf(type: QuestionType): QuestionTypeRules {
  const rules: QuestionTypeRules | undefined = QUESTION_TYPE_RULES[type];
  if (!rules) throw new Error(`Unhandled question type: ${JSON.stringify(type)}`);
  return rules;
}
