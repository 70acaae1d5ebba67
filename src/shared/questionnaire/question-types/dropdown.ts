/** DROPDOWN: one of the options, from a list (no "other"); an option may send the respondent to another section. */
import { singleChoice } from './choice.js';
import type { QuestionTypeRules } from './rules.js';

export const DROPDOWN: QuestionTypeRules<'DROPDOWN'> = { type: 'DROPDOWN', ...singleChoice(false) };
