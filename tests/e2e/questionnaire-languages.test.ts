import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { createDb, type DB } from '../../src/server/db/connect.js';
import type { Definition } from '../../src/shared/questionnaire/definition.js';
import { launchBrowser, newPage } from './browser.js';
import { startOwnQe, type OwnQe } from './own-server.js';

// End to end: one questionnaire written in Chinese and English (docs/questionnaire-languages.md),
// answered by pupils of one class, some in English and some in Chinese — one of them switching
// language half way without losing an answer — and read by its teacher in both languages with
// the same counts. This file starts its own QE, whose database it reads for the class's pupils.
let browser: Browser;
let qe: OwnQe;
let db: DB;

beforeAll(async () => {
  qe = await startOwnQe();
  db = createDb(qe.config);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await db?.destroy();
  await qe?.close();
});

const definition: Definition = {
  version: 1,
  languages: ['zh-hk', 'en'],
  closingMessage: '多謝你的意見',
  sections: [
    {
      id: 's1',
      title: '午膳',
      questions: [
        { id: 'taste', type: 'RADIO', title: '飯菜味道如何？', required: true, options: [{ id: 'good', label: '好味' }, { id: 'bad', label: '不好味' }], other: true, otherLabel: '別的意見' },
        { id: 'note', type: 'SHORT_TEXT', title: '一句說話', required: false },
      ],
    },
  ],
  translations: {
    en: {
      closingMessage: 'Thank you for your views',
      sections: { s1: { title: 'Lunch' } },
      questions: { taste: { title: 'How does the food taste?', options: { good: 'Tasty', bad: 'Not tasty' }, otherLabel: 'Something else' }, note: { title: 'One sentence' } },
    },
  },
};

/** A page whose interface starts in `lang` (react-admin keeps the locale in its store). */
async function pageIn(lang: 'en' | 'zh-hk', viewport?: { width: number; height: number }): Promise<Page> {
  const page = await newPage(browser, viewport);
  await page.addInitScript((locale) => {
    if (localStorage.getItem('RaStoreqe.locale') === null) localStorage.setItem('RaStoreqe.locale', JSON.stringify(locale));
  }, lang);
  page.on('dialog', (d) => void d.accept());
  return page;
}

const question = (page: Page, id: string) => page.getByTestId(`question-${id}`);

/** A summary table's rows as shown: label, count, percent. */
async function rows(table: Locator): Promise<string[][]> {
  return table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('th, td')].map((td) => (td.textContent ?? '').trim())));
}

describe('a questionnaire in two languages', () => {
  it('is designed, answered in either language by different pupils, and read in either with the same counts', async () => {
    const teacher = await qe.token('teacher01');
    const classes = await qe.api<{ list: { id: number; code: string }[] }>('/v1/audience-options?kind=CLASS&q=2A', teacher);
    const classId = classes.data.list.find((k) => k.code === '2A')!.id;
    const title = `E2E 雙語午膳 ${Date.now()}`;
    // written in Chinese, English chosen as its second language, nothing translated yet
    const { translations: translated, ...written } = definition;
    const created = await qe.api<{ id: number }>('/v1/questionnaires', teacher, 'POST', {
      title,
      type: 'NAMED',
      openDate: new Date(Date.now() - 60_000).toISOString(),
      endDate: new Date(Date.now() + 86_400_000).toISOString(),
      targets: [{ kind: 'CLASS', ids: [classId] }],
      definition: written,
    });
    expect(created.code, created.msg).toBe(201);
    const id = created.data.id;

    // the teacher: design complete names what has no English, and the translations are written side by side
    const designer = await pageIn('zh-hk');
    await qe.loginAs(designer, 'teacher01');
    await designer.goto(qe.at(`/forms/doc?id=${id}`));
    await designer.getByTestId('designer-ready').click();
    const missing = designer.getByTestId('missing-translation');
    await missing.first().waitFor();
    // the title and the seven texts of the questions
    await expect(missing.count()).resolves.toBe(8);
    await expect(missing.first().innerText()).resolves.toContain('未有英文文字');
    await designer.getByTestId('missing-open-translations').click();
    await designer.getByTestId('translations-panel').waitFor();
    const englishOf: Record<string, string> = {
      [title]: 'E2E bilingual lunch',
      午膳: translated!.en!.sections!.s1.title!,
      '飯菜味道如何？': translated!.en!.questions!.taste.title!,
      好味: 'Tasty',
      不好味: 'Not tasty',
      別的意見: 'Something else',
      一句說話: 'One sentence',
      多謝你的意見: translated!.en!.closingMessage!,
    };
    const rowsToTranslate = designer.getByTestId('translation-row');
    await expect(rowsToTranslate.count()).resolves.toBe(8);
    for (let i = 0; i < 8; i++) {
      const row = rowsToTranslate.nth(i);
      const original = (await row.getByTestId('translation-original').innerText()).trim();
      expect(Object.keys(englishOf), original).toContain(original);
      await row.getByTestId('translation-input').fill(englishOf[original]);
    }
    await expect(designer.getByTestId('translations-count').innerText()).resolves.not.toMatch(/\d/);
    await designer.getByTestId('designer-save').click();
    await designer.getByTestId('designer-dirty').waitFor({ state: 'detached' });
    await designer.getByTestId('designer-ready').click();
    await expect.poll(async () => (await qe.api<{ status: string }>(`/v1/questionnaires/${id}`, teacher)).data.status, { timeout: 15_000 }).toBe('PROCESSING');
    const designed = (await qe.api<{ titleTranslation: string; definition: Definition }>(`/v1/questionnaires/${id}`, teacher)).data;
    expect(designed.titleTranslation).toBe('E2E bilingual lunch');
    expect(designed.definition.translations).toEqual(translated);
    await designer.close();

    const pupils = (
      await db.selectFrom('feedback as f').innerJoin('users as u', 'u.id', 'f.user_id').select('u.username').where('f.questionnaire_id', '=', id).orderBy('u.username').limit(3).execute()
    ).map((p) => p.username);
    expect(pupils).toHaveLength(3);

    // a pupil reading English, on a phone
    const english = await pageIn('en', { width: 360, height: 640 });
    await qe.loginAs(english, pupils[0]);
    await english.goto(qe.at(`/questionnaire-filling/detail?id=${id}`));
    await question(english, 'taste').getByText('How does the food taste?').waitFor();
    await expect(english.getByText('E2E bilingual lunch').count()).resolves.toBeGreaterThan(0);
    await question(english, 'taste').getByLabel('Tasty', { exact: true }).check();
    await english.getByTestId('section-submit').click();
    await english.getByTestId('filling-submitted').waitFor();
    await expect(english.getByTestId('closing-message').first().innerText()).resolves.toBe('Thank you for your views');
    await english.close();

    // a pupil reading Chinese, who switches to English half way and back: nothing chosen or typed is lost
    const chinese = await pageIn('zh-hk');
    await qe.loginAs(chinese, pupils[1]);
    await chinese.goto(qe.at(`/questionnaire-filling/detail?id=${id}`));
    await question(chinese, 'taste').getByText('飯菜味道如何？').waitFor();
    await question(chinese, 'taste').getByLabel('不好味', { exact: true }).check();
    await question(chinese, 'note').getByRole('textbox').fill('太鹹了');
    await chinese.getByTestId('content-language-en').click();
    await question(chinese, 'taste').getByText('How does the food taste?').waitFor();
    await expect(question(chinese, 'taste').getByLabel('Not tasty', { exact: true }).isChecked()).resolves.toBe(true);
    await expect(question(chinese, 'note').getByRole('textbox').inputValue()).resolves.toBe('太鹹了');
    await chinese.getByTestId('content-language-zh-hk').click();
    await question(chinese, 'taste').getByText('飯菜味道如何？').waitFor();
    await expect(question(chinese, 'taste').getByLabel('不好味', { exact: true }).isChecked()).resolves.toBe(true);
    await chinese.getByTestId('section-submit').click();
    await chinese.getByTestId('filling-submitted').waitFor();
    await expect(chinese.getByTestId('closing-message').first().innerText()).resolves.toBe('多謝你的意見');
    await chinese.close();

    // a third, in English, with an answer of their own
    const third = await pageIn('en');
    await qe.loginAs(third, pupils[2]);
    await third.goto(qe.at(`/questionnaire-filling/detail?id=${id}`));
    await question(third, 'taste').getByLabel('Something else', { exact: true }).check();
    await question(third, 'taste').getByRole('textbox').fill('Spicy');
    await third.getByTestId('section-submit').click();
    await third.getByTestId('filling-submitted').waitFor();
    await third.close();

    // one set of answers, whatever the language they were given in
    const stored = await db.selectFrom('replies').select('answers').where('questionnaire_id', '=', id).execute();
    expect(stored.map((r) => JSON.parse(r.answers).taste).sort((a, b) => a.choice.localeCompare(b.choice))).toEqual([
      { choice: '__other__', otherText: 'Spicy' },
      { choice: 'bad' },
      { choice: 'good' },
    ]);

    // the teacher reads the results in Chinese, then in English
    const reader = await pageIn('zh-hk');
    await qe.loginAs(reader, 'teacher01');
    await reader.goto(qe.at(`/data-statistics/detail?id=${id}`));
    await reader.getByTestId('statistics-detail').waitFor();
    const table = () => reader.getByTestId('stat-question-taste').locator('table').first();
    await table().waitFor();
    const inChinese = await rows(table());
    expect(inChinese.map((r) => r[0])).toEqual(['好味', '不好味', '別的意見']);
    await reader.getByTestId('language-switch').click();
    await reader.getByTestId('language-en').click();
    await reader.getByTestId('stat-question-taste').getByRole('heading', { name: '1. How does the food taste?' }).waitFor();
    const inEnglish = await rows(table());
    expect(inEnglish.map((r) => r[0])).toEqual(['Tasty', 'Not tasty', 'Something else']);
    expect(inEnglish.map((r) => r.slice(1))).toEqual(inChinese.map((r) => r.slice(1)));
    expect(inEnglish.map((r) => r[1])).toEqual(['1', '1', '1']);
    await reader.close();
  });
});
