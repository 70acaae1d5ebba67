/**
 * The comparison across years as a PDF, made in the browser as the statistics report is
 * (report.ts): the questionnaire's title, the respondents compared and the years with their
 * replies, then every question of the series with a table — a row per option, scale point or grid
 * cell (`comparisonColumns`, the screen's and the xlsx's columns), a column per year — and the
 * trend the screen draws (`trendLines`). A year that did not ask a question, or whose group is
 * withheld, says so in its column. The numbers are the server's (GET /v1/statistics/{id}/comparison).
 */
import type { StatisticsComparison } from '../../../shared/statistics/types';
import { comparisonColumns, trendLines, yearNameOf, type ComparisonFigure } from '../../../shared/statistics/comparison';
import { titleIn } from '../../../shared/questionnaire/languages';
import type { Lang } from '../../../shared/i18n/text';
import { formatDay } from '../../common/schoolClock';
import { formatNumber, formatPercent, questionTypeKey } from '../labels';
import { CHART_W, trendChartOf } from './charts';
import { openPdf, stringsOf } from './document';
import { GREY, type Writer } from './layout';
import type { Translate } from './options';

export interface ComparisonPdfOptions {
  translate: Translate;
  /** 'zh-hk' or 'en' */
  locale: string;
  /** the respondents compared, in words (head.ts filterText) */
  filterText: string;
  /** the TrueType font's bytes (font.ts loadFontData) */
  fontData: Uint8Array;
  fallbackFont?: () => Promise<Uint8Array>;
  /** draw the trends (needs a canvas: a browser); default true */
  charts?: boolean;
  /** the print date; default now */
  now?: Date;
}

type Row = StatisticsComparison['questions'][number];
type Member = StatisticsComparison['series'][number];

/** A year's figure in a cell: percent (count), a mean or median, or a dash. */
function cell(figure: ComparisonFigure): string {
  if (figure === null) return '—';
  if (typeof figure === 'number') return formatNumber(figure);
  return `${formatPercent(figure.percent)} (${figure.count})`;
}

/** What the first column lists: options, scale points or grid cells. */
function itemHeader(row: Row, t: Translate): string {
  const kind = row.years.filter((q) => q?.summary).at(-1)?.summary?.kind;
  return t(kind === 'scale' ? 'qe.pdf.point' : kind === 'grid' ? 'qe.pdf.row' : 'qe.pdf.option');
}

function questionYears(w: Writer, row: Row, series: Member[], years: string[], options: ComparisonPdfOptions): void {
  const t = options.translate;
  w.ensure(30); // a heading is never left alone at the foot of a page
  w.text(row.title, { size: 12, after: 0.8 });
  w.text(t('qe.pdf.questionType', { type: t(questionTypeKey(row.type)) }), { size: 9, color: GREY });
  const columns = comparisonColumns(row);
  const labelShare = series.length > 4 ? 0.28 : 0.36;
  const each = (1 - labelShare) / series.length;
  const answered = series.map((m, i) => {
    const q = row.years[i];
    if (!q) return t('qe.statistics.years.notAsked');
    if (m.withheld) return t('qe.statistics.years.withheld', { n: m.withheld.minGroupSize });
    return String(q.answered);
  });
  const figures = columns.map((c) => [
    c.label ?? t(c.kind === 'mean' ? 'qe.pdf.mean' : 'qe.pdf.median'),
    ...series.map((m, i) => {
      const q = row.years[i];
      return q && !m.withheld ? cell(c.figure(q)) : '—';
    }),
  ]);
  w.table(
    [{ header: itemHeader(row, t), width: labelShare }, ...years.map((year) => ({ header: year, width: each, align: 'right' as const }))],
    [[t('qe.statistics.years.answered'), ...answered], ...figures],
  );
  const lines = trendLines(row, series);
  if (options.charts !== false && lines.length) {
    const chart = trendChartOf(years, lines);
    if (chart) w.image(chart.png, CHART_W, chart.height, 140);
  }
  w.gap(3);
}

/** The comparison's bytes (a PDF file). `chosenId`: the questionnaire the comparison was asked from, whose title heads it. */
export async function makeComparisonPdfBytes(comparison: StatisticsComparison, chosenId: number, options: ComparisonPdfOptions): Promise<ArrayBuffer> {
  const t = options.translate;
  const lang: Lang = options.locale === 'en' ? 'en' : 'zh-hk';
  const { series, questions } = comparison;
  const chosen = (series.find((m) => m.questionnaire.id === chosenId) ?? series[series.length - 1]).questionnaire;
  const title = titleIn(chosen, lang);
  const { w, end } = await openPdf({ title, locale: options.locale, fontData: options.fontData, fallbackFont: options.fallbackFont, texts: [...stringsOf(comparison), options.filterText] });
  const years = series.map((m) => yearNameOf(m, lang));

  w.text(title, { size: 18, after: 1 });
  w.text(t('qe.statistics.tabs.years'), { size: 13, color: GREY, after: 3 });
  w.fields([
    [t('qe.pdf.filter'), options.filterText],
    [t('qe.pdf.printedOn'), formatDay(options.now ?? new Date()) || '—'],
  ]);
  w.gap(2);
  w.table(
    [
      { header: t('qe.statistics.years.year'), width: 0.22 },
      { header: t('qe.pdf.questionnaire'), width: 0.6 },
      { header: t('qe.statistics.years.replies'), width: 0.18, align: 'right' },
    ],
    series.map((m, i) => [years[i], titleIn(m.questionnaire, lang), m.withheld ? t('qe.statistics.years.withheld', { n: m.withheld.minGroupSize }) : String(m.replyCount)]),
  );
  w.text(t('qe.statistics.years.intro'), { size: 9, color: GREY });
  w.rule();
  w.gap(4);

  for (const row of questions) questionYears(w, row, series, years, options);

  w.pageFooters(`${title} · ${t('qe.statistics.tabs.years')}`, t);
  return end();
}

/** The comparison as a PDF Blob, to save as a download. */
export async function makeComparisonPdf(comparison: StatisticsComparison, chosenId: number, options: ComparisonPdfOptions): Promise<Blob> {
  return new Blob([await makeComparisonPdfBytes(comparison, chosenId, options)], { type: 'application/pdf' });
}
