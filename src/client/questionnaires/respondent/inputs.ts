import type { ComponentType } from 'react';
import type { QuestionType } from '../../../shared/questionnaire/definition';
import type { AnswerInputProps } from './ChoiceInput';
import { CheckboxInput, DropdownInput, RadioInput } from './ChoiceInput';
import { GridInput } from './GridInput';
import { ScaleInput } from './ScaleInput';
import { TextAnswerInput } from './TextAnswerInput';

/** The input a respondent answers a question with (`errorRow`: the grid row a problem is about). */
export type AnswerInputComponent = ComponentType<AnswerInputProps & { errorRow?: string }>;

/**
 * The input of each question type (docs/recipes/add-question-type.md). The type's designer half
 * (icon, settings editor) is its module in src/client/questionnaires/question-types/; its input
 * is here, apart, so that the answer screen every pupil loads does not carry the designer. A
 * mapped type over `QuestionType`: a new type does not compile until it has its input.
 */
export const ANSWER_INPUTS: { readonly [T in QuestionType]: AnswerInputComponent } = {
  RADIO: RadioInput,
  CHECKBOX: CheckboxInput,
  DROPDOWN: DropdownInput,
  GRID_RADIO: GridInput,
  GRID_CHECKBOX: GridInput,
  LINEAR_SCALE: ScaleInput,
  SHORT_TEXT: TextAnswerInput,
  PARAGRAPH: TextAnswerInput,
  DATE: TextAnswerInput,
  TIME: TextAnswerInput,
};
