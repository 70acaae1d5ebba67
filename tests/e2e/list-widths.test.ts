import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, loginAs, newPage, url } from './browser.js';

// Lists fit their screen: at 1280 px no table is wider than the content area it sits
// in (every column and the row actions visible without scrolling sideways), and at 360 px the
// page never scrolls sideways. Measured with the longest titles and names the demo school has.
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

const LISTS = ['/forms/list', '/data-statistics/list', '/master/teachers/list', '/master/students/list', '/master/admins/list', '/master/positions/list', '/master/teacher-groups/list', '/master/grade-classes/list', '/master/years/list', '/questionnaire-filling/list'];

/** How far the widest table runs past the area that holds it, in px (0: it fits). */
const overflow = (page: Page) =>
  page.evaluate(() => {
    const tables = [...document.querySelectorAll('table')];
    return Math.max(0, ...tables.map((t) => (t.parentElement ? t.scrollWidth - t.parentElement.clientWidth : 0)));
  });

describe('lists fit the screen', () => {
  it.each(LISTS)('%s at 1280 px: no column cut off', async (path) => {
    const page = await newPage(browser, { width: 1280, height: 800 });
    await loginAs(page, path.startsWith('/questionnaire-filling') ? 'teacher01' : 'admin');
    await page.goto(url(path));
    await page.locator('table, [data-testid="no-data"]').first().waitFor();
    expect(await overflow(page), path).toBeLessThanOrEqual(0);
    await page.close();
  });

  it.each(LISTS)('%s at 360 px: nothing scrolls sideways', async (path) => {
    const page = await newPage(browser, { width: 360, height: 640 });
    await loginAs(page, path.startsWith('/questionnaire-filling') ? 'teacher01' : 'admin');
    await page.goto(url(path));
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), path).toBeLessThanOrEqual(0);
    expect(await overflow(page), path).toBeLessThanOrEqual(0);
    await page.close();
  });

  it('keeps a phone list\'s filters behind one button: the cards follow the search box, a chosen filter shows with its clear button', async () => {
    const page = await newPage(browser, { width: 360, height: 640 });
    await loginAs(page, 'admin');
    await page.goto(url('/master/students/list'));
    const first = page.getByTestId('master-card').first();
    await first.waitFor();
    // the search box and then the first card, no other filter between them
    const top = (await first.boundingBox())!.y;
    expect(top).toBeLessThan(260);
    await page.getByTestId('master-filters').click();
    await page.getByRole('menu').getByText(/狀態/).click();
    await page.keyboard.press('Escape');
    await page.getByRole('combobox', { name: /狀態/ }).waitFor();
    await page.close();
  });
});
