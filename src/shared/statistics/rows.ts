/**
 * The rows and cells of a question's summary, as every rendering of it takes them: the results
 * screen, the xlsx summary sheet and the PDF (its tables and charts). Each renderer lays them out
 * and formats the numbers in its own way (docs/recipes/add-statistics-summary.md).
 */
import { assertNever } from '../exhaustive.js';
import type { Count, QuestionSummary } from './types.js';

type Summary<K extends QuestionSummary['kind']> = Extract<QuestionSummary, { kind: K }>;

/** The summaries that are one list of answers with their counts: choices, a scale's points, dates or times. */
export type ListedSummary = Summary<'choices' | 'scale' | 'distribution'>;

/**
 * One line of a listed summary. `id`: a choice id (OTHER for the respondents' own texts), or the
 * value itself (a scale point as text, a date, a time); `label`: the choice's label or the value,
 * as the summary gives it (each renderer has its own word for a blank 'other' label).
 */
export interface SummaryLine extends Count {
  id: string;
  label: string;
}

const valueLine = (v: { value: string } & Count): SummaryLine => ({ id: v.value, label: v.value, count: v.count, percent: v.percent });

/** A listed summary's lines, in the order the summary gives them. */
export function summaryLines(summary: ListedSummary): SummaryLine[] {
  switch (summary.kind) {
    case 'choices':
      return summary.choices.map((c) => ({ id: c.id, label: c.label, count: c.count, percent: c.percent }));
    case 'scale':
      return summary.points.map(valueLine);
    case 'distribution':
      return summary.values.map(valueLine);
    default:
      return assertNever(summary, 'summary kind');
  }
}

/** A grid row's cells in the order of the grid's columns, one per column (count 0 where the row has none for it). */
export function gridCells(summary: Summary<'grid'>, row: Summary<'grid'>['rows'][number]): (Count & { id: string })[] {
  return summary.columns.map((col) => {
    const cell = row.cells.find((c) => c.id === col.id);
    return { id: col.id, count: cell?.count ?? 0, percent: cell?.percent ?? 0 };
  });
}
