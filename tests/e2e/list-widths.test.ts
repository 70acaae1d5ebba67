import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, loginAs, newPage, url } from './browser.js';
import { chooseLanguage, LANGUAGES, openScreen } from './accessibility-checks.js';

// Lists fit their screen: at 1280 px no table is wider than the content area it sits
// in (every column and the row actions visible without scrolling sideways), and at 360 px the
// page never scrolls sideways. Measured with the longest titles and names the demo school has.
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

const LISTS = ['/forms/list', '/data-statistics/list', '/master/teachers/list', '/master/students/list', '/master/admins/list', '/master/positions/list', '/master/teacher-groups/list', '/master/grade-classes/list', '/master/years/list', '/questionnaire-filling/list'];

/** The actions column's header and row buttons that lie (partly) outside the area the table is in. */
const actionsCut = (page: Page) =>
  page.evaluate(() => {
    const out: string[] = [];
    for (const table of Array.from(document.querySelectorAll('table'))) {
      const area = table.parentElement!.getBoundingClientRect();
      for (const el of Array.from(table.querySelectorAll<HTMLElement>('th.column-actions, td.column-actions button, td.column-actions a'))) {
        const r = el.getBoundingClientRect();
        if (r.width && (r.left < area.left - 1 || r.right > area.right + 1)) out.push(`${el.tagName.toLowerCase()} «${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim()}» at ${Math.round(r.left)}–${Math.round(r.right)} px, the area ${Math.round(area.left)}–${Math.round(area.right)}`);
      }
    }
    return out;
  });

/** How far the widest table runs past the area that holds it, in px (0: it fits). */
const overflow = (page: Page) =>
  page.evaluate(() => {
    const tables = [...document.querySelectorAll('table')];
    return Math.max(0, ...tables.map((t) => (t.parentElement ? t.scrollWidth - t.parentElement.clientWidth : 0)));
  });

describe('lists fit the screen', () => {
  // with real Chinese glyphs (tests/e2e/chinese-glyphs.test.ts), in both languages, as a user of
  // each kind: every list in its content area at a desktop's 1280 px and at 1024 px (where QE
  // turns to its phone layout and lists become cards), its actions column and every row's action
  // buttons inside it, and the page never scrolling sideways
  for (const width of [1280, 1024]) {
    for (const username of ['admin', 'teacher01']) {
      it(`at ${width} px as ${username}, in both languages: no list wider than its area, the actions in view`, { timeout: 240_000 }, async () => {
        const page = await newPage(browser, { width, height: 800 });
        await loginAs(page, username);
        const lists = LISTS.filter((path) => username === 'admin' || path.startsWith('/forms') || path.startsWith('/questionnaire-filling') || path.startsWith('/data-statistics'));
        const problems: string[] = [];
        for (const language of LANGUAGES) {
          await chooseLanguage(page, language);
          for (const path of lists) {
            await openScreen(page, path);
            const over = await overflow(page);
            if (over > 0) problems.push(`${language} ${path}: the table runs ${over} px past its area`);
            const page_ = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
            if (page_ > 0) problems.push(`${language} ${path}: the page scrolls sideways by ${page_} px`);
            for (const cut of await actionsCut(page)) problems.push(`${language} ${path}: ${cut}`);
          }
        }
        expect(problems).toEqual([]);
        await page.context().close();
      });
    }
  }

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
