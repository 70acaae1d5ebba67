import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Definition } from '../../src/shared/questionnaire/definition.js';
import { apiLogin, launchBrowser, loginAs, newPage, openedForClass } from './browser.js';

// End to end: the home screen shows each role what to do next, from GET /v1/my/dashboard —
// a student on a phone the questionnaires to answer first (one opens the answer screen), a
// teacher the running questionnaires with their response rate, an administrator the school's
// figures. Nothing scrolls sideways at 360 px.
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

const definition: Definition = { version: 1, sections: [{ id: 's1', questions: [{ id: 'q1', type: 'SHORT_TEXT', title: '你今天好嗎？', required: false }] }] };

/**
 * As teacher01, a NAMED questionnaire for class 1A open now that ends within the day (so that it
 * comes first among the to-answer card's ten, soonest end first, whatever other files made): its id.
 */
async function openForOneA(title: string): Promise<number> {
  return openedForClass(await apiLogin('teacher01'), '1A', title, definition, 3 * 3_600_000);
}

/** The cards of the home screen, top to bottom. */
async function cards(page: Page): Promise<string[]> {
  await page.getByTestId('dashboard-cards').waitFor();
  return page.$$eval('[data-testid="dashboard-cards"] section[data-testid^="dashboard-"]', (els) => els.map((e) => e.getAttribute('data-testid')!));
}

/** The page does not scroll sideways at 360 px. */
async function noSideScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
}

describe('the home screen by role', () => {
  it('a student on a phone: what to answer comes first, and a questionnaire opens its answer screen', async () => {
    const title = `E2E 首頁問卷 ${Date.now()}`;
    const id = await openForOneA(title);
    const page = await newPage(browser, { width: 360, height: 640 });
    await loginAs(page, 'student001');
    expect((await cards(page))[0]).toBe('dashboard-to-answer');
    const card = page.getByTestId('dashboard-to-answer');
    await expect(card.getByRole('heading', { level: 2 }).innerText()).resolves.toBe('待填寫的問卷');
    const item = card.getByTestId('to-answer-item').filter({ hasText: title });
    await item.waitFor();
    // three hours from now, Hong Kong time, to the minute
    await expect(item.getByTestId('end-date').innerText()).resolves.toMatch(/^截止 \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    // the card sits above the shortcuts, below the greeting
    const [welcome, top, shortcut] = await Promise.all([page.getByTestId('welcome').boundingBox(), card.boundingBox(), page.getByTestId('shortcut-questionnaireFilling').boundingBox()]);
    expect(welcome!.y).toBeLessThan(top!.y);
    expect(top!.y).toBeLessThan(shortcut!.y);
    await noSideScroll(page);
    await item.click();
    await page.waitForURL(new RegExp(`/questionnaire-filling/detail\\?id=${id}$`));
    await page.getByTestId('question-q1').waitFor();
    await page.close();
  });

  it('a teacher: the running questionnaires with their response rate', async () => {
    // ending within hours, it is among teacher01's ten soonest-ending whatever other files opened
    const title = `E2E 首頁卡 ${Date.now()}`;
    const id = await openForOneA(title);
    const page = await newPage(browser);
    await loginAs(page, 'teacher01');
    expect((await cards(page))[0]).toBe('dashboard-running');
    const item = page.getByTestId('dashboard-running').getByTestId('running-item').filter({ hasText: title });
    await item.waitFor();
    // class 1A's pupils asked, nobody has answered yet
    await expect(item.getByTestId('running-rate').innerText()).resolves.toMatch(/^已提交 0 \/ [1-9]\d*（0%）$/);
    await expect(item.getByRole('progressbar', { name: `${title} 的回覆率：0%` }).getAttribute('aria-valuenow')).resolves.toBe('0');
    // teacher01 is in charge of it: the notice button is offered
    await expect(item.getByRole('button', { name: `發送通知：${title}` }).isVisible()).resolves.toBe(true);
    await item.getByTestId('running-title').click();
    await page.waitForURL(new RegExp(`/data-statistics/detail\\?id=${id}$`));
    await page.close();
  });

  it('an administrator: the school card, also on a phone without sideways scrolling', async () => {
    await openForOneA(`E2E 全校 ${Date.now()}`);
    const page = await newPage(browser, { width: 360, height: 640 });
    await loginAs(page, 'admin');
    // whoever manages all questionnaires sees the school's figures first
    expect((await cards(page))[0]).toBe('dashboard-school');
    const school = page.getByTestId('dashboard-school');
    await expect(school.getByRole('heading', { level: 2 }).innerText()).resolves.toBe('全校概況');
    // the questionnaire just opened at least (other files may have opened more), and class 1A asked
    const figure = async (testId: string) => Number((await school.getByTestId(testId).innerText()).match(/^\d+/)![0]);
    expect(await figure('school-open')).toBeGreaterThanOrEqual(1);
    expect(await figure('school-respondents')).toBeGreaterThanOrEqual(1);
    await expect(school.getByTestId('school-submitted').innerText()).resolves.toMatch(/^\d+（\d+(\.\d)?%）\s*已提交$/);
    // my imports, or that there are none
    await school.getByTestId('import-item').or(school.getByTestId('imports-empty')).first().waitFor();
    await noSideScroll(page);
    await page.close();
  });
});

describe('the home screen in English', () => {
  it('says the same in English', async () => {
    await openForOneA(`E2E home en ${Date.now()}`);
    const page = await newPage(browser);
    await loginAs(page, 'teacher01');
    await page.getByTestId('language-switch').click();
    await page.getByTestId('language-en').click();
    const card = page.getByTestId('dashboard-running');
    // English messages load on demand: waited for, as a user would
    await card.getByRole('heading', { level: 2, name: 'Questionnaires in progress' }).waitFor();
    await expect(card.getByTestId('running-rate').first().innerText()).resolves.toMatch(/^\d+ \/ \d+ submitted \(\d+(\.\d)?%\)$/);
    await expect(card.getByTestId('end-date').first().innerText()).resolves.toMatch(/^Ends \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    await page.getByTestId('language-switch').click();
    await page.getByTestId('language-zh-hk').click();
    await page.getByTestId('menu-dashboard').filter({ hasText: '首頁' }).waitFor();
    await page.close();
  });
});
