import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, loginAs, newPage } from './browser.js';

// The phone's menu: at 360 px the ☰ drawer opens and stays open, every entry of every
// group can be reached and chosen, the screen it names opens, and the drawer closes on choosing.
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

const openDrawer = async (page: Page) => {
  await page.getByRole('button', { name: /選單|menu/i }).first().click();
  await page.getByTestId('menu-dashboard').waitFor({ state: 'visible' });
};

/** Every screen entry of the menu (groups opened one by one), as test ids. */
async function entries(page: Page): Promise<{ group: string | null; id: string }[]> {
  await openDrawer(page);
  const found: { group: string | null; id: string }[] = [];
  const direct = await page.$$eval('[data-testid^="menu-"]', (els) => els.map((e) => e.getAttribute('data-testid')!));
  for (const id of direct) {
    if (!id.startsWith('menu-group-')) {
      found.push({ group: null, id });
      continue;
    }
    await page.getByTestId(id).click();
    const inside = await page.$$eval(`[data-testid="${id}"] + * [data-testid^="menu-"]`, (els) => els.map((e) => e.getAttribute('data-testid')!));
    for (const child of inside) found.push({ group: id, id: child });
  }
  await page.keyboard.press('Escape');
  await page.getByTestId('menu-dashboard').waitFor({ state: 'hidden' });
  return found;
}

describe('the phone menu', () => {
  it.each(['superadmin', 'teacher01', 'student001'])('reaches every screen at 360 px as %s, closing on each choice', async (username) => {
    const page = await newPage(browser, { width: 360, height: 640 });
    await loginAs(page, username);
    const all = await entries(page);
    expect(all.length).toBeGreaterThan(1);
    for (const { group, id } of all) {
      await openDrawer(page);
      // still open a moment later: it once closed as it opened
      await page.waitForTimeout(300);
      expect(await page.getByTestId('menu-dashboard').isVisible(), `${id}: the drawer closed by itself`).toBe(true);
      if (group && !(await page.getByTestId(id).isVisible())) await page.getByTestId(group).click();
      const before = page.url();
      await page.getByTestId(id).click();
      if (id !== 'menu-dashboard' || !before.endsWith('/dashboard')) await page.waitForURL((u) => u.toString() !== before);
      await page.getByTestId('menu-dashboard').waitFor({ state: 'hidden' });
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), `${id}: scrolls sideways`).toBeLessThanOrEqual(0);
    }
    await page.close();
    // a super administrator walks every screen (two dozen, the templates among them): a minute is short on a busy machine
  }, 120_000);
});
