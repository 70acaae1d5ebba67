/** CHECKBOX: several of the options, "other" among them where offered, as many as its choice rule allows. */
import { multipleChoice } from './choice.js';
import type { QuestionTypeRules } from './rules.js';

export const CHECKBOX: QuestionTypeRules<'CHECKBOX'> = { type: 'CHECKBOX', ...multipleChoice() };
