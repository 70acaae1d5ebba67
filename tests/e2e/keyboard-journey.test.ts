import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { QUESTION_TYPES, type Definition, type Question, type QuestionType } from '../../src/shared/questionnaire/definition.js';
import { api, apiLogin, launchBrowser, newPage, openedForClass, url } from './browser.js';

// WCAG 2.1.1 (keyboard), 2.4.7 (focus visible), 2.5.8 (target size), 2.5.7 (no dragging needed):
// a pupil signs in, opens a questionnaire from the menu's answer list, answers one question of each
// of the ten types and submits it with the keyboard only — Tab, Shift+Tab, arrows, Space, Enter and
// typing; locators are only used to read what is focused. Every control focused on the way shows
// its focus and is at least 24×24 px (or inline text). At a desktop and at a phone size.
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

const c = (id: string, label: string) => ({ id, label });
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
const idOf = (type: QuestionType) => `question-q${QUESTION_TYPES.indexOf(type) + 1}`;

/** What the focused element is, as the tests match it, and whether it shows its focus and is big enough. */
interface Focused {
  testId: string;
  question: string;
  group: string;
  label: string;
  href: string;
  card: string;
  tag: string;
  checked: boolean;
  value: string;
  visible: boolean;
  size: string;
  bigEnough: boolean;
}

async function focused(page: Page): Promise<Focused | null> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return null;
    const text = (id: string | null) => (id ? id.split(' ').map((i) => document.getElementById(i)?.textContent ?? '').join(' ').trim() : '');
    const nameOf = (e: Element | null) => (e ? e.getAttribute('aria-label') ?? text(e.getAttribute('aria-labelledby')) : '');
    const input = el as HTMLInputElement;
    // focus shown: an outline or a box-shadow on the element or on MUI's focus-visible wrapper, or MUI's 2 px focused border/underline of a text field
    const ringed = (e: Element | null) => {
      if (!e) return false;
      const s = getComputedStyle(e);
      return (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) || (s.boxShadow !== 'none' && s.boxShadow !== '');
    };
    // a text field (MUI's, or the login screen's .qe-p-input): a 2 px border all round, or a 2 px underline drawn in full
    const field = el.closest('.MuiInputBase-root.Mui-focused, .qe-p-input');
    const after = field ? getComputedStyle(field, '::after') : null;
    const fullWidth = !!after && (after.transform === 'none' || new DOMMatrix(after.transform).a >= 0.99);
    const fieldShown =
      !!field &&
      (parseFloat(getComputedStyle(field.querySelector('.MuiOutlinedInput-notchedOutline') ?? field).borderTopWidth) >= 2 ||
        (!!after && after.content !== 'none' && fullWidth && parseFloat(after.borderBottomWidth) >= 2));
    const visible = ringed(el) || ringed(el.closest('.Mui-focusVisible')) || fieldShown;
    const box = (el.closest('.MuiButtonBase-root, .MuiInputBase-root') ?? el).getBoundingClientRect();
    const inlineText = el.tagName === 'A' && getComputedStyle(el).display === 'inline';
    return {
      testId: el.getAttribute('data-testid') ?? '',
      question: el.closest('[data-testid^="question-"]')?.getAttribute('data-testid') ?? '',
      group: nameOf(el.closest('[role="radiogroup"], [role="group"]')),
      label: (input.labels?.[0]?.textContent ?? el.getAttribute('aria-label') ?? el.textContent ?? '').trim(),
      href: el.getAttribute('href') ?? '',
      card: (el.closest('[data-testid="filling-card"], tr') as HTMLElement | null)?.innerText ?? '',
      tag: el.tagName.toLowerCase(),
      checked: !!input.checked,
      value: input.value ?? '',
      visible,
      size: `${Math.round(box.width)}×${Math.round(box.height)} ${getComputedStyle(el).display} ${getComputedStyle(el).position} ${getComputedStyle(el).fontSize} ${el.className}`,
      bigEnough: inlineText || (box.width >= 24 && box.height >= 24),
    };
  });
}

/** Checks one focused element: focus shown, big enough. Problems are collected and asserted at the end. */
function check(f: Focused, problems: string[]) {
  const what = `${f.tag} ${f.testId || f.label || f.href} (${f.question})`;
  if (!f.visible) problems.push(`focus not visible: ${what}`);
  if (!f.bigEnough) problems.push(`smaller than 24×24 (${f.size}): ${what}`);
}

/** Presses Tab until the focused element is the one wanted (at most `limit` presses), checking each on the way. */
async function tabTo(page: Page, wanted: (f: Focused) => boolean, what: string, problems: string[], limit = 150): Promise<Focused> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    let f = await focused(page);
    if (!f) continue;
    // a focus ring (or a skip link sliding in) may come with a short transition: wait for it (a bounded wait, not a fixed sleep)
    for (let w = 0; w < 10 && (!f.visible || !f.bigEnough); w++) {
      await page.waitForTimeout(100);
      f = (await focused(page)) ?? f;
    }
    check(f, problems);
    if (wanted(f)) return f;
  }
  throw new Error(`Tab never reached ${what}`);
}

/** Presses a key until the focused element is the one wanted (arrows in a radio group or a select). */
async function pressTo(page: Page, key: string, wanted: (f: Focused) => boolean, what: string, problems: string[]): Promise<Focused> {
  for (let i = 0; i < 8; i++) {
    const f = await focused(page);
    if (f && wanted(f)) {
      check(f, problems);
      return f;
    }
    await page.keyboard.press(key);
  }
  throw new Error(`${key} never reached ${what}`);
}

const inQuestion = (type: QuestionType, group?: string, label?: string) => (f: Focused) =>
  f.question === idOf(type) && (group === undefined || f.group === group) && (label === undefined || f.label === label);
/** A grid's cell: in a group named by the row (phone), or named "row: column" itself (a table on a wide screen). */
const inGrid = (type: QuestionType, row: string, column?: string) => (f: Focused) =>
  f.question === idOf(type) &&
  ((f.group === row && (column === undefined || f.label === column)) || (column === undefined ? f.label.startsWith(`${row}: `) : f.label === `${row}: ${column}`));

async function journey(viewport: { width: number; height: number }, pupil: string) {
  const phone = viewport.width < 600;
  const teacher = await apiLogin('teacher01');
  const title = `鍵盤問卷 ${viewport.width} ${Date.now()}`;
  const id = await openedForClass(teacher, '1A', title, definition);
  const page = await newPage(browser, viewport);
  page.on('dialog', (d) => void d.accept());
  const problems: string[] = [];

  // sign in: Tab to the name, type, Tab to the password, type, Enter
  await page.goto(url('/login'));
  await page.getByTestId('login-username').waitFor();
  await tabTo(page, (f) => f.testId === 'login-username', 'the username', problems);
  await page.keyboard.type(pupil);
  await tabTo(page, (f) => f.testId === 'login-password', 'the password', problems);
  await page.keyboard.type('Passw0rd!');
  await page.keyboard.press('Enter');
  await page.getByTestId('welcome').waitFor();

  // the menu's list of questionnaires to answer (on a phone, behind the menu button)
  if (phone) {
    await tabTo(page, (f) => f.tag === 'button' && /選單|menu/i.test(f.label), 'the menu button', problems);
    await page.keyboard.press('Enter');
    await page.getByTestId('menu-dashboard').waitFor({ state: 'visible' });
  }
  await tabTo(page, (f) => f.href.endsWith('/questionnaire-filling/list'), 'the answer list in the menu', problems);
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/questionnaire-filling\/list/);
  await page.getByText(title).first().waitFor();
  await tabTo(page, (f) => f.card.includes(title), 'the questionnaire card', problems, 400);
  await page.keyboard.press('Enter');
  await page.waitForURL(new RegExp(`/questionnaire-filling/detail\\?id=${id}$`));
  await page.getByTestId(idOf('GRID_RADIO')).waitFor();

  // GRID_RADIO: first row 欄甲 (Space), second row 欄丙 (arrows choose)
  await tabTo(page, inGrid('GRID_RADIO', '第一列'), 'the first row of the grid', problems);
  await pressTo(page, 'ArrowRight', inGrid('GRID_RADIO', '第一列', '欄甲'), '欄甲', problems);
  await page.keyboard.press('Space');
  await tabTo(page, inGrid('GRID_RADIO', '第二列'), 'the second row of the grid', problems);
  await pressTo(page, 'ArrowRight', (f) => inGrid('GRID_RADIO', '第二列', '欄丙')(f) && f.checked, '欄丙', problems);
  // SHORT_TEXT and PARAGRAPH: typed (Enter makes a new line in the paragraph)
  await tabTo(page, inQuestion('SHORT_TEXT'), 'the short answer', problems);
  await page.keyboard.type('陳大文');
  await tabTo(page, inQuestion('PARAGRAPH'), 'the paragraph', problems);
  await page.keyboard.type('第一行');
  await page.keyboard.press('Enter');
  await page.keyboard.type('第二行');
  // RADIO: arrows choose 選項乙
  await tabTo(page, inQuestion('RADIO'), 'the radio question', problems);
  await pressTo(page, 'ArrowDown', (f) => inQuestion('RADIO', undefined, '選項乙')(f) && f.checked, '選項乙', problems);
  // CHECKBOX: Space on 選項甲 and 選項丙; Shift+Tab back to 選項甲 shows it ticked
  await tabTo(page, inQuestion('CHECKBOX', undefined, '選項甲'), '選項甲', problems);
  await page.keyboard.press('Space');
  await tabTo(page, inQuestion('CHECKBOX', undefined, '選項丙'), '選項丙', problems);
  await page.keyboard.press('Space');
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
  expect(await focused(page)).toMatchObject({ question: idOf('CHECKBOX'), label: '選項甲', checked: true });
  // DROPDOWN: arrows on the closed select
  await tabTo(page, inQuestion('DROPDOWN'), 'the dropdown', problems);
  await pressTo(page, 'ArrowDown', (f) => inQuestion('DROPDOWN')(f) && f.value === 'c', '選項丙 in the dropdown', problems);
  // LINEAR_SCALE: arrows to 4
  await tabTo(page, inQuestion('LINEAR_SCALE'), 'the scale', problems);
  await pressTo(page, 'ArrowRight', (f) => inQuestion('LINEAR_SCALE', undefined, '4')(f) && f.checked, '4 on the scale', problems);
  // GRID_CHECKBOX: first row 欄甲 and 欄乙, second row 欄丙
  for (const [row, column] of [['第一列', '欄甲'], ['第一列', '欄乙'], ['第二列', '欄丙']]) {
    await tabTo(page, inGrid('GRID_CHECKBOX', row, column), `${row} ${column}`, problems);
    await page.keyboard.press('Space');
  }
  // DATE and TIME: typed in our format
  await tabTo(page, (f) => f.testId === 'answer-date', 'the date', problems);
  await page.keyboard.type('2025-03-05');
  await tabTo(page, (f) => f.testId === 'answer-time', 'the time', problems);
  await page.keyboard.type('09:30');
  // submit with Enter on the button
  await tabTo(page, (f) => f.testId === 'section-submit', 'the submit button', problems);
  await page.keyboard.press('Enter');
  await page.waitForURL(new RegExp(`/questionnaire-filling/view\\?id=${id}$`));
  await page.getByTestId('filling-submitted').waitFor();

  expect(problems).toEqual([]);
  const token = await page.evaluate(() => localStorage.getItem('qe-token'));
  const mine = await api<{ feedbackStatus: string; answers: Record<string, unknown> }>(`/v1/my/questionnaires/${id}`, token);
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
  await page.close();
}

describe('a pupil answers a questionnaire with the keyboard only', () => {
  it('at 1280×800', { timeout: 240_000 }, () => journey({ width: 1280, height: 800 }, 'student001'));
  it('at 360×640', { timeout: 240_000 }, () => journey({ width: 360, height: 640 }, 'student001'));
});
