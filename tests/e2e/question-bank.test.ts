import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { BankPage } from '../../src/shared/calls/question-bank.js';
import type { Definition } from '../../src/shared/questionnaire/definition.js';
import { api, apiLogin, launchBrowser, loginAs, newPage, url } from './browser.js';

// End to end: the question bank (docs/product-rules.md#question-bank). A teacher saves a question
// of one questionnaire to the bank with a tag, then in another questionnaire's designer searches
// the bank, previews the question in both languages, inserts it after the first question and
// saves: the question is there with a new id, its bank origin and its options in both languages.
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('the question bank', () => {
  it('takes a question from one questionnaire and gives it to another, both languages with it', async () => {
    const teacher = await apiLogin('teacher01');
    const stamp = Date.now().toString(36);
    const tag = `午膳${stamp}`;
    const source: Definition = {
      version: 1,
      languages: ['zh-hk', 'en'],
      sections: [
        {
          id: 's1',
          questions: [
            { id: 'taste', type: 'RADIO', title: `飯菜味道如何 ${stamp}？`, required: true, options: [{ id: 'good', label: '好味' }, { id: 'bad', label: '不好味' }] },
          ],
        },
      ],
      translations: { en: { questions: { taste: { title: `How does the food taste ${stamp}?`, options: { good: 'Tasty', bad: 'Not tasty' } } } } },
    };
    const first = await api<{ id: number }>('/v1/questionnaires', teacher, 'POST', { title: `題庫來源 ${stamp}`, titleTranslation: `Bank source ${stamp}`, definition: source });
    expect(first.envelope.code, first.envelope.msg).toBe(201);
    const target: Definition = {
      version: 1,
      languages: ['zh-hk', 'en'],
      sections: [{ id: 's1', questions: [{ id: 'opening', type: 'SHORT_TEXT', title: '你的班別', required: false }] }],
      translations: { en: { questions: { opening: { title: 'Your class' } } } },
    };
    const second = await api<{ id: number }>('/v1/questionnaires', teacher, 'POST', { title: `題庫目的地 ${stamp}`, titleTranslation: `Bank target ${stamp}`, definition: target });
    expect(second.envelope.code, second.envelope.msg).toBe(201);

    const page = await newPage(browser);
    await loginAs(page, 'teacher01');

    // save the question to the bank with a tag
    await page.goto(url(`/forms/doc?id=${first.envelope.data.id}`));
    await page.getByTestId('question-bank-save').first().click();
    const save = page.getByTestId('bank-save-dialog');
    await save.getByTestId('bank-tag-input').fill(tag);
    await save.getByTestId('bank-tag-input').press('Enter');
    await expect(save.getByTestId('bank-tags').innerText()).resolves.toContain(tag);
    await save.getByTestId('bank-save-confirm').click();
    await save.waitFor({ state: 'detached' });
    const banked = await api<BankPage>(`/v1/question-bank?tag=${encodeURIComponent(tag)}`, teacher);
    expect(banked.envelope.data.total).toBe(1);
    const bankId = banked.envelope.data.list[0].id;

    // in the other questionnaire's designer: search, filter by the tag, preview, insert after the first question
    await page.goto(url(`/forms/doc?id=${second.envelope.data.id}`));
    await page.getByTestId('question-bank-insert').first().click();
    const insert = page.getByTestId('bank-insert-dialog');
    await insert.getByTestId('bank-search').fill(`Tasty`);
    await insert.getByTestId('bank-tag-chips').getByText(tag).click();
    await insert.getByTestId('bank-result').first().waitFor();
    await expect(insert.getByTestId('bank-result').count()).resolves.toBe(1);
    await insert.getByTestId('bank-result').first().click();
    await expect(insert.getByTestId('bank-preview-zh-hk').innerText()).resolves.toContain('不好味');
    await expect(insert.getByTestId('bank-preview-en').innerText()).resolves.toContain('Not tasty');
    await insert.getByTestId('bank-insert-confirm').click();
    await insert.waitFor({ state: 'detached' });
    await expect(page.getByTestId('question-editor').count()).resolves.toBe(2);
    await page.getByTestId('question-editor').nth(1).getByTestId('bank-origin').waitFor();
    await page.getByTestId('designer-save').click();
    await page.getByTestId('designer-dirty').waitFor({ state: 'detached' });

    const saved = (await api<{ definition: Definition }>(`/v1/questionnaires/${second.envelope.data.id}`, teacher)).envelope.data.definition;
    const questions = saved.sections[0].questions;
    expect(questions.map((q) => q.type)).toEqual(['SHORT_TEXT', 'RADIO']);
    const inserted = questions[1];
    expect(inserted.id).not.toBe('taste');
    expect(inserted).toMatchObject({ bankId, title: `飯菜味道如何 ${stamp}？`, options: [{ id: 'good', label: '好味' }, { id: 'bad', label: '不好味' }] });
    expect(saved.translations?.en?.questions?.[inserted.id]).toEqual({ title: `How does the food taste ${stamp}?`, options: { good: 'Tasty', bad: 'Not tasty' } });
    await page.close();
  });
});
