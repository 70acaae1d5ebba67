import type { QuestionStatistics, StatisticsComparison } from '../calls/statistics.js';
import type { Lang } from '../i18n/text.js';
import { titleIn } from '../questionnaire/languages.js';

type Row = StatisticsComparison['questions'][number];
type Member = StatisticsComparison['series'][number];
export type ComparisonFigure = { count: number; percent: number } | number | null;

/** One column of a question compared across years, and a year's figure in it. */
export interface ComparisonColumn {
  key: string;
  /** an option's, a scale point's or a grid cell's label; null for the mean and the median (the reader's words) */
  label: string | null;
  kind: 'share' | 'mean' | 'median';
  figure: (q: QuestionStatistics) => ComparisonFigure;
}

/** Labels by id over every year that has them, in the newest year's order first (older years' extra ones after). */
function unionOf<T>(years: T[], items: (year: T) => { id: string; label: string }[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const year of [...years].reverse()) for (const item of items(year)) if (!out.has(item.id)) out.set(item.id, item.label);
  return out;
}

/**
 * The columns a question's years are compared by (docs/product-rules.md#comparison-across-years):
 * a choice's options (percent and count); a scale's points, its mean and median; a grid's cells,
 * row by column (percent of the row and count). Dates, times and texts compare by how many
 * answered only. The screen, the xlsx and the PDF read the same columns.
 */
export function comparisonColumns(row: Row): ComparisonColumn[] {
  const known = row.years.filter((q): q is QuestionStatistics => q !== null && q.summary !== null);
  const kind = known[known.length - 1]?.summary?.kind;
  if (kind === 'choices') {
    const summaries = known.flatMap((q) => (q.summary?.kind === 'choices' ? [q.summary] : []));
    return [...unionOf(summaries, (s) => s.choices)].map(([id, label]) => ({
      key: id,
      label,
      kind: 'share' as const,
      figure: (q: QuestionStatistics) => {
        const c = q.summary?.kind === 'choices' ? q.summary.choices.find((x) => x.id === id) : undefined;
        return c ? { count: c.count, percent: c.percent } : null;
      },
    }));
  }
  if (kind === 'scale') {
    const summaries = known.flatMap((q) => (q.summary?.kind === 'scale' ? [q.summary] : []));
    const points = [...unionOf(summaries, (s) => s.points.map((p) => ({ id: p.value, label: p.value })))].sort((a, b) => Number(a[0]) - Number(b[0]));
    return [
      ...points.map(([value]) => ({
        key: `point-${value}`,
        label: value,
        kind: 'share' as const,
        figure: (q: QuestionStatistics) => {
          const p = q.summary?.kind === 'scale' ? q.summary.points.find((x) => x.value === value) : undefined;
          return p ? { count: p.count, percent: p.percent } : null;
        },
      })),
      { key: 'mean', label: null, kind: 'mean' as const, figure: (q: QuestionStatistics) => (q.summary?.kind === 'scale' ? q.summary.mean : null) },
      { key: 'median', label: null, kind: 'median' as const, figure: (q: QuestionStatistics) => (q.summary?.kind === 'scale' ? q.summary.median : null) },
    ];
  }
  if (kind === 'grid') {
    const summaries = known.flatMap((q) => (q.summary?.kind === 'grid' ? [q.summary] : []));
    const rows = unionOf(summaries, (s) => s.rows);
    const columns = unionOf(summaries, (s) => s.columns);
    return [...rows].flatMap(([rowId, rowLabel]) =>
      [...columns].map(([colId, colLabel]) => ({
        key: `${rowId}\u0000${colId}`,
        label: `${rowLabel} · ${colLabel}`,
        kind: 'share' as const,
        figure: (q: QuestionStatistics) => {
          if (q.summary?.kind !== 'grid') return null;
          const r = q.summary.rows.find((x) => x.id === rowId);
          if (!r) return null;
          const cell = r.cells.find((c) => c.id === colId);
          return { count: cell?.count ?? 0, percent: cell?.percent ?? 0 };
        },
      })),
    );
  }
  return [];
}

/** A year of the series as its readers name it: its school year, or its title where it has none. */
export const yearNameOf = (m: Member, lang: Lang): string => m.questionnaire.schoolYear?.name ?? titleIn(m.questionnaire, lang);

/** More lines than this make no readable trend: the table stands alone then. */
export const TREND_MOST = 12;

/**
 * A question's shares as a trend, a line per option, scale point or grid cell with its percent
 * each year (null where the year did not ask it or is withheld), once there are two years to
 * draw a line between; none for a question with more columns than TREND_MOST. The screen and the
 * PDF draw the same lines.
 */
export function trendLines(row: Row, series: Member[]): { label: string; percents: (number | null)[] }[] {
  const columns = comparisonColumns(row);
  if (columns.length > TREND_MOST) return [];
  return columns
    .filter((c) => c.kind === 'share')
    .map((c) => ({
      label: c.label ?? '',
      percents: series.map((m, i) => {
        const q = row.years[i];
        const f = q && !m.withheld ? c.figure(q) : null;
        return f !== null && typeof f === 'object' ? f.percent : null;
      }),
    }))
    .filter((l) => l.percents.filter((p) => p !== null).length >= 2);
}
