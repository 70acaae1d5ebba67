import type { Lang } from '../../shared/errors.js';
import type { Definition, Question } from '../../shared/questionnaire/definition.js';
import { OTHER } from '../../shared/questionnaire/answers.js';
import { messageText } from '../../shared/master/labels.js';
import { assertNever } from '../../shared/exhaustive.js';
import { percent, type QuestionStatistics, type QuestionSummary, type ValueCount } from '../../shared/statistics/types.js';

/** One grouped count: replies that gave `item` (and, in a grid, `col`) to a question. */
export interface CountRow {
  questionId: string;
  item: string;
  col: string;
  n: number;
}

export interface Counts {
  cells: CountRow[];
  /** replies that answered each question */
  answered: Map<string, number>;
  /** grids: replies that answered each row, keyed `${questionId}\0${rowId}` */
  rowBases: Map<string, number>;
}

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

function summary(question: Question, cells: CountRow[], answered: number, rowBases: Counts['rowBases'], lang: Lang): QuestionSummary {
  const count = (item: string, col = '') => cells.find((c) => c.item === item && c.col === col)?.n ?? 0;
  switch (question.type) {
    case 'RADIO':
    case 'DROPDOWN':
    case 'CHECKBOX': {
      const choices = (question.options ?? []).map((o) => ({ id: o.id, label: o.label, count: count(o.id) }));
      if (question.other || count(OTHER)) choices.push({ id: OTHER, label: messageText(lang, 'qe.question.other'), count: count(OTHER) });
      return { kind: 'choices', base: answered, choices: choices.map((c) => ({ ...c, percent: percent(c.count, answered) })) };
    }
    case 'GRID_RADIO':
    case 'GRID_CHECKBOX': {
      const columns = (question.columns ?? []).map((c) => ({ id: c.id, label: c.label }));
      return {
        kind: 'grid',
        columns,
        rows: (question.rows ?? []).map((row) => {
          const base = rowBases.get(`${question.id}\u0000${row.id}`) ?? 0;
          return { id: row.id, label: row.label, base, cells: columns.map((c) => ({ id: c.id, count: count(row.id, c.id), percent: percent(count(row.id, c.id), base) })) };
        }),
      };
    }
    case 'LINEAR_SCALE': {
      const { min = 1, max = 5, minLabel, maxLabel } = question.scale ?? { min: 1, max: 5 };
      const values: { value: number; count: number }[] = [];
      for (let v = min; v <= max; v++) values.push({ value: v, count: count(String(v)) });
      const total = values.reduce((s, p) => s + p.count, 0);
      const mean = total ? Math.round((values.reduce((s, p) => s + p.value * p.count, 0) / total) * 100) / 100 : null;
      const points: ValueCount[] = values.map((p) => ({ value: String(p.value), count: p.count, percent: percent(p.count, answered) }));
      return { kind: 'scale', base: answered, min, max, ...(minLabel ? { minLabel } : {}), ...(maxLabel ? { maxLabel } : {}), points, mean, median: medianOf(values) };
    }
    case 'DATE':
    case 'TIME':
      return {
        kind: 'distribution',
        base: answered,
        values: cells
          .map((c) => c.item)
          .sort()
          .map((value) => ({ value, count: count(value), percent: percent(count(value), answered) })),
      };
    case 'SHORT_TEXT':
    case 'PARAGRAPH':
      return { kind: 'texts', base: answered };
    default:
      return assertNever(question.type, 'question type');
  }
}

/** Every question of the definition, numbered, with its summary (null when withheld). */
export function summarise(definition: Definition, counts: Counts | null, lang: Lang): QuestionStatistics[] {
  const byQuestion = new Map<string, CountRow[]>();
  for (const c of counts?.cells ?? []) {
    const list = byQuestion.get(c.questionId) ?? [];
    list.push(c);
    byQuestion.set(c.questionId, list);
  }
  let number = 0;
  return definition.sections.flatMap((section) =>
    section.questions.map((q): QuestionStatistics => {
      const answered = counts?.answered.get(q.id) ?? 0;
      return {
        id: q.id,
        number: ++number,
        sectionTitle: section.title ?? '',
        type: q.type,
        title: q.title,
        ...(q.description ? { description: q.description } : {}),
        ...(q.image ? { image: q.image } : {}),
        required: q.required,
        answered,
        summary: counts ? summary(q, byQuestion.get(q.id) ?? [], answered, counts.rowBases, lang) : null,
      };
    }),
  );
}
