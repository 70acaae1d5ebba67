/**
 * The statistics report as a PDF, made in the browser (docs/architecture.md#a-statistics-call): the questionnaire's
 * title, school year, dates, status, response rate and the filter applied, then every question
 * with its summary table and, for choices, grids and scales, a chart. Text is set in the
 * Traditional Chinese TrueType font (font.ts), in the current language; every label comes
 * from the message files through the translate function given. The numbers are the server's
 * (GET /v1/statistics/{id} and …/texts), never recomputed, so they agree with the screen.
 *
 * The parts: the head (head.ts), each question (question.ts: summaries.ts, charts.ts, texts.ts),
 * set down the pages by layout.ts.
 *
 * This module is loaded lazily (pdfState.ts) together with jspdf and chart.js.
 */
import { jsPDF } from 'jspdf';
import type { StatisticsDetail } from '../../../shared/statistics/types';
import { applyFont } from './font';
import { reportHead } from './head';
import { pageFooters, Writer } from './layout';
import type { StatisticsPdfOptions } from './options';
import { question } from './question';

export type { StatisticsPdfOptions, Translate } from './options';

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

  reportHead(w, detail, options);

  let section = '';
  for (const item of detail.questions) {
    if (item.sectionTitle && item.sectionTitle !== section) {
      section = item.sectionTitle;
      w.ensure(40);
      w.text(section, { size: 14, after: 2 });
    }
    await question(w, item, detail, options, limit);
  }

  pageFooters(doc, q.title, t);
  return doc.output('arraybuffer');
}

/** The report as a PDF Blob, to save as a download. */
export async function makeStatisticsPdf(detail: StatisticsDetail, options: StatisticsPdfOptions): Promise<Blob> {
  return new Blob([await makeStatisticsPdfBytes(detail, options)], { type: 'application/pdf' });
}
