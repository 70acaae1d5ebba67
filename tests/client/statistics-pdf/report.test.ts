import { describe, expect, it } from 'vitest';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import en from '../../../src/client/i18n/en';
import { translate as zhTranslate } from '../../../src/client/providers/i18nProvider';
import { makeStatisticsPdf, makeStatisticsPdfBytes } from '../../../src/client/statistics/pdf/report';
import { drawsWith, embeddedGlyphs, NOTO_EMOJI, NOTO_SANS_TC } from '../../support/pdf-glyphs';
import type { StatisticsDetail, TextPage } from '../../../src/shared/statistics/types';
import { detail, fallbackData, fontData, pdfPages, pdfText, texts } from './fixture';

// the school's clock whatever the machine's: the dates below are Hong Kong's
process.env.TZ = 'Asia/Hong_Kong';
const font = fontData();
/** The fallback font, counting how often the report asks for it. */
function fallback() {
  const asked = { count: 0 };
  return { asked, load: () => (asked.count++, Promise.resolve(fallbackData())) };
}
const enTranslate = polyglotI18nProvider(() => en, 'en').translate;
/** pdftotext with the layout kept: compare words, not the spaces between them */
const squash = (s: string) => s.replace(/[ \t]+/g, ' ');

describe('the statistics PDF report', () => {
  it('holds the title, dates, response rate, filter and each question’s numbers in Traditional Chinese, with page numbers', async () => {
    const emoji = fallback();
    const bytes = await makeStatisticsPdfBytes(detail(), { translate: zhTranslate, locale: 'zh-hk', fontData: font, fallbackFont: emoji.load, texts, charts: false, now: new Date(2025, 3, 2) });
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
    // the 7 MB font is subset: only the glyphs used are embedded; the emoji font is not asked for
    expect(bytes.byteLength).toBeLessThan(400_000);
    expect(emoji.asked.count).toBe(0);
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

  describe('with Hong Kong characters beyond the basic plane and emoji', () => {
    const HK = ['𠝹', '𨋢', '峯', '邨', '嘅', '咗'];
    const base = detail();
    const hk = detail({
      questionnaire: { ...base.questionnaire, title: `${HK.join('')}問卷`, principal: { id: 9, nameHk: '陳𨋢峯', nameEn: 'Chan Lift Peak' } },
      questions: [
        { ...base.questions[0], title: '𠝹邨嘅活動', summary: { kind: 'choices', base: 27, choices: [{ id: 'a', label: '𠝹西瓜', count: 13, percent: 48.1 }, { id: 'b', label: '搭𨋢', count: 9, percent: 33.3 }, { id: 'c', label: '峯景', count: 5, percent: 18.5 }] } },
        {
          ...base.questions[1],
          title: '邨內設施',
          summary: {
            kind: 'grid',
            columns: [{ id: 'k1', label: '好咗' }, { id: 'k2', label: '差咗' }],
            rows: [
              { id: 'r1', label: '𨋢', base: 26, cells: [{ id: 'k1', count: 17, percent: 65.4 }, { id: 'k2', count: 9, percent: 34.6 }] },
              { id: 'r2', label: '𠝹草機', base: 25, cells: [{ id: 'k1', count: 11, percent: 44 }, { id: 'k2', count: 14, percent: 56 }] },
            ],
          },
        },
        { ...base.questions[4], title: '講吓意見' },
      ] as StatisticsDetail['questions'],
    });
    const ANSWERS = ['部𨋢修好咗 😀', '𠝹完西瓜 👍', '屋邨嘅峯景 ❤️', `${'𠝹'.repeat(70)}${'👍'.repeat(40)}`, '泰文 ก'];
    const hkTexts = (_: string, part: 'answer' | 'other', size: number): Promise<TextPage> =>
      Promise.resolve(part === 'answer' ? { list: ANSWERS.slice(0, size).map((text, i) => ({ replyId: `r${i}`, text, shown: false })), total: ANSWERS.length, withheld: null, mayMark: false } : { list: [], total: 0, withheld: null, mayMark: false });

    it('reads every one of them from the text layer and draws each with an embedded glyph of its font', async () => {
      const emoji = fallback();
      const bytes = await makeStatisticsPdfBytes(hk, { translate: zhTranslate, locale: 'zh-hk', fontData: font, fallbackFont: emoji.load, texts: hkTexts, charts: false });
      const text = squash(pdfText(bytes));
      expect(text).toContain(`${HK.join('')}問卷`);
      expect(text).toContain('負責人 陳𨋢峯');
      expect(text).toContain('第 1 題 𠝹邨嘅活動');
      expect(text).toMatch(/𠝹西瓜 13 48\.1%/);
      expect(text).toMatch(/搭𨋢 9 33\.3%/);
      expect(text).toMatch(/峯景 5 18\.5%/);
      expect(text).toMatch(/列 好咗 差咗/);
      expect(text).toMatch(/𨋢 17 \(65\.4%\) 9 \(34\.6%\)/);
      expect(text).toMatch(/𠝹草機 11 \(44%\) 14 \(56%\)/);
      expect(text).toContain('1. 部𨋢修好咗 😀');
      expect(text).toContain('2. 𠝹完西瓜 👍');
      expect(text).toMatch(/3\. 屋邨嘅峯景 ❤/);
      // a long answer wraps over lines, losing none of its characters
      expect(text.split('𠝹').length - 1).toBe(1 + 1 + 1 + 1 + 1 + 70 + pdfPages(bytes)); // title, question, option, row, answer 2, answer 4, each page's foot
      expect(text.split('👍').length - 1).toBe(1 + 40);
      // a character neither font has is replaced by □ where it stood
      expect(text).toContain('5. 泰文 □');
      // drawn: the embedded glyphs have the outlines of the font files' own
      const glyphs = embeddedGlyphs(new Uint8Array(bytes));
      for (const ch of HK) expect(drawsWith(glyphs, NOTO_SANS_TC, ch), ch).toBe(true);
      for (const e of ['😀', '👍', '❤️']) expect(drawsWith(glyphs, NOTO_EMOJI, e), e).toBe(true);
      expect(emoji.asked.count).toBe(1);
    });

    it('replaces emoji by □ when the fallback font cannot be loaded, and still prints', async () => {
      const text = squash(pdfText(await makeStatisticsPdfBytes(hk, { translate: zhTranslate, locale: 'zh-hk', fontData: font, fallbackFont: () => Promise.reject(new Error('offline')), texts: hkTexts, charts: false })));
      expect(text).toContain('1. 部𨋢修好咗 □');
      expect(text).toContain('2. 𠝹完西瓜 □');
      expect(text).toContain(`${HK.join('')}問卷`);
    });
  });

  it('answers a PDF Blob', async () => {
    const blob = await makeStatisticsPdf(detail({ questions: [] }), { translate: zhTranslate, locale: 'zh-hk', fontData: font, charts: false });
    expect(blob.type).toBe('application/pdf');
    expect(blob.size).toBeGreaterThan(1000);
  });
});
