import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { api, apiLogin, launchBrowser, loginAs, newPage, url } from './browser.js';

// The development outbox (QE_MAIL_OUTBOX; the e2e server runs with it, as `npm run demo` does):
// a test mail sent from the mail setting screen is listed there at once, opened to read, and
// the screen is usable on a phone.
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
  const admin = await apiLogin('admin');
  const { envelope } = await api('/v1/mail-settings', admin, 'PUT', {
    host: 'smtp.invalid',
    port: 25,
    secure: false,
    fromAddress: 'qe@demo.qe.school',
    fromName: 'QE',
    reminderSubject: '提示：{title}',
    reminderContent: '{name}：請於 {deadline} 前填寫「{title}」。',
  });
  expect(envelope.code).toBe(200);
});
afterAll(async () => browser?.close());

describe('the mail outbox', () => {
  it.each([
    { width: 1280, height: 800 },
    { width: 360, height: 640 },
  ])('shows a test mail sent from the mail setting screen (%o)', async (viewport) => {
    const page = await newPage(browser, viewport);
    await loginAs(page, 'admin');
    await page.goto(url('/master/mails'));
    await page.getByTestId('mail-outbox').waitFor();
    const before = await page.getByTestId('mail-outbox-mail').count();
    const to = `outbox-${viewport.width}@demo.qe.school`;
    await page.getByTestId('test-mail-to').fill(to);
    await page.getByTestId('test-mail-send').click();
    await expect.poll(() => page.getByTestId('mail-outbox-mail').count()).toBe(before + 1);
    const newest = page.getByTestId('mail-outbox-mail').first();
    await expect(newest.innerText()).resolves.toContain(to);
    await expect(newest.innerText()).resolves.toContain('提示：問卷示例');
    // opened from the keyboard (the success message may lie over it at the bottom of the screen)
    await newest.getByRole('button').first().focus();
    await page.keyboard.press('Enter');
    await newest.getByText('陳大文：請於 2026-12-31 前填寫「問卷示例」。').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.close();
  });
});
