import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { Definition } from '../../src/shared/questionnaire/definition.js';
import { api, apiLogin, launchBrowser, loginAs, newPage, openedForClass, url } from './browser.js';

// On a phone's width: the teacher in charge marks one text answer shown for a release; the filter
// "shown" then keeps that answer alone, "hidden" the others (docs/product-rules.md#text-answers-read).
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const definition: Definition = {
  version: 1,
  sections: [{ id: 's1', title: '意見', questions: [{ id: 'idea', type: 'SHORT_TEXT', title: '你對學校的建議', required: true }] }],
};
const IDEAS: Record<string, string> = { student008: '希望小食部有更多選擇', student009: '想多啲戶外活動' };

describe('text answers marked for a release', () => {
  it('marks an answer shown; the filter keeps it', async () => {
    const teacher = await apiLogin('teacher01');
    const title = `文字回覆標示 ${Date.now()}`;
    const id = await openedForClass(teacher, '1A', title, definition);
    for (const [username, idea] of Object.entries(IDEAS)) {
      const sent = await api(`/v1/my/questionnaires/${id}/replies`, await apiLogin(username), 'POST', { submissionKey: `e2e-marks-${username}-${id}`, answers: { idea } });
      expect(sent.envelope.code, `${username}: ${sent.envelope.msg}`).toBe(200);
    }

    const page = await newPage(browser, { width: 360, height: 740 });
    await loginAs(page, 'teacher01');
    await page.goto(url(`/data-statistics/detail?id=${id}`));
    await page.getByTestId('statistics-detail').waitFor();
    const box = page.getByTestId('texts-idea-answer');
    await box.getByTestId('text-answer').first().waitFor();
    // every answer starts hidden
    const toggle = box.getByRole('checkbox', { name: `顯示：${IDEAS.student008}` });
    await expect(toggle.isChecked()).resolves.toBe(false);
    await toggle.check();
    await page.waitForFunction(() => (document.querySelector('input[aria-label^="顯示：希望"]') as HTMLInputElement | null)?.checked === true);

    // the filter: shown keeps the marked answer alone, hidden the other
    const choose = async (option: string) => {
      await box.getByRole('combobox', { name: '發布' }).click();
      await page.getByRole('option', { name: option, exact: true }).click();
    };
    await choose('顯示');
    await expect.poll(async () => (await box.getByTestId('text-answer').allInnerTexts()).map((t) => t.trim())).toEqual([IDEAS.student008]);
    await choose('隱藏');
    await expect.poll(async () => (await box.getByTestId('text-answer').allInnerTexts()).map((t) => t.trim())).toEqual([IDEAS.student009]);
    // nothing wider than the phone
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.close();
  });
});
