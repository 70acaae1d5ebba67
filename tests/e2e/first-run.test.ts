import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import appEn from '../../src/shared/i18n/app-en.js';
import { fieldMessage } from '../../src/shared/field-messages.js';
import { axeViolations } from './accessibility-checks.js';
import { launchBrowser, newPage } from './browser.js';
import { startOwnQe, type OwnQe } from './own-server.js';

// End to end: a school's first hour on a phone. QE on an empty database sends the login page to
// /qe/init; the newcomer switches it to English by keyboard, creates the school and its super
// administrator, logs in, finds themselves in the administrators' list and saves their Google
// address there. This file starts its own QE: the shared one has the demo school already.
let browser: Browser;
let qe: OwnQe;

beforeAll(async () => {
  qe = await startOwnQe({}, { demo: false });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await qe?.close();
});

const PHONE = { width: 360, height: 740 };

describe('the first hour', () => {
  it('sets up the school in English on a phone, then the super administrator saves a Google address on their administrator record', async () => {
    const page = await newPage(browser, PHONE);
    await page.goto(qe.at('/login'));
    await page.waitForURL(/\/qe\/init$/);
    await page.getByRole('heading', { name: '設定 QE' }).waitFor();

    // the login page's switch, by keyboard: Enter opens it on the current language, an arrow, Enter
    await page.getByTestId('language-switch').focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: appEn.qe.init.title }).waitFor();
    await expect(page.evaluate(() => document.documentElement.lang)).resolves.toBe('en');
    await expect(page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).resolves.toBe('language-switch');
    await expect(page.getByTestId('language-switch').getAttribute('aria-label')).resolves.toBe('Language: English');
    // nothing wider than the phone, nothing axe-core calls serious
    await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(PHONE.width);
    expect(await axeViolations(page)).toEqual([]);

    // sent empty: English messages, the first field to fill in has the focus
    await page.getByTestId('init-submit').click();
    await page.getByText(fieldMessage('required', 'en'), { exact: true }).first().waitFor();
    await expect(page.evaluate(() => document.activeElement?.getAttribute('name'))).resolves.toBe('schoolNameHk');

    // filled in by keyboard, field after field, sent with Enter
    const values = ['第一中學', 'First Secondary School', 'principal', 'Fir5tPass', 'Fir5tPass', '陳校長', 'Principal Chan', 'principal@first.school'];
    for (const [i, value] of values.entries()) {
      await page.keyboard.type(value);
      if (i < values.length - 1) await page.keyboard.press('Tab');
    }
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/qe\/login/);
    await page.getByText(appEn.qe.init.done).waitFor();

    await page.close();

    // the administrators' list, on a desktop
    const desk = await newPage(browser);
    await desk.goto(qe.at('/login'));
    await desk.getByTestId('language-switch').click();
    await desk.getByTestId('language-en').click();
    await qe.loginAs(desk, 'principal', 'Fir5tPass');
    await desk.goto(qe.at('/master/admins/list'));
    const row = desk.getByRole('row', { name: /SUPERADMIN/ });
    await expect(row.innerText()).resolves.toMatch(/principal@first\.school/);
    await row.getByTestId('row-edit').click();
    await desk.waitForURL(/\/master\/admins\/edit/);
    // the record is in the form before anything is typed
    await expect.poll(() => desk.locator('input[name="code"]').inputValue()).toBe('SUPERADMIN');
    await desk.locator('input[name="googleMail"]').fill('principal@first-school.example');
    // as a user leaves the field (a click on Save below the fold while the field still has the
    // focus was lost in headless Chromium: the blur's check and the scroll came together)
    await desk.locator('input[name="googleMail"]').press('Tab');
    await desk.getByTestId('master-save').click();
    await desk.waitForURL(/\/master\/admins\/list$/);
    await expect(desk.getByRole('row', { name: /SUPERADMIN/ }).innerText()).resolves.toMatch(/principal@first-school\.example/);

    // as the server has it
    const token = await qe.token('principal', 'Fir5tPass');
    const me = await qe.api<{ userId: number; googleMail: string; userType: string }>('/v1/my/user-info', token);
    expect(me.data).toMatchObject({ userType: 'SUPER_ADMIN', googleMail: 'principal@first-school.example' });
    expect((await qe.api<{ code: string }>(`/v1/admins/${me.data.userId}`, token)).data).toMatchObject({ code: 'SUPERADMIN' });
    await desk.close();
  });
});
