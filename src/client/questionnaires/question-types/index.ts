/**
 * The question types in the designer, each by its module (docs/recipes/add-question-type.md). A
 * mapped type over `QuestionType`: a type added to QUESTION_TYPES does not compile until it has a
 * module here (and an input in ANSWER_INPUTS, respondent/inputs.ts).
 */
import type { QuestionType } from '../../../shared/questionnaire/definition';
import type { QuestionTypeView } from './view';
import { CHECKBOX } from './checkbox';
import { DATE } from './date';
import { DROPDOWN } from './dropdown';
import { GRID_CHECKBOX } from './grid-checkbox';
import { GRID_RADIO } from './grid-radio';
import { LINEAR_SCALE } from './linear-scale';
import { PARAGRAPH } from './paragraph';
import { RADIO } from './radio';
import { SHORT_TEXT } from './short-text';
import { TIME } from './time';

export type { QuestionTypeView, SettingsEditorProps } from './view';

export const QUESTION_TYPE_VIEWS: { readonly [T in QuestionType]: QuestionTypeView } = {
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
