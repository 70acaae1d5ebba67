/** LINEAR_SCALE: a point of its scale (from 0 or 1 to 2…10), summarised with its mean and median. */
import { percent, type ValueCount } from '../../statistics/types.js';
import { cell, countIn, isObject, isText, oneColumn, ruleErrors } from './common.js';
import type { QuestionTypeRules } from './rules.js';

/** The median of values given as (value, count) pairs in ascending order. */
export function medianOf(points: { value: number; count: number }[]): number | null {
  const total = points.reduce((s, p) => s + p.count, 0);
  if (!total) return null;
  const at = (position: number) => {
    let seen = 0;
    for (const p of points) {
      seen += p.count;
      if (seen >= position) return p.value;
    }
    return points[points.length - 1].value;
  };
  return total % 2 ? at((total + 1) / 2) : (at(total / 2) + at(total / 2 + 1)) / 2;
}

/** The longest label of a scale's end (translations' too, definition.ts). */
export const SCALE_LABEL_MAX = 500;

export const LINEAR_SCALE: QuestionTypeRules<'LINEAR_SCALE'> = {
  type: 'LINEAR_SCALE',
  answeredFrom: 'scale',
  settingsErrors(q, path, add, budget) {
    const s = q.scale;
    if (!isObject(s) || ![0, 1].includes(s.min as number) || !Number.isInteger(s.max) || (s.max as number) < 2 || (s.max as number) > 10) add(`${path}.scale`, 'badScale');
    // the labels of both ends are shown to every respondent: text, as long as a translation's may be
    else
      for (const label of [s.minLabel, s.maxLabel]) {
        if (label === undefined) continue;
        if (typeof label !== 'string') add(`${path}.scale`, 'invalid');
        else if (!isText(label, SCALE_LABEL_MAX)) add(`${path}.scale`, 'tooLong');
      }
    ruleErrors(q, path, add, budget, {});
  },
  isAnswered: (answer) => typeof answer === 'number',
  answerProblem(question, answer) {
    const { min = 1, max = 5 } = question.scale ?? {};
    const n = answer as number;
    return Number.isInteger(n) && n >= min && n <= max ? null : { problem: 'invalid' };
  },
  sampleAnswer(question, s) {
    const { min, max } = question.scale ?? { min: 1, max: 5 };
    return max - s.skewed(max - min + 1);
  },
  rowsOf: (_question, answer) => (typeof answer === 'number' ? [cell(String(answer), '', null, answer)] : []),
  summary(question, cells, answered) {
    const count = countIn(cells);
    const { min = 1, max = 5, minLabel, maxLabel } = question.scale ?? { min: 1, max: 5 };
    const values: { value: number; count: number }[] = [];
    for (let v = min; v <= max; v++) values.push({ value: v, count: count(String(v)) });
    const total = values.reduce((s, p) => s + p.count, 0);
    const mean = total ? Math.round((values.reduce((s, p) => s + p.value * p.count, 0) / total) * 100) / 100 : null;
    const points: ValueCount[] = values.map((p) => ({ value: String(p.value), count: p.count, percent: percent(p.count, answered) }));
    return { kind: 'scale', base: answered, min, max, ...(minLabel ? { minLabel } : {}), ...(maxLabel ? { maxLabel } : {}), points, mean, median: medianOf(values) };
  },
  answerColumns: oneColumn(() => (answer) => (typeof answer === 'number' ? answer : null)),
};
