import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { QUESTION_TYPES, type Definition, type Question, type QuestionType } from '../../src/shared/questionnaire/definition.js';
import { api, apiLogin, launchBrowser, loginAs, newPage, openedForClass, url } from './browser.js';

// End to end: on a phone (360×640) a student of 1A opens a questionnaire with one question of
// each of the ten types from the list, answers some, reloads mid-way without losing them, answers
// the rest, submits, and sees the read-only view of the answers with nothing left to edit; a second
// submission (another key) is refused with 709. The page never scrolls sideways.
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

const c = (id: string, label: string) => ({ id, label });

/** One question of each of the ten types, in QUESTION_TYPES' order; the short answer is required. */
function question(type: QuestionType, i: number): Question {
  const base = { id: `q${i + 1}`, type, title: `第${i + 1}題 ${type}`, required: type === 'SHORT_TEXT' };
  switch (type) {
    case 'RADIO':
    case 'CHECKBOX':
    case 'DROPDOWN':
      return { ...base, options: [c('a', '選項甲'), c('b', '選項乙'), c('c', '選項丙')] };
    case 'GRID_RADIO':
    case 'GRID_CHECKBOX':
      return { ...base, rows: [c('r1', '第一列'), c('r2', '第二列')], columns: [c('k1', '欄甲'), c('k2', '欄乙'), c('k3', '欄丙')] };
    case 'LINEAR_SCALE':
      return { ...base, scale: { min: 1, max: 5, minLabel: '不同意', maxLabel: '同意' } };
    default:
      return base;
  }
}
const definition: Definition = { version: 1, sections: [{ id: 's1', title: '全部問題', questions: QUESTION_TYPES.map(question) }] };
const idOf = (type: QuestionType) => `q${QUESTION_TYPES.indexOf(type) + 1}`;

/** The page does not scroll sideways at 360 px. */
async function noSideScroll(page: Page) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(360);
}

describe('filling in a questionnaire on a phone', () => {
  it('a student answers all ten types, reloads mid-way without losing anything, submits once and can no longer edit', async () => {
    // set-up through the API: teacher01 makes a questionnaire for 1A that opens now
    const teacher = await apiLogin('teacher01');
    const title = `E2E 手機問卷 ${Date.now()}`;
    const id = await openedForClass(teacher, '1A', title, definition);
    const opened = await api<{ status: string }>(`/v1/questionnaires/${id}`, teacher);
    expect(opened.envelope.data.status).toBe('PROCESSING');

    const page = await newPage(browser, { width: 360, height: 640 });
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.type());
      void d.accept();
    });
    await loginAs(page, 'student001');
    await page.goto(url('/questionnaire-filling/list'));
    const card = page.getByTestId('filling-card').filter({ hasText: title });
    await card.waitFor();
    await expect(card.getByTestId('feedback-chip').innerText()).resolves.toBe('未提交');
    await noSideScroll(page);
    await card.click();
    await page.waitForURL(new RegExp(`/questionnaire-filling/detail\\?id=${id}$`));
    const q = (type: QuestionType) => page.getByTestId(`question-${idOf(type)}`);
    await q('GRID_RADIO').waitFor();
    await noSideScroll(page);

    // the first half
    await q('GRID_RADIO').getByRole('radiogroup', { name: '第一列' }).getByLabel('欄甲').check();
    await q('GRID_RADIO').getByRole('radiogroup', { name: '第二列' }).getByLabel('欄丙').check();
    await q('SHORT_TEXT').getByRole('textbox').fill('陳大文');
    await q('PARAGRAPH').getByRole('textbox').fill('第一行\n第二行');
    await q('RADIO').getByLabel('選項乙').check();
    await q('CHECKBOX').getByLabel('選項甲').check();
    await q('CHECKBOX').getByLabel('選項丙').check();
    await noSideScroll(page);

    // a reload mid-way (the leave warning of the browser is accepted) loses nothing
    await page.reload();
    await q('GRID_RADIO').waitFor();
    await expect(q('SHORT_TEXT').getByRole('textbox').inputValue()).resolves.toBe('陳大文');
    await expect(q('PARAGRAPH').getByRole('textbox').inputValue()).resolves.toBe('第一行\n第二行');
    await expect(q('RADIO').getByLabel('選項乙').isChecked()).resolves.toBe(true);
    await expect(q('CHECKBOX').getByLabel('選項甲').isChecked()).resolves.toBe(true);
    await expect(q('CHECKBOX').getByLabel('選項乙').isChecked()).resolves.toBe(false);
    await expect(q('CHECKBOX').getByLabel('選項丙').isChecked()).resolves.toBe(true);
    await expect(q('GRID_RADIO').getByRole('radiogroup', { name: '第二列' }).getByLabel('欄丙').isChecked()).resolves.toBe(true);
    expect(dialogs).toContain('beforeunload');

    // the rest
    await q('DROPDOWN').locator('select').selectOption('c');
    await q('LINEAR_SCALE').getByLabel('4', { exact: true }).check();
    await q('GRID_CHECKBOX').getByRole('group', { name: '第一列' }).getByLabel('欄甲').check();
    await q('GRID_CHECKBOX').getByRole('group', { name: '第一列' }).getByLabel('欄乙').check();
    await q('GRID_CHECKBOX').getByRole('group', { name: '第二列' }).getByLabel('欄丙').check();
    await q('DATE').getByTestId('answer-date').fill('2025-03-05');
    await q('TIME').getByTestId('answer-time').fill('09:30');
    await noSideScroll(page);

    await page.getByTestId('section-submit').click();
    await page.waitForURL(new RegExp(`/questionnaire-filling/view\\?id=${id}$`));
    await page.getByTestId('filling-submitted').waitFor();
    await noSideScroll(page);

    // the read-only view shows my answers, and nothing can be changed or sent again
    await expect(q('SHORT_TEXT').getByRole('textbox').inputValue()).resolves.toBe('陳大文');
    await expect(q('DROPDOWN').locator('select').inputValue()).resolves.toBe('c');
    await expect(q('LINEAR_SCALE').getByLabel('4', { exact: true }).isChecked()).resolves.toBe(true);
    await expect(q('DATE').getByTestId('answer-date').inputValue()).resolves.toBe('2025-03-05');
    await expect(q('TIME').getByTestId('answer-time').inputValue()).resolves.toBe('09:30');
    await expect(q('GRID_CHECKBOX').getByRole('group', { name: '第一列' }).getByLabel('欄乙').isChecked()).resolves.toBe(true);
    const editable = await page
      .getByTestId('questionnaire-view')
      .locator('input, textarea, select')
      .evaluateAll((els) => els.filter((e) => !(e as HTMLInputElement).disabled && !(e as HTMLInputElement).readOnly).length);
    expect(editable).toBe(0);
    await expect(page.getByTestId('section-submit').count()).resolves.toBe(0);
    await q('SHORT_TEXT').getByRole('textbox').press('X').catch(() => undefined);
    await expect(q('SHORT_TEXT').getByRole('textbox').inputValue()).resolves.toBe('陳大文');

    // stored as answered; a second submission with another key is refused
    const student = await page.evaluate(() => localStorage.getItem('qe-token'));
    const mine = await api<{ feedbackStatus: string; answers: Record<string, unknown> }>(`/v1/my/questionnaires/${id}`, student);
    expect(mine.envelope.data.feedbackStatus).toBe('SUBMITTED');
    expect(mine.envelope.data.answers).toEqual({
      q1: { r1: 'k1', r2: 'k3' },
      q2: '陳大文',
      q3: '第一行\n第二行',
      q4: { choice: 'b' },
      q5: { choices: ['a', 'c'] },
      q6: { choice: 'c' },
      q7: 4,
      q8: { r1: ['k1', 'k2'], r2: ['k3'] },
      q9: '2025-03-05',
      q10: '09:30',
    });
    const again = await api(`/v1/my/questionnaires/${id}/replies`, student, 'POST', { submissionKey: 'another-key-0001', answers: { q2: '第二次' } });
    expect(again.envelope.code).toBe(709);
    // the list says so too
    await page.getByTestId('filling-back').click();
    await expect(page.getByTestId('filling-card').filter({ hasText: title }).getByTestId('feedback-chip').innerText()).resolves.toBe('已提交');
    const draftLeft = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('qe-filling-draft')));
    expect(draftLeft).toEqual([]);
    await page.close();
  });
});
