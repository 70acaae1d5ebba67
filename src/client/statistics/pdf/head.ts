/**
 * The head of the PDF report: the questionnaire's title, school year, principal, status, type,
 * dates, the filter applied, the response rate and the print date, then a rule across the page.
 */
import { percent, type StatisticsDetail } from '../../../shared/statistics/types';
import { titleIn } from '../../../shared/questionnaire/languages';
import { formatPercent, nameOf } from '../labels';
import { formatDateTime, formatDay } from '../../common/schoolClock';
import type { Writer } from './layout';
import type { StatisticsPdfOptions } from './options';
import { withheldKey } from './texts';
import { filterText } from './filterText';

/** A date (yyyy-MM-dd) or a date and time (yyyy-MM-dd HH:mm) on the school's clock, as every screen shows it; a dash without one. */
const dayOrDash = (value: string | Date | null | undefined) => formatDay(value) || '—';
const dateTimeOrDash = (value: string | null | undefined) => formatDateTime(value) || '—';

/** Writes the head at the top of the first page. */
export function reportHead(w: Writer, detail: StatisticsDetail, options: StatisticsPdfOptions): void {
  const t = options.translate;
  const q = detail.questionnaire;
  w.text(titleIn(q, options.locale === 'en' ? 'en' : 'zh-hk'), { size: 18, after: 3 });
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
  w.rule();
  w.gap(4);
}
