import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Definition } from '../../src/shared/questionnaire/definition.js';
import type { TemplatePage } from '../../src/shared/calls/templates.js';
import type { Questionnaire } from '../../src/shared/questionnaire/types.js';
import { api, apiLogin, launchBrowser, loginAs, newPage, url } from './browser.js';

// End to end (docs/product-rules.md#templates): a teacher saves a questionnaire as a template from
// its row; another teacher finds it by a Chinese and an English word, previews it, and makes a new
// questionnaire from it for all students of a grade, landing in the designer with its questions;
// an administrator retires it and it is offered no more; the list on a phone's width.
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const stamp = Date.now().toString(36);
const NAME_HK = `閱讀習慣調查 ${stamp}`;
const NAME_EN = `Reading habits ${stamp}`;
const definition: Definition = {
  version: 1,
  sections: [
    {
      id: 's1',
      title: '閱讀',
      questions: [
        { id: 'often', type: 'RADIO', title: '你多久看一次課外書？', required: true, options: [{ id: 'a', label: '每天' }, { id: 'b', label: '每星期' }] },
        { id: 'book', type: 'SHORT_TEXT', title: '你最近看的一本書', required: false },
      ],
    },
  ],
};

/**
 * Types into the list's search box once the list has loaded (a box filled before react-admin's
 * filter form is ready is emptied again), and waits until the box holds it; the list answers after
 * react-admin's debounce.
 */
async function search(page: Page, text: string) {
  await page.locator('table tbody tr').first().waitFor();
  const box = page.locator('input[name="q"]');
  await box.fill(text);
  await expect.poll(() => box.inputValue()).toBe(text);
}

/** Waits until every row of the template list contains `word` (in its name or description: the search reads both). */
async function rowsAll(page: Page, word: string) {
  await expect
    .poll(async () => {
      const rows = await page.getByTestId('list-templates').locator('tbody tr').allInnerTexts();
      return rows.length > 0 && rows.every((n) => n.toLowerCase().includes(word.toLowerCase()));
    })
    .toBe(true);
}

/** The template list's row of our template, once it is shown. */
const ourRow = (page: Page) => page.getByTestId('list-templates').locator('tbody tr', { hasText: NAME_HK });

describe('questionnaire templates', () => {
  let teacher01: string;
  let teacher02: string;
  let templateId: number;

  it('a teacher saves a questionnaire as a template from its screen', async () => {
    teacher01 = await apiLogin('teacher01');
    const made = await api<Questionnaire>('/v1/questionnaires', teacher01, 'POST', { title: `閱讀習慣 ${stamp}`, type: 'NAMED', targets: [{ kind: 'ALL_TEACHERS' }], definition });
    expect(made.envelope.code, made.envelope.msg).toBe(201);

    const page = await newPage(browser);
    await loginAs(page, 'teacher01');
    // from the questionnaire's own screen (a list row keeps to the actions that fit its width)
    await page.goto(url(`/forms/view?id=${made.envelope.data.id}`));
    await page.getByTestId('action-saveAsTemplate').click();
    const dialog = page.getByTestId('save-as-template');
    await dialog.waitFor();
    // the title fills the Chinese name; the questionnaire's audience the kind
    await expect(dialog.getByTestId('save-as-template-nameHk').inputValue()).resolves.toBe(`閱讀習慣 ${stamp}`);
    await expect(dialog.getByRole('radio', { name: '全體教師' }).isChecked()).resolves.toBe(true);
    // a name missing in one language is said on its field
    await dialog.getByTestId('save-as-template-nameHk').fill(NAME_HK);
    await dialog.getByTestId('save-as-template-submit').click();
    await dialog.getByText('必填', { exact: true }).first().waitFor();
    await dialog.getByTestId('save-as-template-nameEn').fill(NAME_EN);
    await dialog.getByTestId('save-as-template-descriptionHk').fill('學生的課外閱讀');
    await dialog.getByTestId('save-as-template-descriptionEn').fill('What students read outside lessons');
    await dialog.getByRole('radio', { name: '全體學生', exact: true }).check();
    await dialog.getByTestId('save-as-template-submit').click();
    await page.getByText(`已儲存為範本「${NAME_HK}」`).waitFor();
    await dialog.waitFor({ state: 'detached' });

    // it is in the template list, with its audience and description
    await page.goto(url('/forms/templates'));
    await ourRow(page).waitFor();
    const text = await ourRow(page).innerText();
    expect(text).toContain('學生的課外閱讀');
    expect(text).toContain('全體學生');
    const found = await api<TemplatePage>(`/v1/questionnaire-templates?q=${encodeURIComponent(NAME_EN)}`, teacher01);
    templateId = found.envelope.data.list[0].id;
    expect(found.envelope.data.list[0]).toMatchObject({ nameHk: NAME_HK, nameEn: NAME_EN, audienceKind: 'ALL_STUDENTS', questionCount: 2 });
    await page.close();
  });

  it('another teacher finds it in either language, previews it and makes a questionnaire of it for one grade', async () => {
    teacher02 = await apiLogin('teacher02');
    const page = await newPage(browser);
    await loginAs(page, 'teacher02');
    // the sidebar lists the templates screen
    await page.goto(url('/forms/list'));
    await page.getByRole('link', { name: '範本' }).click();
    await page.waitForURL(/\/forms\/templates/);

    // a Chinese word of its name, then an English one (the list shows names in Chinese)
    await search(page, '閱讀習慣');
    await rowsAll(page, '閱讀習慣');
    await ourRow(page).waitFor();
    await search(page, `habits ${stamp}`);
    await rowsAll(page, stamp);
    await expect(page.getByTestId('list-templates').locator('tbody tr').count()).resolves.toBe(1);

    // the preview: its questions, read-only
    await ourRow(page).getByTestId('template-preview').click();
    const preview = page.getByTestId('preview-dialog');
    await preview.waitFor();
    await preview.getByText('你多久看一次課外書？').waitFor();
    await preview.getByText('你最近看的一本書').waitFor();
    await page.getByTestId('preview-close').click();
    await preview.waitFor({ state: 'detached' });

    // a teacher may not edit or retire a template
    await expect(ourRow(page).getByTestId('template-edit').count()).resolves.toBe(0);
    await expect(ourRow(page).getByTestId('template-retire').count()).resolves.toBe(0);

    // new from template: all students of a grade, S2
    await ourRow(page).getByTestId('template-use').click();
    const dialog = page.getByTestId('use-template-dialog');
    await dialog.waitFor();
    await expect(dialog.getByRole('radio', { name: '全體學生', exact: true }).isChecked()).resolves.toBe(true);
    await dialog.getByRole('radio', { name: '某一級別的全體學生' }).check();
    await dialog.getByRole('combobox', { name: '級別' }).click();
    await page.getByRole('option', { name: /^S2\b/ }).click();
    await dialog.getByTestId('use-template-submit').click();
    await page.waitForURL(/\/forms\/doc\?id=\d+/);
    const id = Number(new URL(page.url()).searchParams.get('id'));
    await page.getByTestId('designer').waitFor();
    await expect.poll(async () => page.getByTestId('question-title').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value))).toEqual(['你多久看一次課外書？', '你最近看的一本書']);

    const made = (await api<Questionnaire>(`/v1/questionnaires/${id}`, teacher02)).envelope.data;
    const grades = (await api<{ list: { id: number; code: string }[] }>('/v1/audience-options?kind=GRADE&q=S2', teacher02)).envelope.data.list;
    expect(made).toMatchObject({ status: 'PREPARING', title: NAME_HK, targets: [{ kind: 'GRADE', ids: [grades.find((g) => g.code === 'S2')!.id] }] });
    await page.close();
  });

  it('an administrator retires it: it is offered no more, and using it is refused', async () => {
    const page = await newPage(browser);
    await loginAs(page, 'admin');
    await page.goto(url('/forms/templates'));
    await search(page, NAME_EN);
    await ourRow(page).getByTestId('template-retire').click();
    await page.getByRole('dialog').getByRole('button', { name: '停用' }).click();
    await page.getByText('範本已停用').waitFor();
    await expect.poll(() => ourRow(page).count()).toBe(0);
    // on the retired tab, to be restored
    await page.getByTestId('template-tab-retired').click();
    await ourRow(page).getByTestId('template-restore').waitFor();
    await expect(ourRow(page).getByTestId('template-use').count()).resolves.toBe(0);
    await page.close();

    // the questionnaire list's "new from template" does not offer it
    const teacherPage = await newPage(browser);
    await loginAs(teacherPage, 'teacher02');
    await teacherPage.goto(url('/forms/list'));
    await teacherPage.getByTestId('questionnaire-from-template').click();
    await teacherPage.getByTestId('use-template-picker').fill(NAME_EN);
    await teacherPage.getByTestId('use-template-dialog').getByText('沒有資料').waitFor();
    await expect(teacherPage.getByTestId('use-template-option').count()).resolves.toBe(0);
    await teacherPage.close();

    const refused = await api(`/v1/questionnaire-templates/${templateId}/use`, teacher02, 'POST', {});
    expect(refused.envelope.code).toBe(709);
  });

  it('the list is usable at 360 px: cards with their actions, nothing wider than the phone', async () => {
    const page = await newPage(browser, { width: 360, height: 740 });
    await loginAs(page, 'teacher01');
    await page.goto(url('/forms/templates'));
    const cards = page.getByTestId('template-card');
    await cards.first().waitFor();
    expect(await cards.count()).toBeGreaterThan(0);
    await cards.first().getByTestId('template-preview').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await cards.first().getByTestId('template-use').click();
    const dialog = page.getByTestId('use-template-dialog');
    await dialog.waitFor();
    const box = await dialog.getByTestId('use-template-submit').boundingBox();
    expect(box && box.x + box.width).toBeLessThanOrEqual(360);
    await page.close();
  });
});
