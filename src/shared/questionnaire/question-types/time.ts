/** TIME: a time of day, written HH:mm. */
import { isTime } from '../answer-types.js';
import { valueText } from './text.js';
import type { QuestionTypeRules } from './rules.js';

export const TIME: QuestionTypeRules<'TIME'> = {
  type: 'TIME',
  ...valueText(isTime, (_question, s) => `${String(s.between(7, 18)).padStart(2, '0')}:${String(5 * s.between(0, 11)).padStart(2, '0')}`),
};
