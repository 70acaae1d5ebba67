import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import type { Definition } from '../../src/shared/questionnaire/definition.js';
import { percent, type StatisticsDetail } from '../../src/shared/statistics/types.js';
import { drawsWith, embeddedGlyphs, NOTO_EMOJI, NOTO_SANS_TC } from '../support/pdf-glyphs.js';
import { api, apiLogin, launchBrowser, loginAs, newPage, openedForClass, url } from './browser.js';

// In the browser: a zh-hk questionnaire for class 1A receives replies through the
// API; the teacher in charge opens it from the statistics list, sees the counts the test computes
// from the answers it sent, prints the PDF report (made in the browser with the Traditional Chinese
// font that loads on demand, the top bar saying so) and poppler reads the Chinese text, the counts
// and the charts out of it. A teacher neither in charge nor assisting gets 404. A questionnaire
// written with Hong Kong characters beyond the basic plane (𠝹, 𨋢) and answered with emoji
// prints with every one of them read from the text layer and drawn by an embedded glyph.
let browser: Browser;
let work: string;
beforeAll(async () => {
  browser = await launchBrowser();
  work = mkdtempSync(join(tmpdir(), 'qe-e2e-statistics-'));
});
afterAll(async () => {
  await browser?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

const c = (id: string, label: string) => ({ id, label });
const RADIO = [c('a', '非常同意'), c('b', '同意'), c('c', '不同意')];
const CHECKBOX = [c('a', '閱讀興趣小組'), c('b', '籃球隊'), c('c', '中樂團')];
const definition: Definition = {
  version: 1,
  sections: [
    {
      id: 's1',
      title: '校園生活',
      questions: [
        { id: 'q1', type: 'RADIO', title: '我喜歡上學', required: true, options: RADIO },
        { id: 'q2', type: 'CHECKBOX', title: '你參加了哪些課外活動', required: false, options: CHECKBOX },
        { id: 'q3', type: 'LINEAR_SCALE', title: '你對學校整體的評分', required: true, scale: { min: 1, max: 5, minLabel: '很差', maxLabel: '很好' } },
        { id: 'q4', type: 'SHORT_TEXT', title: '你對學校的建議', required: false },
      ],
    },
  ],
};

type Reply = { q1: string; q2: string[]; q3: number; q4?: string };
/** What five students of 1A answer (student001…student017 are 1A in the demo school). */
const REPLIES: Record<string, Reply> = {
  student003: { q1: 'a', q2: ['a', 'b'], q3: 5, q4: '希望增加戶外學習日' },
  student004: { q1: 'a', q2: ['b'], q3: 4, q4: '圖書館開放時間可以長一些' },
  student005: { q1: 'b', q2: ['b', 'c'], q3: 4 },
  student006: { q1: 'a', q2: [], q3: 3, q4: '增設自修室' },
  student007: { q1: 'c', q2: ['a', 'b', 'c'], q3: 5 },
};

/** Hong Kong characters: two beyond the basic plane (Cantonese 𠝹 'to cut', 𨋢 'lift'), and 峯 邨 嘅 咗. */
const HK = ['𠝹', '𨋢', '峯', '邨', '嘅', '咗'];
const HK_TEACHER = '陳𨋢峯';
const HK_EMOJI = ['😀', '👍', '❤️'];
const HK_DEFINITION = {
  version: 1,
  sections: [
    {
      id: 's1',
      title: '屋邨設施',
      questions: [
        { id: 'q1', type: 'RADIO', title: '𠝹邨嘅活動', required: true, options: [c('a', '𠝹西瓜'), c('b', '搭𨋢'), c('c', '峯景')] },
        { id: 'q2', type: 'GRID_RADIO', title: '邨內設施', required: true, rows: [c('r1', '𨋢'), c('r2', '𠝹草機')], columns: [c('k1', '好咗'), c('k2', '差咗')] },
        { id: 'q3', type: 'SHORT_TEXT', title: '講吓意見', required: true },
      ],
    },
  ],
} satisfies Definition;
/** What three students of 1A answer: one each of q1's options, and a text with an emoji. */
const HK_REPLIES: Record<string, { q1: string; q2: Record<string, string>; q3: string }> = {
  student008: { q1: 'a', q2: { r1: 'k1', r2: 'k2' }, q3: '部𨋢修好咗 😀' },
  student009: { q1: 'b', q2: { r1: 'k2', r2: 'k1' }, q3: '𠝹完西瓜 👍' },
  student010: { q1: 'c', q2: { r1: 'k1', r2: 'k1' }, q3: '屋邨嘅峯景 ❤️' },
};

/** The summaries counted independently from the replies sent, as API.md defines them. */
function expected() {
  const replies = Object.values(REPLIES);
  const q1Base = replies.length;
  const q1 = RADIO.map((o) => ({ label: o.label, count: replies.filter((r) => r.q1 === o.id).length })).map((x) => ({ ...x, percent: percent(x.count, q1Base) }));
  const q2Base = replies.filter((r) => r.q2.length > 0).length; // respondents who answered the question
  const q2 = CHECKBOX.map((o) => ({ label: o.label, count: replies.filter((r) => r.q2.includes(o.id)).length })).map((x) => ({ ...x, percent: percent(x.count, q2Base) }));
  const scale = replies.map((r) => r.q3).sort((a, b) => a - b);
  const q3 = [1, 2, 3, 4, 5].map((p) => ({ label: String(p), count: scale.filter((v) => v === p).length })).map((x) => ({ ...x, percent: percent(x.count, scale.length) }));
  const mean = Math.round((scale.reduce((s, v) => s + v, 0) / scale.length) * 100) / 100;
  const median = scale.length % 2 ? scale[(scale.length - 1) / 2] : (scale[scale.length / 2 - 1] + scale[scale.length / 2]) / 2;
  const texts = replies.flatMap((r) => (r.q4 ? [r.q4] : []));
  return { submitted: replies.length, q1, q2, q2Base, q3, mean, median, texts };
}

/** The cells of a summary table's rows, as shown. */
async function rows(table: Locator): Promise<string[][]> {
  return table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('th, td')].map((td) => (td.textContent ?? '').trim())));
}

const squash = (s: string) => s.replace(/[ \t]+/g, ' ');

/** Opens a questionnaire's statistics from the statistics list. */
async function openDetail(page: Page, title: string, id: number): Promise<void> {
  await page.goto(url('/data-statistics/list'));
  await page.getByRole('row').filter({ hasText: title }).first().click();
  await page.waitForURL(new RegExp(`/data-statistics/detail\\?id=${id}$`));
  await page.getByTestId('statistics-detail').waitFor();
}

/**
 * Waits for the PDF support (the top bar says it is ready, the button is enabled), prints the
 * report and saves the download as <title>-<date>.pdf would be saved: its file and bytes.
 */
async function downloadPdf(page: Page, title: string): Promise<{ file: string; bytes: Buffer }> {
  const status = page.getByTestId('pdf-status');
  // react-admin's top bar hides while the page is scrolled down (the texts' marks made it long enough)
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForFunction(() => document.querySelector('[data-testid="pdf-status"]')?.getAttribute('data-state') === 'success', undefined, { timeout: 30_000 });
  // the scroll event that brings the bar back comes a frame after the scroll: wait until it is shown
  await status.waitFor({ state: 'visible' });
  await expect(status.innerText()).resolves.toBe('PDF 已就緒');
  const print = page.getByTestId('statistics-pdf');
  await expect(print.innerText()).resolves.toContain('列印 PDF');
  await expect(print.isEnabled()).resolves.toBe(true);
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), print.click()]);
  const name = download.suggestedFilename();
  expect(name.startsWith(`${title}-`), name).toBe(true);
  expect(name.slice(title.length)).toMatch(/^-\d{4}-\d{2}-\d{2}\.pdf$/);
  const file = join(work, `report-${Date.now()}.pdf`);
  await download.saveAs(file);
  return { file, bytes: readFileSync(file) };
}

describe('statistics of a questionnaire, on screen and as a PDF', () => {
  it('shows the counts of the replies sent, prints them as a Chinese PDF, and is hidden from other teachers', async () => {
    // set-up through the API: teacher01 makes a zh-hk questionnaire for 1A that opens now
    const teacher = await apiLogin('teacher01');
    const title = `學生對校園生活的意見調查 ${Date.now()}`;
    const id = await openedForClass(teacher, '1A', title, definition);

    // five students reply
    for (const [username, r] of Object.entries(REPLIES)) {
      const answers: Record<string, unknown> = { q1: { choice: r.q1 }, q3: r.q3 };
      if (r.q2.length) answers.q2 = { choices: r.q2 };
      if (r.q4) answers.q4 = r.q4;
      const sent = await api(`/v1/my/questionnaires/${id}/replies`, await apiLogin(username), 'POST', { submissionKey: `e2e-statistics-${username}`, answers });
      expect(sent.envelope.code, `${username}: ${sent.envelope.msg}`).toBe(200);
    }
    const want = expected();

    // another teacher, neither in charge nor assisting, cannot read the statistics
    const other = await api(`/v1/statistics/${id}`, await apiLogin('teacher19'), 'GET');
    expect(other.status).toBe(404);
    expect(other.envelope.code).toBe(404);
    const mine = await api<StatisticsDetail>(`/v1/statistics/${id}`, teacher);
    expect(mine.envelope.code, mine.envelope.msg).toBe(200);
    const respondents = mine.envelope.data.respondentNum;
    expect(respondents).toBeGreaterThanOrEqual(want.submitted);

    // the teacher in charge opens it from the statistics list
    const page = await newPage(browser);
    await loginAs(page, 'teacher01');
    await openDetail(page, title, id);
    await expect(page.getByTestId('statistics-title').innerText()).resolves.toBe(title);
    await expect(page.getByTestId('fact-submitted').innerText()).resolves.toContain(String(want.submitted));
    await expect(page.getByTestId('fact-respondents').innerText()).resolves.toContain(String(respondents));

    // the counts shown are the counts of the replies sent
    const shown = (q: string) => rows(page.getByTestId(`stat-question-${q}`).locator('table').first());
    await page.getByTestId('stat-question-q1').locator('table').first().waitFor();
    const fmt = (x: { label: string; count: number; percent: number }) => [x.label, String(x.count), `${x.percent}%`];
    expect(await shown('q1')).toEqual(want.q1.map(fmt));
    expect(await shown('q2')).toEqual(want.q2.map(fmt));
    expect(await shown('q3')).toEqual(want.q3.map(fmt));
    await expect(page.getByTestId('stat-question-q3').getByTestId('scale-mean').innerText()).resolves.toContain(String(want.mean));
    await expect(page.getByTestId('stat-question-q3').getByTestId('scale-median').innerText()).resolves.toContain(String(want.median));
    const texts = page.getByTestId('stat-question-q4').getByTestId('text-answer');
    await texts.first().waitFor();
    expect((await texts.allInnerTexts()).map((t) => t.trim()).sort()).toEqual([...want.texts].sort());

    // its frequent words (Intl.Segmenter's words; particles left out): choosing 圖書館 shows the one answer that uses it
    const terms = page.getByTestId('terms-q4-answer');
    const library = terms.getByRole('button', { name: /^圖書館 1 個回覆$/ });
    await library.waitFor();
    expect(await terms.getByRole('button', { name: /^(嘅|可以|一些) / }).count()).toBe(0);
    await library.click();
    await expect.poll(async () => (await texts.allInnerTexts()).map((t) => t.trim())).toEqual(want.texts.filter((t) => t.includes('圖書館')));
    expect(await library.getAttribute('aria-pressed')).toBe('true');
    await page.getByTestId('texts-all').click();
    await expect.poll(async () => (await texts.allInnerTexts()).length).toBe(want.texts.length);

    // the PDF support loaded with the detail; the teacher prints the report
    const { file, bytes } = await downloadPdf(page, title);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    console.info(`statistics PDF from the browser: ${bytes.length} bytes`);
    expect(bytes.length).toBeLessThan(1_500_000); // the 7 MB font is subset

    // its text layer: the Chinese title, option labels, counts and percentages, the texts
    const text = squash(execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }));
    expect(text).toContain(title);
    expect(text).toContain(`${respondents} 人中 ${want.submitted} 人已提交`);
    expect(text).toContain('第 1 題 我喜歡上學');
    for (const row of [...want.q1, ...want.q2]) expect(text).toContain(`${row.label} ${row.count} ${row.percent}%`);
    for (const row of want.q3) expect(text).toMatch(new RegExp(`\\n\\s*${row.label} ${row.count} ${row.percent.toString().replace('.', '\\.')}%`));
    expect(text).toMatch(new RegExp(`平均數 ${want.mean}`));
    for (const t of want.texts) expect(text).toContain(t);
    expect(text).toMatch(/第 1 頁，共 \d+ 頁/);
    // the charts of the radio, checkbox and scale questions are images in it
    const images = execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' }).trim().split('\n').slice(2);
    expect(images.length).toBeGreaterThanOrEqual(3);

    // and it renders: pdftoppm draws the first page
    execFileSync('pdftoppm', ['-png', '-r', '50', '-f', '1', '-l', '1', file, join(work, 'page')]);
    const png = readdirSync(work).find((f) => f.startsWith('page') && f.endsWith('.png'));
    expect(png).toBeTruthy();
    const image = readFileSync(join(work, png!));
    expect(image.subarray(1, 4).toString()).toBe('PNG');
    expect(image.length).toBeGreaterThan(2_000);
    await page.close();
  });

  it('keeps every character of Hong Kong names and Cantonese words in the PDF, and draws the emoji of text answers', async () => {
    // a teacher whose Chinese name has a character beyond the basic plane makes the questionnaire: the PDF names them as the person in charge
    const stamp = Date.now();
    const admin = await apiLogin('admin');
    const username = `hkchars${stamp % 1_000_000}`;
    const added = await api('/v1/teachers', admin, 'POST', { code: `HK${stamp % 1_000_000}`, username, password: 'Passw0rd!', nameHk: HK_TEACHER, nameEn: 'Chan Lift Peak' });
    expect(added.status, added.envelope.msg).toBeLessThan(300);
    const teacher = await apiLogin(username);
    const title = `${HK.join('')}問卷 ${stamp}`;
    const id = await openedForClass(teacher, '1A', title, HK_DEFINITION);
    for (const [username, r] of Object.entries(HK_REPLIES)) {
      const answers = { q1: { choice: r.q1 }, q2: r.q2, q3: r.q3 };
      const sent = await api(`/v1/my/questionnaires/${id}/replies`, await apiLogin(username), 'POST', { submissionKey: `e2e-statistics-hk-${username}`, answers });
      expect(sent.envelope.code, `${username}: ${sent.envelope.msg}`).toBe(200);
    }

    const page = await newPage(browser);
    await loginAs(page, username);
    await openDetail(page, title, id);
    await expect(page.getByTestId('statistics-title').innerText()).resolves.toBe(title);
    const { file, bytes } = await downloadPdf(page, title);
    await page.close();

    // the text layer (poppler) holds every one of them where it was written
    const text = squash(execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }));
    expect(text).toContain(title);
    expect(text).toContain(HK_TEACHER);
    const [q1, q2, q3] = HK_DEFINITION.sections[0].questions;
    for (const q of [q1, q2, q3]) expect(text).toContain(q.title);
    for (const o of q1.options ?? []) expect(text).toMatch(new RegExp(`${o.label} 1 33\\.3%`));
    for (const row of q2.rows ?? []) expect(text).toContain(row.label);
    for (const column of q2.columns ?? []) expect(text).toContain(column.label);
    const answers = Object.values(HK_REPLIES).map((r) => r.q3);
    for (const answer of answers) expect(text).toContain(answer.replace(/\uFE0F/g, ''));

    // and drawn: the embedded subset of Noto Sans TC has each one's glyph (the outline of the
    // font file's own), the emoji are drawn with Noto Emoji's glyphs
    const glyphs = embeddedGlyphs(bytes);
    for (const ch of HK) expect(drawsWith(glyphs, NOTO_SANS_TC, ch), ch).toBe(true);
    for (const emoji of HK_EMOJI) expect(drawsWith(glyphs, NOTO_EMOJI, emoji), emoji).toBe(true);
    expect(text).not.toContain('\u25A1'); // nothing had to be replaced
  });
});
