/** DATE: a calendar day, written YYYY-MM-DD. */
import { isDate } from '../answer-types.js';
import { valueText } from './text.js';
import type { QuestionTypeRules } from './rules.js';

export const DATE: QuestionTypeRules<'DATE'> = {
  type: 'DATE',
  ...valueText(isDate, (_question, s) => `2025-${String(s.between(1, 12)).padStart(2, '0')}-${String(s.between(1, 28)).padStart(2, '0')}`),
};
