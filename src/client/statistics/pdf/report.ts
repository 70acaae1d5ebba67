/**
 * The statistics report as a PDF, made in the browser (docs/architecture.md#a-statistics-call): the questionnaire's
 * title, school year, dates, status, response rate and the filter applied, then every question
 * with its summary table and, for choices, grids and scales, a chart. Text is set in the
 * Traditional Chinese TrueType font (font.ts), in the report's language (`locale`); every label comes
 * from the message files through the translate function given. The numbers are the server's
 * (GET /v1/statistics/{id} and …/texts), never recomputed, so they agree with the screen.
 *
 * The parts: the head (head.ts), each question (question.ts: summaries.ts, charts.ts, texts.ts),
 * set down the pages by layout.ts.
 *
 * This module is loaded lazily (pdfState.ts) together with pdfkit (and its fontkit) and chart.js.
 */
import PDFDocument from 'pdfkit';
import type { StatisticsDetail } from '../../../shared/statistics/types';
import { titleIn } from '../../../shared/questionnaire/languages';
import { Faces } from './faces';
import { loadFallbackFont, PDF_FONT } from './font';
import { reportHead } from './head';
import { asSource, Writer } from './layout';
import type { StatisticsPdfOptions } from './options';
import { question } from './question';

export type { StatisticsPdfOptions, Translate } from './options';

/** Every string in a value (the detail: titles, labels, names). */
function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) value.forEach((v) => stringsOf(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => stringsOf(v, out));
  return out;
}

/** The document's bytes once it is ended. */
function bytesOf(doc: PDFKit.PDFDocument): Promise<ArrayBuffer> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    doc.on('data', (chunk: Uint8Array) => chunks.push(chunk));
    doc.on('error', reject);
    doc.on('end', () => {
      const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
      let at = 0;
      for (const chunk of chunks) {
        out.set(chunk, at);
        at += chunk.length;
      }
      resolve(out.buffer);
    });
    doc.end();
  });
}

/** The report's bytes (a PDF file). */
export async function makeStatisticsPdfBytes(detail: StatisticsDetail, options: StatisticsPdfOptions): Promise<ArrayBuffer> {
  const t = options.translate;
  const limit = options.textLimit ?? 20;
  const title = titleIn(detail.questionnaire, options.locale === 'en' ? 'en' : 'zh-hk');
  const faces = new Faces(options.fontData);
  const loadFallback = options.fallbackFont ?? loadFallbackFont;
  /** Loads the fallback font before texts that need it are set; without it they show □ (and keep their characters in the text layer). */
  const prepare = async (texts: string[]) => {
    if (faces.fallback || !texts.some((text) => faces.wantsFallback(text))) return;
    try {
      faces.setFallback(await loadFallback());
    } catch {
      // □ then
    }
  };
  await prepare(stringsOf(detail));
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'portrait',
    margin: 0,
    bufferPages: true,
    compress: true,
    pdfVersion: '1.5',
    lang: options.locale === 'en' ? 'en-US' : 'zh-HK',
    info: { Title: title, Subject: title, Creator: 'QE' },
    // the report's font from the start: pdfkit's browser build has no standard font to start with
    font: asSource(faces.main),
  });
  doc.registerFont(PDF_FONT, asSource(faces.main));
  const w = new Writer(doc, faces);
  const texts = options.texts;
  const reportOptions: StatisticsPdfOptions = {
    ...options,
    texts: texts && (async (questionId, part, size) => {
      const page = await texts(questionId, part, size);
      await prepare(page.list.map((answer) => answer.text));
      return page;
    }),
  };

  reportHead(w, detail, reportOptions);

  let section = '';
  for (const item of detail.questions) {
    if (item.sectionTitle && item.sectionTitle !== section) {
      section = item.sectionTitle;
      w.ensure(40);
      w.text(section, { size: 14, after: 2 });
    }
    await question(w, item, detail, reportOptions, limit);
  }

  w.pageFooters(title, t);
  return bytesOf(doc);
}

/** The report as a PDF Blob, to save as a download. */
export async function makeStatisticsPdf(detail: StatisticsDetail, options: StatisticsPdfOptions): Promise<Blob> {
  return new Blob([await makeStatisticsPdfBytes(detail, options)], { type: 'application/pdf' });
}
