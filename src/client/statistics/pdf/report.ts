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
import type { StatisticsDetail } from '../../../shared/statistics/types';
import { titleIn } from '../../../shared/questionnaire/languages';
import { openPdf, stringsOf } from './document';
import { reportHead } from './head';
import type { StatisticsPdfOptions } from './options';
import { question } from './question';

export type { StatisticsPdfOptions, Translate } from './options';

/** The report's bytes (a PDF file). */
export async function makeStatisticsPdfBytes(detail: StatisticsDetail, options: StatisticsPdfOptions): Promise<ArrayBuffer> {
  const t = options.translate;
  const limit = options.textLimit ?? 20;
  const title = titleIn(detail.questionnaire, options.locale === 'en' ? 'en' : 'zh-hk');
  const { w, prepare, end } = await openPdf({ title, locale: options.locale, fontData: options.fontData, fallbackFont: options.fallbackFont, texts: stringsOf(detail) });
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
  return end();
}

/** The report as a PDF Blob, to save as a download. */
export async function makeStatisticsPdf(detail: StatisticsDetail, options: StatisticsPdfOptions): Promise<Blob> {
  return new Blob([await makeStatisticsPdfBytes(detail, options)], { type: 'application/pdf' });
}

// the comparison across years is made by the same lazily loaded module (pdfState.ts)
export { makeComparisonPdf } from './comparison';
