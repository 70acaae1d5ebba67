import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { api, apiLogin, launchBrowser, loginAs, newPage, url } from './browser.js';
import { chooseLanguage } from './accessibility-checks.js';

// A save acts on the first click however short the press, also right after typing. The forms
// validate a field when it loses focus (react-hook-form's mode="onBlur"), and a click's press is
// what takes the focus away: react-admin's save button turned disabled while that validation ran,
// so a press released at once (a quick click, a tap, a script) fell on a disabled button and nothing
// was sent. Each case types and then presses and releases the button with no time between.
let browser: Browser;
let admin: string;
beforeAll(async () => {
  browser = await launchBrowser();
  admin = await apiLogin('admin');
});
afterAll(async () => browser?.close());

/** Presses and releases the pointer on the button's centre with nothing between the two (a 0 ms press). */
async function instantPress(page: Page, button: Locator) {
  await button.scrollIntoViewIfNeeded();
  const box = (await button.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.up();
}

async function newPosition(code: string): Promise<number> {
  const made = await api<{ id: number }>('/v1/positions', admin, 'POST', { code, nameHk: '首擊職位', nameEn: 'First click' });
  expect(made.envelope.code, made.envelope.msg).toBe(201);
  return made.envelope.data.id;
}

const positionName = async (id: number) => (await api<{ nameEn: string }>(`/v1/positions/${id}`, admin)).envelope.data.nameEn;

describe('a save acts on the first click', () => {
  it('a master edit form: typed, then a 0 ms press on save, saves', async () => {
    const id = await newPosition('FC1');
    const page = await newPage(browser);
    await loginAs(page, 'admin');
    await page.goto(url(`/master/positions/edit?id=${id}`));
    const field = page.getByRole('textbox', { name: /職位名稱（英文）/ });
    await expect.poll(() => field.inputValue()).toBe('First click');
    await field.fill('Saved at once');
    await instantPress(page, page.getByTestId('master-save'));
    await expect.poll(() => positionName(id)).toBe('Saved at once');
    await page.close();
  });

  it('the same form: typed, then a click whose press lasts 0 ms (Playwright\'s click), saves', async () => {
    const id = await newPosition('FC2');
    const page = await newPage(browser, { width: 360, height: 640 });
    await loginAs(page, 'admin');
    await page.goto(url(`/master/positions/edit?id=${id}`));
    const field = page.getByRole('textbox', { name: /職位名稱（英文）/ });
    await expect.poll(() => field.inputValue()).toBe('First click');
    await field.fill('Clicked at once');
    await page.getByTestId('master-save').click({ delay: 0 });
    await expect.poll(() => positionName(id)).toBe('Clicked at once');
    await page.close();
  });

  it('the school settings: typed, then a 0 ms press on save, saves (and the value is shown again after a reload)', async () => {
    const before = (await api<{ email: string | null }>('/v1/school', admin)).envelope.data.email;
    const page = await newPage(browser);
    await loginAs(page, 'admin');
    await page.goto(url('/master/school'));
    await page.getByTestId('school-settings').waitFor();
    await expect.poll(() => page.getByLabel(/學校名稱（中文）/).inputValue()).not.toBe('');
    const email = page.getByLabel(/電郵/);
    await email.fill('first.click@school.example');
    await instantPress(page, page.getByTestId('school-save'));
    await expect.poll(async () => (await api<{ email: string | null }>('/v1/school', admin)).envelope.data.email).toBe('first.click@school.example');
    await page.reload();
    await expect.poll(() => page.getByLabel(/電郵/).inputValue()).toBe('first.click@school.example');
    await page.getByLabel(/電郵/).fill(before ?? '');
    await instantPress(page, page.getByTestId('school-save'));
    await expect.poll(async () => (await api<{ email: string | null }>('/v1/school', admin)).envelope.data.email ?? '').toBe(before ?? '');
    await page.close();
  });
});

describe('date and time hints in the screen\'s language', () => {
  it('the questionnaire form: 年-月-日 時:分 in zh-hk, yyyy-MM-dd HH:mm in English', async () => {
    const page = await newPage(browser);
    await loginAs(page, 'teacher01');
    await page.goto(url('/forms/add'));
    const hints = () => page.locator('input[placeholder]').evaluateAll((els) => els.map((e) => e.getAttribute('placeholder')));
    await expect.poll(hints).toContain('年-月-日 時:分');
    expect((await hints()).filter((h) => /[yMdHm]{2}/.test(h ?? ''))).toEqual([]);
    await chooseLanguage(page, 'en');
    await expect.poll(hints).toContain('yyyy-MM-dd HH:mm');
    expect((await hints()).filter((h) => /[年月日時分]/.test(h ?? ''))).toEqual([]);
    await page.close();
  });
});
