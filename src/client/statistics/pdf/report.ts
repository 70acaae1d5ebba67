/**
 * The statistics report as a PDF, made in the browser (docs/architecture.md#a-statistics-call): the questionnaire's
 * title, school year, dates, status, response rate and the filter applied, then every question
 * with its summary table and, for choices, grids and scales, a chart. Text is set in the
 * Traditional Chinese TrueType font (font.ts), in the current language; every label comes
 * from the message files through the translate function given. The numbers are the server's
 * (GET /v1/statistics/{id} and …/texts), never recomputed, so they agree with the screen.
 *
 * This module is loaded lazily (pdfState.ts) together with jspdf and chart.js.
 */
import { jsPDF } from 'jspdf';
import { Chart, type ChartConfiguration } from 'chart.js';
import { percent, type QuestionStatistics, type QuestionSummary, type StatisticsDetail, type TextPage, type Withheld } from '../../../shared/statistics/types';
import { gridCells, summaryLines, type ListedSummary } from '../../../shared/statistics/rows';
import { assertNever } from '../../../shared/exhaustive';
import { colour, shorten } from '../charts/setup';
import { formatNumber, formatPercent, nameOf, questionTypeKey } from '../labels';
import { PDF_FONT, applyFont } from './font';
import { formatDateTime, formatDay } from '../../questionnaires/form/labels';

export type Translate = (key: string, options?: Record<string, unknown>) => string;

export interface StatisticsPdfOptions {
  translate: Translate;
  /** 'zh-hk' or 'en': which of the two names of master data is shown */
  locale: string;
  /** the TrueType font, base64 (font.ts loadFontData) */
  fontData: string;
  /** the first `size` text answers of a question (part 'answer'), or the 'other' texts of a choice question */
  texts?: (questionId: string, part: 'answer' | 'other', size: number) => Promise<TextPage>;
  /** draw the charts (needs a canvas: a browser); default true */
  charts?: boolean;
  /** how many text answers a question lists at most; default 20 */
  textLimit?: number;
  /** the print date; default now */
  now?: Date;
}

// A4 portrait, millimetres
const PAGE_W = 210;
const PAGE_H = 297;
const MARGIN = 16;
const TOP = 16;
const BOTTOM = 18;
const CONTENT_W = PAGE_W - 2 * MARGIN;
const PT = 0.3528; // mm per point
const GREY: [number, number, number] = [100, 100, 100];

/** The note of a withheld result: a group too small, or too few replies in all. */
const withheldKey = (w: Withheld | null | undefined) => (w?.reason === 'total' ? 'qe.pdf.withheldTotal' : 'qe.pdf.withheld');
const BLACK: [number, number, number] = [0, 0, 0];

/** A date (yyyy-MM-dd) or a date and time (yyyy-MM-dd HH:mm) as every screen shows it; a dash without one. */
const dayOrDash = (value: string | Date | null | undefined) => formatDay(value instanceof Date ? value.toISOString() : value) || '—';
const dateTimeOrDash = (value: string | null | undefined) => formatDateTime(value) || '—';

interface Column {
  header: string;
  /** share of the content width */
  width: number;
  align?: 'left' | 'right';
}

/** Writes down the page with a cursor, starting a new page when the next block does not fit. */
class Writer {
  y = TOP;

  constructor(readonly doc: jsPDF) {}

  lineHeight(size: number): number {
    return size * PT * 1.35;
  }

  ensure(height: number): void {
    if (this.y + height > PAGE_H - BOTTOM) {
      this.doc.addPage();
      this.y = TOP;
    }
  }

  gap(mm: number): void {
    this.y += mm;
  }

  text(value: string, { size = 10, color = BLACK, indent = 0, after = 1 }: { size?: number; color?: [number, number, number]; indent?: number; after?: number } = {}): void {
    const { doc } = this;
    doc.setFontSize(size);
    doc.setTextColor(...color);
    const lines = doc.splitTextToSize(value, CONTENT_W - indent) as string[];
    const lh = this.lineHeight(size);
    for (const line of lines) {
      this.ensure(lh);
      doc.text(line, MARGIN + indent, this.y, { baseline: 'top' });
      this.y += lh;
    }
    this.y += after;
    doc.setTextColor(...BLACK);
  }

  /** label: value pairs, the labels in a column of their own */
  fields(pairs: [string, string][], size = 10): void {
    const { doc } = this;
    doc.setFontSize(size);
    const labelW = Math.min(55, Math.max(...pairs.map(([l]) => doc.getTextWidth(l))) + 4);
    const lh = this.lineHeight(size);
    for (const [label, value] of pairs) {
      const lines = doc.splitTextToSize(value, CONTENT_W - labelW) as string[];
      this.ensure(lh * lines.length);
      doc.setTextColor(...GREY);
      doc.text(label, MARGIN, this.y, { baseline: 'top' });
      doc.setTextColor(...BLACK);
      lines.forEach((line, i) => doc.text(line, MARGIN + labelW, this.y + i * lh, { baseline: 'top' }));
      this.y += lh * lines.length + 0.6;
    }
  }

  /** A table with a shaded header, repeated on every page it runs over. */
  table(columns: Column[], rows: string[][], size = 9): void {
    const { doc } = this;
    const pad = 1.4;
    const lh = this.lineHeight(size);
    const widths = columns.map((c) => c.width * CONTENT_W);
    doc.setFontSize(size);
    doc.setDrawColor(190, 190, 190);
    doc.setLineWidth(0.2);
    const cellLines = (cells: string[]) => cells.map((cell, i) => doc.splitTextToSize(cell, widths[i] - 2 * pad) as string[]);
    const drawRow = (cells: string[][], header: boolean) => {
      const height = Math.max(...cells.map((c) => c.length)) * lh + 2 * pad;
      let x = MARGIN;
      if (header) {
        doc.setFillColor(238, 238, 238);
        doc.rect(MARGIN, this.y, CONTENT_W, height, 'F');
      }
      cells.forEach((lines, i) => {
        const right = columns[i].align === 'right';
        lines.forEach((line, j) => doc.text(line, right ? x + widths[i] - pad : x + pad, this.y + pad + j * lh, { baseline: 'top', align: right ? 'right' : 'left' }));
        x += widths[i];
      });
      doc.line(MARGIN, this.y + height, MARGIN + CONTENT_W, this.y + height);
      this.y += height;
    };
    const header = cellLines(columns.map((c) => c.header));
    const headerHeight = Math.max(...header.map((c) => c.length)) * lh + 2 * pad;
    const bodies = rows.map(cellLines);
    const firstHeight = bodies.length ? Math.max(...bodies[0].map((c) => c.length)) * lh + 2 * pad : 0;
    this.ensure(headerHeight + firstHeight);
    doc.setFontSize(size);
    drawRow(header, true);
    for (const body of bodies) {
      const height = Math.max(...body.map((c) => c.length)) * lh + 2 * pad;
      if (this.y + height > PAGE_H - BOTTOM) {
        this.ensure(PAGE_H); // a new page
        doc.setFontSize(size);
        drawRow(header, true);
      }
      drawRow(body, false);
    }
    this.y += 2;
  }

  image(png: string, widthPx: number, heightPx: number, widthMm: number): void {
    const heightMm = (widthMm * heightPx) / widthPx;
    this.ensure(heightMm);
    this.doc.addImage(png, 'PNG', MARGIN + (CONTENT_W - widthMm) / 2, this.y, widthMm, heightMm, undefined, 'FAST');
    this.y += heightMm + 3;
  }
}

// ------------------------------------------------------------------ charts

const WHITE_BACKGROUND = {
  id: 'qeWhiteBackground',
  beforeDraw(chart: Chart) {
    const { ctx } = chart;
    ctx.save();
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, chart.width, chart.height);
    ctx.restore();
  },
};

/** Draws one chart on an off-screen canvas, without animation, and answers it as a PNG data URL (null without a canvas). */
function drawChart(config: ChartConfiguration<'bar'>, width: number, height: number): string | null {
  if (typeof document === 'undefined') return null;
  const holder = document.createElement('div');
  holder.style.cssText = `position:fixed;left:-20000px;top:0;width:${width}px;height:${height}px;`;
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  holder.appendChild(canvas);
  document.body.appendChild(holder);
  try {
    const context = canvas.getContext('2d');
    if (!context) return null;
    const chart = new Chart(context, {
      ...config,
      options: { ...config.options, animation: false, responsive: false, maintainAspectRatio: false, devicePixelRatio: 1 },
      plugins: [WHITE_BACKGROUND],
    });
    const png = chart.toBase64Image('image/png', 1);
    chart.destroy();
    return png.startsWith('data:image/png') ? png : null;
  } catch {
    return null;
  } finally {
    holder.remove();
  }
}

const chartFont = { family: `${PDF_FONT}, "Noto Sans CJK TC", "Noto Sans TC", sans-serif`, size: 24 };
const CHART_W = 1000;

function barChart(labels: string[], datasets: { label: string; data: number[]; backgroundColor: string }[], horizontal: boolean, legend: boolean, height: number, stacked = false): string | null {
  const countAxis = { beginAtZero: true, stacked, ticks: { precision: 0, font: chartFont } };
  const labelAxis = { stacked, ticks: { font: chartFont, autoSkip: false } };
  return drawChart(
    {
      type: 'bar',
      data: { labels: labels.map((l) => shorten(l, 30)), datasets },
      options: {
        indexAxis: horizontal ? 'y' : 'x',
        plugins: { legend: { display: legend, position: 'bottom', labels: { font: chartFont, boxWidth: 18 } }, tooltip: { enabled: false } },
        scales: horizontal ? { x: countAxis, y: labelAxis } : { x: labelAxis, y: countAxis },
      },
    },
    CHART_W,
    height,
  );
}

function chartOf(summary: QuestionSummary, otherLabel: string): { png: string; height: number } | null {
  let height: number;
  let png: string | null;
  switch (summary.kind) {
    case 'choices':
      if (!summary.choices.length) return null;
      height = Math.min(900, 60 + summary.choices.length * 46);
      png = barChart(summary.choices.map((c) => c.label || otherLabel), [{ label: '', data: summary.choices.map((c) => c.count), backgroundColor: colour(0) }], true, false, height);
      break;
    case 'grid': {
      if (!summary.rows.length || !summary.columns.length) return null;
      height = Math.min(1000, 110 + summary.rows.length * 50);
      const cells = summary.rows.map((r) => gridCells(summary, r));
      png = barChart(
        summary.rows.map((r) => r.label),
        summary.columns.map((col, i) => ({ label: shorten(col.label, 30), data: cells.map((row) => row[i].count), backgroundColor: colour(i) })),
        true,
        true,
        height,
        true,
      );
      break;
    }
    case 'scale':
      if (!summary.points.length) return null;
      height = 380;
      png = barChart(summary.points.map((p) => p.value), [{ label: '', data: summary.points.map((p) => p.count), backgroundColor: colour(0) }], false, false, height);
      break;
    case 'distribution':
    case 'texts':
      return null;
    default:
      return assertNever(summary, 'summary kind');
  }
  return png ? { png, height } : null;
}

// ------------------------------------------------------------------ the report

function filterText(detail: StatisticsDetail, t: Translate, locale: string): string {
  const { filter, groups } = detail;
  const parts: string[] = [];
  if (filter.role) parts.push(t('qe.pdf.role', { name: t(`qe.userType.${filter.role}`) }));
  if (filter.gradeId !== undefined) {
    const grade = groups.grades.find((g) => g.id === filter.gradeId);
    parts.push(t('qe.pdf.grade', { name: grade ? nameOf(grade, locale) : filter.gradeId }));
  }
  if (filter.classId !== undefined) {
    const klass = groups.classes.find((c) => c.id === filter.classId);
    parts.push(t('qe.pdf.class', { name: klass ? nameOf(klass, locale) : filter.classId }));
  }
  return parts.length ? parts.join(locale === 'en' ? '; ' : '；') : t('qe.pdf.filterAll');
}

function summaryTable(w: Writer, summary: QuestionSummary, t: Translate): void {
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

function textList(w: Writer, page: TextPage | null, total: number, t: Translate, limit: number): void {
  if (page?.withheld) {
    w.text(t(withheldKey(page.withheld), { min: page.withheld.minGroupSize }), { size: 9, color: GREY });
    return;
  }
  if (!total) {
    w.text(t('qe.pdf.noAnswers'), { size: 9, color: GREY });
    return;
  }
  const list = page?.list.slice(0, limit) ?? [];
  const all = page?.total ?? total;
  w.text(list.length < all && list.length ? t('qe.pdf.textsShown', { shown: list.length, total: all }) : t('qe.pdf.textsTotal', { total: all }), { size: 9, color: GREY });
  list.forEach((answer, i) => w.text(`${i + 1}. ${answer.text}`, { size: 9, indent: 3, after: 0.6 }));
  w.gap(1);
}

async function question(w: Writer, q: QuestionStatistics, detail: StatisticsDetail, options: StatisticsPdfOptions, limit: number): Promise<void> {
  const t = options.translate;
  w.ensure(30); // a heading is never left alone at the foot of a page
  w.text(`${t('qe.pdf.question', { number: q.number })}  ${q.title}`, { size: 12, after: 0.8 });
  w.text(`${t('qe.pdf.questionType', { type: t(questionTypeKey(q.type)) })}    ${t('qe.pdf.answered', { count: q.answered })}`, { size: 9, color: GREY });
  if (q.description) w.text(q.description, { size: 9, color: GREY });
  const summary = q.summary;
  if (detail.withheld || !summary) {
    w.text(t(withheldKey(detail.withheld), { min: detail.withheld?.minGroupSize ?? '' }), { size: 9, color: GREY });
    w.gap(3);
    return;
  }
  if (summary.kind === 'texts') {
    const page = options.texts && summary.base > 0 ? await options.texts(q.id, 'answer', limit) : null;
    textList(w, page, summary.base, t, limit);
    w.gap(3);
    return;
  }
  summaryTable(w, summary, t);
  if (options.charts !== false) {
    const chart = chartOf(summary, t('qe.pdf.other'));
    if (chart) w.image(chart.png, CHART_W, chart.height, summary.kind === 'scale' ? 120 : 150);
  }
  const other = summary.kind === 'choices' ? summary.choices.find((c) => c.id === '__other__') : undefined;
  if (other && other.count > 0 && options.texts) {
    w.text(t('qe.pdf.otherTexts'), { size: 9 });
    textList(w, await options.texts(q.id, 'other', limit), other.count, t, limit);
  }
  w.gap(3);
}

/** The report's bytes (a PDF file). */
export async function makeStatisticsPdfBytes(detail: StatisticsDetail, options: StatisticsPdfOptions): Promise<ArrayBuffer> {
  const t = options.translate;
  const limit = options.textLimit ?? 20;
  const q = detail.questionnaire;
  const doc = new jsPDF({ unit: 'mm', format: 'a4', orientation: 'portrait', compress: true, putOnlyUsedFonts: true });
  applyFont(doc, options.fontData);
  doc.setProperties({ title: q.title, subject: q.title, creator: 'QE' });
  doc.setLanguage(options.locale === 'en' ? 'en-US' : 'zh-HK');
  const w = new Writer(doc);

  w.text(q.title, { size: 18, after: 3 });
  const rate = detail.respondentNum > 0 ? formatPercent(percent(detail.submittedNum, detail.respondentNum)) : '—';
  w.fields([
    [t('qe.pdf.schoolYear'), q.schoolYear?.name || '—'],
    [t('qe.pdf.principal'), nameOf(q.principal, options.locale) || '—'],
    [t('qe.pdf.status'), t(`qe.questionnaire.status.${q.status}`)],
    [t('qe.pdf.type'), t(`qe.questionnaire.type.${q.type}`)],
    [t('qe.pdf.openDate'), dateTimeOrDash(q.openDate)],
    [t('qe.pdf.endDate'), dateTimeOrDash(q.endDate)],
    [t('qe.pdf.createDate'), dayOrDash(q.createDate)],
    [t('qe.pdf.filter'), filterText(detail, t, options.locale)],
    [t('qe.pdf.responseRate'), t('qe.pdf.responseCounts', { submitted: detail.submittedNum, respondents: detail.respondentNum, rate })],
    [t('qe.pdf.replies'), String(detail.replyCount)],
    [t('qe.pdf.printedOn'), dayOrDash(options.now ?? new Date())],
  ]);
  w.gap(2);
  if (detail.withheld) w.text(t(withheldKey(detail.withheld), { min: detail.withheld.minGroupSize }), { size: 10, color: [170, 40, 40] });
  doc.setDrawColor(120, 120, 120);
  doc.setLineWidth(0.4);
  doc.line(MARGIN, w.y, PAGE_W - MARGIN, w.y);
  w.gap(4);

  let section = '';
  for (const item of detail.questions) {
    if (item.sectionTitle && item.sectionTitle !== section) {
      section = item.sectionTitle;
      w.ensure(40);
      w.text(section, { size: 14, after: 2 });
    }
    await question(w, item, detail, options, limit);
  }

  // page numbers (and the title) at the foot of every page
  const pages = doc.getNumberOfPages();
  for (let i = 1; i <= pages; i += 1) {
    doc.setPage(i);
    doc.setFontSize(8);
    doc.setTextColor(...GREY);
    const footer = t('qe.pdf.page', { page: i, pages });
    doc.text(footer, PAGE_W - MARGIN, PAGE_H - 9, { align: 'right' });
    const room = CONTENT_W - doc.getTextWidth(footer) - 10;
    const title = (doc.splitTextToSize(q.title, room) as string[])[0] ?? '';
    doc.text(title, MARGIN, PAGE_H - 9);
  }
  return doc.output('arraybuffer');
}

/** The report as a PDF Blob, to save as a download. */
export async function makeStatisticsPdf(detail: StatisticsDetail, options: StatisticsPdfOptions): Promise<Blob> {
  return new Blob([await makeStatisticsPdfBytes(detail, options)], { type: 'application/pdf' });
}
