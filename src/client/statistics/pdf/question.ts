/** One question of the PDF report: its heading, then its summary table and chart, or its text answers, or the withheld note. */
import type { QuestionStatistics, StatisticsDetail } from '../../../shared/statistics/types';
import { questionTypeKey } from '../labels';
import { CHART_W, chartOf } from './charts';
import { GREY, type Writer } from './layout';
import type { StatisticsPdfOptions } from './options';
import { summaryTable } from './summaries';
import { textList, withheldKey } from './texts';

export async function question(w: Writer, q: QuestionStatistics, detail: StatisticsDetail, options: StatisticsPdfOptions, limit: number): Promise<void> {
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
