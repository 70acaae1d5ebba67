import { describe, expect, it } from 'vitest';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import en from '../../../src/client/i18n/en';
import { translate as zhTranslate } from '../../../src/client/providers/i18nProvider';
import { makeStatisticsPdf, makeStatisticsPdfBytes } from '../../../src/client/statistics/pdf/report';
import { detail, fontData, pdfPages, pdfText, texts } from './fixture';

// the school's clock whatever the machine's: the dates below are Hong Kong's
process.env.TZ = 'Asia/Hong_Kong';
const font = fontData();
const enTranslate = polyglotI18nProvider(() => en, 'en').translate;
/** pdftotext with the layout kept: compare words, not the spaces between them */
const squash = (s: string) => s.replace(/[ \t]+/g, ' ');

describe('the statistics PDF report', () => {
  it('holds the title, dates, response rate, filter and each question’s numbers in Traditional Chinese, with page numbers', async () => {
    const bytes = await makeStatisticsPdfBytes(detail(), { translate: zhTranslate, locale: 'zh-hk', fontData: font, texts, charts: false, now: new Date(2025, 3, 2) });
    expect(new TextDecoder().decode(new Uint8Array(bytes, 0, 5))).toBe('%PDF-');
    const text = squash(pdfText(bytes));
    expect(text).toContain('二零二五年度學生意見調查');
    for (const s of ['學年 2025-2026', '負責人 李大明', '狀態 進行中', '類型 記名', '開始日期 2025-03-03 09:00', '結束日期 2025-03-31 17:00', '建立日期 2025-03-01', '列印日期 2025-04-02', '回應者 全部回應者', '36 人中 27 人已提交（75%）', '計算的回覆 27']) {
      expect(text).toContain(s);
    }
    // choices: label, count, percent; the respondents' own texts under 'Other'
    expect(text).toMatch(/第 1 題 你最喜歡的科目/);
    expect(text).toContain('題型：單選題 回答人數：27');
    expect(text).toMatch(/中文科 13 48\.1%/);
    expect(text).toMatch(/數學科 9 33\.3%/);
    expect(text).toMatch(/其他 5 18\.5%/);
    expect(text).toContain('視覺藝術5');
    // grid: each row's counts and percent per column
    expect(text).toMatch(/圖書館 17 \(65\.4%\) 9 \(34\.6%\)/);
    expect(text).toMatch(/小食部 11 \(44%\) 14 \(56%\)/);
    // scale: points, mean (two decimals) and median
    expect(text).toMatch(/1 = 非常差；5 = 非常好/);
    expect(text).toMatch(/\n\s*4 11 40\.7%/);
    expect(text).toMatch(/平均數 3\.78/);
    expect(text).toMatch(/中位數 4/);
    // distribution
    expect(text).toMatch(/2025-04-12 2 66\.7%/);
    // texts: the first 20 of 23, and the total
    expect(text).toContain('共 23 個回答，以下為首 20 個');
    expect(text).toContain('20. 意見編號20：增加圖書');
    expect(text).not.toContain('意見編號21');
    // sections and page numbers
    expect(text).toContain('學習生活');
    const pages = pdfPages(bytes);
    expect(pages).toBeGreaterThanOrEqual(2);
    expect(text).toContain(`第 1 頁，共 ${pages} 頁`);
    expect(text).toContain(`第 ${pages} 頁，共 ${pages} 頁`);
    // the 7 MB font is subset: only the glyphs used are embedded
    expect(bytes.byteLength).toBeLessThan(400_000);
    console.info(`statistics PDF (no charts): ${bytes.byteLength} bytes, ${pages} pages`);
  });

  it('is in English when the user reads English, names of master data included', async () => {
    const d = detail({ filter: { role: 'STUDENT', classId: 5 } });
    const text = squash(pdfText(await makeStatisticsPdfBytes(d, { translate: enTranslate, locale: 'en', fontData: font, texts, charts: false })));
    expect(text).toContain('二零二五年度學生意見調查'); // the title as written
    expect(text).toContain('Person in charge Lee Tai Ming');
    expect(text).toContain('Status In progress');
    // one date format in both languages: yyyy-MM-dd, and HH:mm on the 24-hour clock
    expect(text).toContain('2025-03-03 09:00');
    expect(text).toContain('2025-03-31 17:00');
    expect(text).toContain('2025-03-01');
    expect(text).toContain('Respondents Role: Student; Class: 1A');
    expect(text).toContain('27 of 36 submitted (75%)');
    expect(text).toMatch(/Question 1 你最喜歡的科目/);
    expect(text).toMatch(/Type: Multiple choice/);
    expect(text).toMatch(/Option\s+Count\s+Percent/);
    expect(text).toContain('The first 20 of 23 answers');
    expect(text).toMatch(/Page 1 of \d/);
  });

  it('shows the withheld note instead of any summary when the group is too small', async () => {
    const d = detail({ withheld: { minGroupSize: 5, reason: 'group' }, questions: detail().questions.map((q) => ({ ...q, summary: null })), questionnaire: { ...detail().questionnaire, type: 'ANONYMOUS' } });
    let asked = 0;
    const text = squash(pdfText(await makeStatisticsPdfBytes(d, { translate: zhTranslate, locale: 'zh-hk', fontData: font, texts: (...a) => (asked++, texts(...a)), charts: false })));
    expect(text).toContain('的回覆少於 5 份');
    expect(text).toContain('第 5 題 其他意見');
    expect(text).not.toContain('中文科');
    expect(text).not.toContain('意見編號');
    expect(asked).toBe(0);
  });

  it('answers a PDF Blob', async () => {
    const blob = await makeStatisticsPdf(detail({ questions: [] }), { translate: zhTranslate, locale: 'zh-hk', fontData: font, charts: false });
    expect(blob.type).toBe('application/pdf');
    expect(blob.size).toBeGreaterThan(1000);
  });
});
