import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Response } from 'playwright-core';
import { QUESTION_TYPES } from '../../src/shared/questionnaire/definition.js';
import { baseUrl, launchBrowser, loginAs, newPage, schoolInput, url } from './browser.js';

// End to end: a teacher creates a questionnaire for one class with one question of each
// of the ten types (one with an image), previews it and marks the design complete; with an
// open date of now it is in progress at once and the class's students have feedback records.
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

// a 1×1 transparent PNG
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

describe('questionnaire design', () => {
  it('a teacher designs a questionnaire of all ten question types for a class and it opens at once', async () => {
    const page = await newPage(browser);
    await loginAs(page, 'teacher01');
    await page.goto(url('/forms/list'));
    await page.getByTestId('questionnaire-add').click();
    await page.waitForURL(/\/forms\/add$/);

    await page.locator('input[name="title"]').fill('E2E 全題型問卷');
    await page.locator('input[name="openDate"]').fill(schoolInput(new Date(Date.now() - 60_000)));
    await page.locator('input[name="endDate"]').fill(schoolInput(new Date(Date.now() + 7 * 86_400_000)));
    await page.getByTestId('target-kind').selectOption('CLASS');
    await page.getByTestId('target-options').fill('1A');
    await page.getByRole('option', { name: /1A/ }).first().click();
    await page.getByTestId('target-add').click();
    await page.getByTestId('audience-total').filter({ hasText: /17/ }).waitFor();
    await page.getByTestId('q-saveAndEdit').click();
    await page.waitForURL(/\/forms\/doc\?id=\d+$/);
    const id = Number(new URL(page.url()).searchParams.get('id'));

    for (const [i, type] of QUESTION_TYPES.entries()) {
      await page.getByTestId('add-question-0').click();
      await page.getByTestId(`add-type-${type}`).click();
      const editor = page.getByTestId('question-editor').nth(i);
      await editor.getByTestId('question-title').fill(`問題 ${i + 1}（${type}）`);
    }
    await expect(page.getByTestId('question-editor').count()).resolves.toBe(10);
    await page.getByTestId('question-editor').first().getByTestId('image-file').setInputFiles({ name: 'pic.png', mimeType: 'image/png', buffer: PNG });
    const picture = page.getByTestId('question-editor').first().getByTestId('image-preview');
    await picture.waitFor();
    // the picture drawn, so the page no longer moves under the pointer as it loads
    await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { timeout: 15_000 }).toBe(true);
    for (const [i] of QUESTION_TYPES.entries()) {
      await expect.poll(() => page.getByTestId('question-editor').nth(i).getByTestId('question-title').inputValue()).toMatch(new RegExp(`^問題 ${i + 1}（`));
    }
    // the save's own answer first: a failure then names its status and message instead of a chip that stays
    const isSave = (r: Response) => r.request().method() === 'PUT' && new URL(r.url()).pathname === `/v1/questionnaires/${id}`;
    const save = page.getByTestId('designer-save');
    await expect.poll(() => save.isEnabled()).toBe(true);
    let saved = page.waitForResponse(isSave, { timeout: 10_000 });
    await save.click();
    let answer = await saved.catch(() => null);
    if (!answer) {
      // no save went out: say what the screen shows (a check that failed, a message), then try once more
      const shown = await page.locator('[role="alert"], .MuiSnackbar-root').allInnerTexts();
      console.log(`designer: the first click on save sent nothing; the screen shows: ${JSON.stringify(shown)}`);
      saved = page.waitForResponse(isSave, { timeout: 30_000 });
      await save.click();
      answer = await saved;
    }
    expect(`${answer.status()} ${await answer.text().then((t) => t.slice(0, 300))}`).toMatch(/^200 /);
    await page.getByTestId('designer-dirty').waitFor({ state: 'detached' });

    await page.getByTestId('designer-preview').click();
    const preview = page.getByTestId('preview-dialog');
    await preview.waitFor();
    await expect(preview.innerText()).resolves.toContain('問題 1（GRID_RADIO）');
    await expect(preview.locator('img').count()).resolves.toBeGreaterThan(0);
    await page.getByTestId('preview-close').click();

    await page.goto(url(`/forms/edit?id=${id}`));
    await page.getByTestId('q-ready').click();
    await page.getByTestId('info-status').filter({ hasText: /進行中/ }).waitFor();

    // the class's students (17 in 1A) each have a feedback record, none submitted yet
    const token = await page.evaluate(() => localStorage.getItem('qe-token'));
    const res = await fetch(`${baseUrl()}/v1/questionnaires/${id}`, { headers: { authorization: `Bearer ${token}` } });
    const body = (await res.json()) as { data: { status: string; respondentCount: number; submittedCount: number; definition: { sections: { questions: { type: string; image?: string }[] }[] } } };
    expect(body.data.status).toBe('PROCESSING');
    expect(body.data.respondentCount).toBe(17);
    expect(body.data.submittedCount).toBe(0);
    expect(body.data.definition.sections[0].questions.map((q) => q.type)).toEqual([...QUESTION_TYPES]);
    expect(body.data.definition.sections[0].questions[0].image).toMatch(/^questionnaires\//);
    await page.close();
    // two tries at the save on a busy machine: longer than the suite's minute
  }, 120_000);
});
