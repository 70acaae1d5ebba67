/** SHORT_TEXT: a line of text, with a text rule (length, number or pattern) where the designer sets one. */
import { freeText } from './text.js';
import type { QuestionTypeRules } from './rules.js';

export const SHORT_TEXT: QuestionTypeRules<'SHORT_TEXT'> = {
  type: 'SHORT_TEXT',
  ...freeText('SHORT_TEXT', true, (question, s) => {
    const rule = question.textRule;
    if (rule?.kind === 'pattern') {
      if (question.required) throw new Error(`no sample answer for question ${question.id}: its pattern rule needs a text of its own`);
      return undefined;
    }
    if (rule?.kind === 'number') return String(s.between(Math.ceil(rule.min ?? 0), Math.floor(rule.max ?? Math.max(100, rule.min ?? 0))));
    const text = s.pick(s.texts.short);
    if (rule?.kind !== 'length') return text;
    const min = rule.min ?? 0;
    const max = rule.max ?? Math.max(min, [...text].length);
    return [...text].slice(0, max).join('').trim().padEnd(Math.max(1, min), '.');
  }),
};
