import { describe, expect, it } from 'vitest';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import en from '../../../src/client/i18n/en';
import { translate as zhTranslate } from '../../../src/client/providers/i18nProvider';
import { makeComparisonPdfBytes } from '../../../src/client/statistics/pdf/comparison';
import type { QuestionStatistics, StatisticsComparison } from '../../../src/shared/statistics/types';
import { detail, fontData, pdfText } from './fixture';

process.env.TZ = 'Asia/Hong_Kong';
const font = fontData();
const enTranslate = polyglotI18nProvider(() => en, 'en').translate;
const squash = (s: string) => s.replace(/[ \t]+/g, ' ');

const [choice, , scale] = detail().questions as QuestionStatistics[];
const member = (id: number, year: string, replyCount: number, withheld: StatisticsComparison['series'][number]['withheld'] = null) => ({
  questionnaire: { id, title: `學生意見調查 ${year}`, titleTranslation: `Student survey ${year}`, languages: ['zh-hk' as const, 'en' as const], schoolYear: { id, name: year }, status: 'FINISHED' as const, type: 'ANONYMOUS' as const, openDate: null, endDate: null },
  replyCount,
  withheld,
});

/** Three years: the first asked both questions, the second is withheld, the third dropped the scale and added an option. */
function comparison(): StatisticsComparison {
  const third = { ...choice, answered: 40, summary: { kind: 'choices' as const, base: 40, choices: [{ id: 'a', label: '中文科', count: 10, percent: 25 }, { id: 'b', label: '數學科', count: 20, percent: 50 }, { id: 'c', label: '科學科', count: 10, percent: 25 }] } };
  return {
    series: [member(1, '2023-2024', 27), member(2, '2024-2025', 3, { reason: 'total', minGroupSize: 5 }), member(3, '2025-2026', 40)],
    questions: [
      { id: choice.id, type: choice.type, title: choice.title, years: [choice, null, third] },
      { id: scale.id, type: scale.type, title: scale.title, years: [scale, null, null] },
    ],
  } as StatisticsComparison;
}

describe('the comparison across years as a PDF', () => {
  it('holds every year’s figures per option, a withheld year and a question not asked, in Traditional Chinese', async () => {
    const bytes = await makeComparisonPdfBytes(comparison(), 3, { translate: zhTranslate, locale: 'zh-hk', filterText: '全部回應者', fontData: font, charts: false, now: new Date(2026, 8, 2) });
    expect(new TextDecoder().decode(new Uint8Array(bytes, 0, 5))).toBe('%PDF-');
    const text = squash(pdfText(bytes));
    expect(text).toContain('學生意見調查 2025-2026');
    expect(text).toContain('歷年比較');
    expect(text).toContain('列印日期 2026-09-02');
    // the years with their replies; the withheld one says why
    expect(text).toMatch(/2023-2024 學生意見調查 2023-2024 27/);
    expect(text).toMatch(/2025-2026 學生意見調查 2025-2026 40/);
    expect(text).toContain('不顯示（少於 5 人）');
    // a column per year: the option's percent (count); an option the first year did not have is a dash there
    expect(text).toMatch(/選項 2023-2024 2024-2025 2025-2026/);
    expect(text).toMatch(/中文科 48\.1% \(13\) — 25% \(10\)/);
    expect(text).toMatch(/數學科 33\.3% \(9\) — 50% \(20\)/);
    expect(text).toMatch(/科學科 — — 25% \(10\)/);
    // the scale: only the first year asked it
    expect(text).toMatch(/平均數 3\.78 — —/);
    expect(text).toContain('該年沒有此題');
  });

  it('is written in English when asked', async () => {
    const bytes = await makeComparisonPdfBytes(comparison(), 3, { translate: enTranslate, locale: 'en', filterText: 'All respondents', fontData: font, charts: false });
    const text = squash(pdfText(bytes));
    expect(text).toContain('Student survey 2025-2026');
    expect(text).toContain('Across years');
    expect(text).toMatch(/Option 2023-2024 2024-2025 2025-2026/);
    expect(text).toContain('Not asked that year');
    expect(text).toMatch(/Withheld \(fewer/); // a narrow column breaks the rest onto the next line
    expect(text).toMatch(/Mean 3\.78 — —/);
  });
});
