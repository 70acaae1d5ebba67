/** PARAGRAPH: a longer text, without rules. */
import { freeText } from './text.js';
import type { QuestionTypeRules } from './rules.js';

export const PARAGRAPH: QuestionTypeRules<'PARAGRAPH'> = { type: 'PARAGRAPH', ...freeText('PARAGRAPH', false, (_question, s) => s.pick(s.texts.long)) };
