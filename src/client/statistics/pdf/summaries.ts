/** The summary tables of the PDF report: one per question, by the kind of its summary (choices, grid, scale, distribution). */
import type { QuestionSummary } from '../../../shared/statistics/types';
import { gridCells, summaryLines, type ListedSummary } from '../../../shared/statistics/rows';
import { assertNever } from '../../../shared/exhaustive';
import { formatNumber, formatPercent } from '../labels';
import { GREY, type Writer } from './layout';
import type { Translate } from './options';

export function summaryTable(w: Writer, summary: QuestionSummary, t: Translate): void {
  const count = { header: t('qe.pdf.count'), width: 0.17, align: 'right' as const };
  const share = { header: t('qe.pdf.percent'), width: 0.17, align: 'right' as const };
  // a listed summary's table: a blank label (an 'other' choice's) as `blank`
  const listed = (head: string, s: ListedSummary, blank = '') =>
    w.table([{ header: head, width: 0.66 }, count, share], summaryLines(s).map((l) => [l.label || blank, String(l.count), formatPercent(l.percent)]));
  switch (summary.kind) {
    case 'choices':
      listed(t('qe.pdf.option'), summary, t('qe.pdf.other'));
      break;
    case 'grid': {
      const labelShare = summary.columns.length > 4 ? 0.25 : 0.34;
      const each = (1 - labelShare) / Math.max(1, summary.columns.length);
      w.table(
        [{ header: t('qe.pdf.row'), width: labelShare }, ...summary.columns.map((c) => ({ header: c.label, width: each, align: 'right' as const }))],
        summary.rows.map((r) => [r.label, ...gridCells(summary, r).map((cell) => `${cell.count} (${formatPercent(cell.percent)})`)]),
      );
      break;
    }
    case 'scale': {
      if (summary.minLabel || summary.maxLabel) {
        w.text(t('qe.pdf.scaleEnds', { min: summary.min, minLabel: summary.minLabel ?? '', max: summary.max, maxLabel: summary.maxLabel ?? '' }), { size: 9, color: GREY });
      }
      listed(t('qe.pdf.point'), summary);
      w.fields([
        [t('qe.pdf.mean'), formatNumber(summary.mean)],
        [t('qe.pdf.median'), formatNumber(summary.median)],
      ], 9);
      break;
    }
    case 'distribution':
      if (!summary.values.length) w.text(t('qe.pdf.noAnswers'), { size: 9, color: GREY });
      else listed(t('qe.pdf.value'), summary);
      break;
    case 'texts':
      break;
    default:
      assertNever(summary, 'summary kind');
  }
}
