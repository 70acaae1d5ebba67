import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, loginAs, newPage, url } from './browser.js';

// The tutorial as a visitor and a user meet it: without login, on a phone, by its anchors and
// from the top bar's help icon; and /app/upload, once a placeholder, is no address of QE now.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

describe('tutorial', () => {
  it('opens without login on a phone, in one column, and its contents lead to each part', async () => {
    const page = await newPage(browser, { width: 375, height: 740 });
    await page.goto(url('/tutorial'));
    await page.getByTestId('tutorial-part-administrators').waitFor();
    expect(page.url()).toMatch(/\/qe\/tutorial$/);
    for (const part of ['students', 'teachers', 'administrators']) await expect(page.locator(`#${part}`).count()).resolves.toBe(1);
    // nothing wider than the phone
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.getByTestId('tutorial-contents').getByRole('link', { name: '備份', exact: true }).click();
    await page.waitForURL(/#administrators-backups$/);
    await expect(page.locator('#administrators-backups').isVisible()).resolves.toBe(true);
    await expect(page.locator('#administrators-backups').innerText()).resolves.toContain('備份及還原');
    // English on the page itself
    await page.getByTestId('tutorial-lang-en').click();
    await expect(page.locator('#teachers h2').innerText()).resolves.toBe('For teachers: designing questionnaires and reading results');
    await page.close();
  });

  it('goes straight to a section by its address, and prints without its buttons', async () => {
    const page = await newPage(browser);
    await page.goto(url('/tutorial#teachers-remind'));
    await page.locator('#teachers-remind').waitFor();
    expect(await page.evaluate(() => document.getElementById('teachers-remind')!.getBoundingClientRect().top)).toBeLessThan(200);
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByTestId('tutorial-print').isVisible()).resolves.toBe(false);
    await expect(page.locator('#teachers-remind').isVisible()).resolves.toBe(true);
    await page.close();
  });

  it('is the help icon of the top bar', async () => {
    const page = await newPage(browser);
    await loginAs(page, 'teacher03');
    await expect(page.getByTestId('help-link').getAttribute('href')).resolves.toBe('/qe/tutorial');
    await page.close();
  });

  it('no longer answers /app/upload: a visitor is sent to log in, a user to /404', async () => {
    const page = await newPage(browser);
    await page.goto(url('/app/upload'));
    await page.waitForURL(/\/qe\/login/);
    await loginAs(page, 'teacher03');
    await page.goto(url('/app/upload'));
    await page.waitForURL(/\/qe\/404$/);
    await page.close();
  });
});
