import { useTranslate } from '../../i18n/translate';
import type { StatisticsComparison, StatisticsDetail } from '../../../shared/statistics/types';
import type { Lang } from '../../../shared/i18n/text';
import { fetchComparison } from '../api';
import { filterText } from './filterText';
import { pdfFileName, PrintPdfButton, reportLanguage } from './PdfButton';

/**
 * 'Print PDF' on the "Across years" tab (data-statistics.print): the comparison the tab shows
 * (the same filter) as `<title>-<across years>-<yyyy-MM-dd>.pdf`, made in the browser. In a
 * `language` other than the interface's, the comparison is asked for again in that language.
 */
export function ComparisonPdfButton({ id, comparison, groups, filter, title, language }: { id: number; comparison: StatisticsComparison; groups: StatisticsDetail['groups']; filter: StatisticsDetail['filter']; title: string; language?: Lang }) {
  const translate = useTranslate();
  return (
    <PrintPdfButton
      testId="comparison-pdf"
      make={async ({ report, fontData }, interfaceLang) => {
        const { lang, t, other } = await reportLanguage(language, interfaceLang, (key, options) => translate(key, options));
        const shown = other ? await fetchComparison(id, filter, lang) : comparison;
        const blob = await report.makeComparisonPdf(shown, id, { translate: t, locale: lang, fontData, filterText: filterText({ filter, groups }, t, lang) });
        return { blob, name: pdfFileName(`${title}-${t('qe.statistics.tabs.years')}`) };
      }}
    />
  );
}
