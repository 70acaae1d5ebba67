import type { Lang } from '../../shared/errors.js';
import type { AppMessages } from '../../shared/i18n/app-en.js';
import { titleIn } from '../../shared/questionnaire/languages.js';
import { messageText } from '../../shared/master/labels.js';
import type { StatisticsComparison, StatisticsFilter } from '../../shared/statistics/types.js';
import { comparisonColumns, yearNameOf } from '../../shared/statistics/comparison.js';
import type { DB } from '../db/connect.js';
import { put } from './export.js';
import { XlsxWriter, type CellValue } from './xlsx-writer.js';

/**
 * The comparison across years as an xlsx sheet (docs/product-rules.md#comparison-across-years):
 * the series' years and replies, then per question a row per year with the columns the screen
 * shows (`comparisonColumns`) — a share as its count and its percent, so a spreadsheet can chart
 * it — or why the year has no figures.
 */
export async function comparisonWorkbook(db: DB, comparison: StatisticsComparison, chosenId: number, filter: StatisticsFilter, lang: Lang): Promise<Buffer[]> {
  const t = (key: keyof AppMessages['qe']['statisticsExport'], p: Record<string, string | number> = {}) => messageText(lang, `qe.statisticsExport.${key}`, p);
  const y = (key: keyof AppMessages['qe']['statistics']['years'], p: Record<string, string | number> = {}) => messageText(lang, `qe.statistics.years.${key}`, p);
  const { series, questions } = comparison;
  const chosen = series.find((m) => m.questionnaire.id === chosenId)!.questionnaire;
  const yearName = (m: StatisticsComparison['series'][number]) => yearNameOf(m, lang);

  const workbook = new XlsxWriter();
  await workbook.startSheet({ name: t('comparisonSheet'), frozenRows: 0, widths: [48, ...Array.from({ length: 16 }, () => 16)] });
  await put(workbook, [t('title'), titleIn(chosen, lang)], 'first');
  await put(workbook, [t('filter'), await filterText(db, filter, lang, t('everyone'))], 'first');
  await put(workbook, []);
  await put(workbook, [y('year'), ...series.map(yearName)], true);
  await put(workbook, [y('replies'), ...series.map((m) => m.replyCount)]);
  for (const row of questions) {
    const columns = comparisonColumns(row);
    await put(workbook, []);
    await put(workbook, [row.title, messageText(lang, `qe.question.types.${row.type}`)], true);
    const headers = columns.flatMap((c) => (c.kind === 'share' ? [`${c.label} · ${t('count')}`, `${c.label} · ${t('percent')}`] : [t(c.kind)]));
    await put(workbook, [y('year'), y('answered'), ...headers], true);
    for (const [i, m] of series.entries()) {
      const q = row.years[i];
      if (!q) await put(workbook, [yearName(m), y('notAsked')]);
      else if (m.withheld) await put(workbook, [yearName(m), y('withheld', { n: m.withheld.minGroupSize })]);
      else {
        const cells: CellValue[] = columns.flatMap((c) => {
          const f = c.figure(q);
          if (c.kind !== 'share') return [typeof f === 'number' ? f : null];
          return f !== null && typeof f === 'object' ? [f.count, f.percent] : [null, null];
        });
        await put(workbook, [yearName(m), q.answered, ...cells]);
      }
    }
  }
  return workbook.finish();
}

/** Whom the figures count, in the reader's language: a role, a grade, a class, or everyone. */
async function filterText(db: DB, filter: StatisticsFilter, lang: Lang, everyone: string): Promise<string> {
  const name = (n: { name_hk: string; name_en: string } | undefined) => (n ? (lang === 'en' ? n.name_en : n.name_hk) : '');
  const parts = [
    filter.role ? messageText(lang, `qe.userType.${filter.role}`) : '',
    filter.gradeId ? name(await db.selectFrom('grades').select(['name_hk', 'name_en']).where('id', '=', filter.gradeId).executeTakeFirst()) : '',
    filter.classId ? name(await db.selectFrom('classes').select(['name_hk', 'name_en']).where('id', '=', filter.classId).executeTakeFirst()) : '',
  ].filter(Boolean);
  return parts.join(' / ') || everyone;
}
