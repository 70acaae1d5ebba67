import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, loginAs, newPage, url } from './browser.js';

// Master-data screens generated from the schemas, in the built app behind the server's real
// Content-Security-Policy (the forms' validators must run without eval). Every record these
// tests touch is created here, so the other files' demo users are left alone.
let browser: Browser;
let page: Page;
beforeAll(async () => {
  browser = await launchBrowser();
  page = await newPage(browser);
  await loginAs(page, 'admin');
});
afterAll(async () => browser?.close());

const textbox = (name: RegExp) => page.getByRole('textbox', { name });
const row = (text: string) => page.getByRole('row', { name: new RegExp(text) });

describe('master data screens', () => {
  it('lists teachers with the columns of the schema, enum values translated', async () => {
    // wide enough for every column (a narrower list leaves out its last ones: list-widths.test.ts)
    await page.setViewportSize({ width: 1920, height: 800 });
    await page.goto(url('/master/teachers/list'));
    await row('T001').waitFor();
    const headers = await page.$$eval('thead th', (ths) => ths.map((th) => th.textContent?.trim()));
    expect(headers).toEqual(['教師編號', '帳號', '中文姓名', '英文姓名', '簡稱', '職位', '狀態', '電郵', '排序', '操作']);
    await expect(row('T001').innerText()).resolves.toContain('在職');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('adds a position (rules checked on blur, characters a code cannot take filtered as typed), edits it and deletes it', async () => {
    await page.goto(url('/master/positions/list'));
    await page.getByTestId('master-add').click();
    await page.waitForURL(/\/master\/positions\/add$/);
    await textbox(/職位代號/).focus();
    await textbox(/職位名稱（中文）/).focus();
    await page.getByText('必填').first().waitFor();
    // the code takes letters, digits, _ and - only: a space typed (or pasted) does not get in (docs/product-rules.md#input-filters)
    await textbox(/職位代號/).fill('E2E 1');
    await expect(textbox(/職位代號/).inputValue()).resolves.toBe('E2E1');
    await textbox(/職位名稱（中文）/).focus();
    await expect(page.getByText('格式不正確').count()).resolves.toBe(0);
    await textbox(/職位名稱（中文）/).fill('測試職位');
    await textbox(/職位名稱（英文）/).fill('Test position');
    await page.getByTestId('master-save').click();
    await page.waitForURL(/\/master\/positions\/list$/);
    await row('E2E1').getByTestId('row-edit').click();
    await page.waitForURL(/\/master\/positions\/edit\?id=\d+$/);
    await textbox(/職位名稱（英文）/).fill('Edited position');
    await page.getByTestId('master-save').click();
    await page.waitForURL(/\/master\/positions\/list$/);
    await row('Edited position').waitFor();
    await row('E2E1').getByTestId('row-delete').click();
    await page.getByRole('button', { name: '刪除' }).click();
    await page.getByText('已刪除').waitFor();
    await expect(row('E2E1').count()).resolves.toBe(0);
  });

  it('a teacher in a group is deleted only after the stronger confirmation, with the membership', async () => {
    await page.goto(url('/master/teachers/add'));
    await textbox(/教師編號/).fill('E2E9');
    await textbox(/帳號/).fill('e2eteacher');
    await page.getByLabel(/^密碼/).fill('Passw0rd!');
    await textbox(/中文姓名/).fill('測試教師');
    await textbox(/英文姓名/).fill('E2E Teacher');
    await page.getByTestId('master-save').click();
    await page.waitForURL(/\/master\/teachers\/list$/);

    await page.goto(url('/master/teacher-groups/add'));
    await textbox(/組別代號/).fill('E2EG');
    await textbox(/組別名稱（中文）/).fill('測試組');
    await textbox(/組別名稱（英文）/).fill('E2E group');
    const members = page.getByRole('combobox', { name: /成員/ });
    await members.fill('測試教師');
    await page.getByRole('option', { name: /測試教師/ }).click();
    await page.getByText('已選 1 項').waitFor();
    await page.getByTestId('master-save').click();
    await page.waitForURL(/\/master\/teacher-groups\/list$/);
    // columns: code, Chinese name, English name, member count, sort order
    const memberCount = () => row('E2EG').locator('td').nth(3).innerText();
    await expect(memberCount()).resolves.toBe('1');

    await page.goto(url('/master/teachers/list'));
    await page.getByPlaceholder('搜尋').fill('E2E9');
    await row('E2E9').getByTestId('row-delete').click();
    await page.getByRole('button', { name: '刪除' }).click();
    await page.getByTestId('in-use-dialog').waitFor();
    await page.getByTestId('delete-cascade').click();
    await page.getByText('連同所有相關記錄一併刪除？此操作無法還原。').waitFor();
    await page.getByRole('button', { name: '連同所有相關記錄一併刪除' }).click();
    await page.getByText('已刪除').waitFor();

    await page.goto(url('/master/teacher-groups/list'));
    await row('E2EG').waitFor();
    await expect(memberCount()).resolves.toBe('0');
  });
});
