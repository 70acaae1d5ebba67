/** RADIO: one of the options, or "other" with a text where offered; an option may send the respondent to another section. */
import { singleChoice } from './choice.js';
import type { QuestionTypeRules } from './rules.js';

export const RADIO: QuestionTypeRules<'RADIO'> = { type: 'RADIO', ...singleChoice(true) };
