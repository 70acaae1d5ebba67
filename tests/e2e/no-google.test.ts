import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, schoolInput } from './browser.js';
import { startOwnQe, type OwnQe } from './own-server.js';

// End to end: a QE with no Google settings at all (no QE_GOOGLE_CLIENT_ID) runs the whole
// questionnaire journey — a teacher with no Google account creates, designs and opens a
// questionnaire, a student answers it, the teacher reads its statistics — and shows no Google
// button. Then an administrator changes the school's name and logo in the school settings and
// the top bar and the login page show them at once. This file starts its own QE (the shared one
// of the other e2e files has Google configured).
let browser: Browser;
let qe: OwnQe;

beforeAll(async () => {
  qe = await startOwnQe();
  expect(qe.config.google.clientId).toBe('');
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await qe?.close();
});

const at = (path: string) => qe.at(path);
const loginAs = (page: Page, username: string, password?: string) => qe.loginAs(page, username, password);

// a 1×1 PNG
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

describe('a QE without Google', () => {
  it('a teacher without a Google account creates, designs and opens a questionnaire; a student answers; the teacher reads the statistics', async () => {
    const title = `無 Google 問卷 ${Date.now()}`;
    const teacher = await newPage(browser);
    await loginAs(teacher, 'teacher11');
    // no Google sign-in configured: no Google button in the top bar
    await teacher.getByTestId('school-name').waitFor();
    await expect(teacher.getByTestId('google-account').count()).resolves.toBe(0);

    await teacher.goto(at('/forms/list'));
    await teacher.getByTestId('questionnaire-add').click();
    await teacher.waitForURL(/\/forms\/add$/);
    await teacher.locator('input[name="title"]').fill(title);
    await teacher.locator('input[name="openDate"]').fill(schoolInput(new Date(Date.now() - 60_000)));
    await teacher.locator('input[name="endDate"]').fill(schoolInput(new Date(Date.now() + 7 * 86_400_000)));
    await teacher.getByTestId('target-kind').selectOption('CLASS');
    await teacher.getByTestId('target-options').fill('1A');
    await teacher.getByRole('option', { name: /1A/ }).first().click();
    await teacher.getByTestId('target-add').click();
    await teacher.getByTestId('audience-total').filter({ hasText: /17/ }).waitFor();
    await teacher.getByTestId('q-saveAndEdit').click();
    await teacher.waitForURL(/\/forms\/doc\?id=\d+$/);
    const id = Number(new URL(teacher.url()).searchParams.get('id'));

    await teacher.getByTestId('add-question-0').click();
    await teacher.getByTestId('add-type-RADIO').click();
    await teacher.getByTestId('question-editor').first().getByTestId('question-title').fill('你喜歡閱讀嗎？');
    await teacher.getByTestId('designer-save').click();
    await teacher.getByTestId('designer-dirty').waitFor({ state: 'detached' });
    await teacher.goto(at(`/forms/edit?id=${id}`));
    await teacher.getByTestId('q-ready').click();
    await teacher.getByTestId('info-status').filter({ hasText: /進行中/ }).waitFor();

    // a student of 1A answers it
    const student = await newPage(browser);
    student.on('dialog', (d) => void d.accept());
    await loginAs(student, 'student001');
    await student.goto(at('/questionnaire-filling/list'));
    await student.getByRole('row').filter({ hasText: title }).first().click();
    await student.waitForURL(new RegExp(`/questionnaire-filling/detail\\?id=${id}$`));
    await student.getByLabel('選項 1').check();
    await student.getByTestId('section-submit').click();
    await student.waitForURL(new RegExp(`/questionnaire-filling/view\\?id=${id}$`));
    await student.getByTestId('filling-submitted').waitFor();
    await student.close();

    // the teacher reads the statistics: one reply, for the one option
    await teacher.goto(at('/data-statistics/list'));
    await teacher.getByRole('row').filter({ hasText: title }).first().click();
    await teacher.waitForURL(new RegExp(`/data-statistics/detail\\?id=${id}$`));
    await teacher.getByTestId('statistics-detail').waitFor();
    await expect(teacher.getByTestId('statistics-title').innerText()).resolves.toBe(title);
    await expect(teacher.getByTestId('fact-submitted').innerText()).resolves.toContain('1');
    const table = teacher.locator('[data-testid^="stat-question-"] table').first();
    await table.waitFor();
    await expect(table.innerText()).resolves.toMatch(/選項 1\s+1\s+100%/);
    await teacher.close();
  });

  it('an administrator changes the school name and logo; the top bar and the login page show them', async () => {
    const page = await newPage(browser);
    await loginAs(page, 'admin');
    await page.goto(at('/master/school'));
    await page.getByTestId('school-settings').waitFor();
    // Google is not configured: the rule cannot be turned on, and the screen says why
    await page.getByTestId('google-not-configured').waitFor();
    await expect(page.getByLabel('建立問卷者須綁定 Google 帳戶').isDisabled()).resolves.toBe(true);

    await page.getByTestId('school-logo-input').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
    await page.getByTestId('school-logo-preview').waitFor();
    await page.getByTestId('school-logo').waitFor();

    await page.getByLabel(/學校名稱（中文）/).fill('新名字中學');
    await page.getByLabel(/學校名稱（英文）/).fill('New Name College');
    await page.getByLabel(/電郵/).fill('not an address');
    await page.getByTestId('school-save').click();
    await page.getByText('請輸入正確的電郵地址').waitFor();
    await page.getByLabel(/電郵/).fill('office@newname.edu.hk');
    await page.getByTestId('school-save').click();
    await page.getByText('已儲存學校設定').waitFor();
    // the top bar hides while the page is scrolled down to the save button
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByTestId('school-name').filter({ hasText: '新名字中學' }).waitFor();
    const logo = await page.getByTestId('school-logo').locator('img').getAttribute('src');
    expect(logo).toMatch(/^\/qe\/storage\/school\/logo-[0-9a-f]+\.png$/);

    // another user, fresh from the login page, sees the new name and logo
    const other = await newPage(browser);
    await other.goto(at('/login'));
    await other.getByTestId('login-school-name').filter({ hasText: '新名字中學' }).waitFor();
    await expect(other.getByTestId('login-school-logo').getAttribute('src')).resolves.toBe(logo);
    await other.close();
    await page.close();
  });
});
