import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser, loginAs, url } from './browser.js';

// A phone's filters wait behind the filter button; the one a user adds opens its choices on the
// first tap, as a touch screen taps (touch events, a phone's viewport), wherever on the field it lands.
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

async function phone(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 360, height: 640 }, hasTouch: true, isMobile: true, locale: 'zh-HK' });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return page;
}

// react-admin focuses a filter 50 ms after adding it, and the filter menu gives focus back to its
// button as it closes: which comes last depends on the machine's speed. Each order is taken here.
const TAPS: Record<string, (page: Page, field: Locator) => Promise<void>> = {
  'on its text': (_page, field) => field.tap(),
  'on its text after the field took focus': async (_page, field) => {
    await field.focus();
    await field.tap();
  },
  'on its upper edge after the field took focus': async (page, field) => {
    await field.focus();
    await tapUpperEdge(page, field);
  },
  // the field keeps focus with its choices shut (as after Escape, or after a choice): a tap on its frame opens them again
  'on its upper edge after its choices were shut': async (page, field) => {
    await field.focus();
    await page.keyboard.press('ArrowDown');
    await page.getByRole('listbox').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('listbox').waitFor({ state: 'detached' });
    await tapUpperEdge(page, field);
  },
};

// where a thumb often lands: the field's frame, above its text
async function tapUpperEdge(page: Page, field: Locator) {
  const box = (await field.locator('xpath=..').boundingBox())!;
  await page.touchscreen.tap(box.x + box.width / 2, box.y + 4);
}

describe('a filter on a phone', () => {
  for (const [route, name] of [
    ['students', /^(班別|Class)$/],
    ['teachers', /^(職位|Position)$/],
  ] as const) {
    it.each(Object.keys(TAPS))(`the ${route} list: a filter added through the filter button opens its choices on the first tap %s`, async (where) => {
      const page = await phone();
      await loginAs(page, 'admin');
      await page.goto(url(`/master/${route}/list`));
      await page.getByTestId('master-filters').tap();
      await page.getByRole('menuitemcheckbox', { name }).tap();
      const field = page.getByRole('combobox', { name });
      await field.waitFor();
      // once the filter menu has gone: its role leaves at once, its invisible backdrop only after the
      // closing transition (a tap in between lands on the backdrop, as a thumb that quick would)
      await page.getByRole('menu').waitFor({ state: 'detached' });
      await page.locator('.MuiMenu-root').waitFor({ state: 'detached' });
      await TAPS[where](page, field);
      await page.getByRole('listbox').waitFor({ timeout: 5_000 });
      expect(await page.getByRole('option').count()).toBeGreaterThan(0);
      // the choice filters the list
      await page.getByRole('option').first().tap();
      await expect.poll(() => decodeURIComponent(page.url())).toMatch(/filter=\{.*Id"?:/);
      await page.context().close();
    });
  }
});
