import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { api, apiLogin, launchBrowser, loginAs, newPage, url } from './browser.js';

// Messages do not hide what they are about: a failed check's message leaves the fields,
// the problem summary and the buttons to act on in sight, on a phone and on a wide screen.

let browser: Browser;
let designing: number;
let withoutAudience: number;

beforeAll(async () => {
  browser = await launchBrowser();
  const teacher = await apiLogin('teacher01');
  const classes = await api<{ list: { id: number; code: string }[] }>('/v1/audience-options?kind=CLASS&q=1A', teacher);
  const created = await api<{ id: number }>('/v1/questionnaires', teacher, 'POST', {
    title: 'Messages: a question to finish',
    type: 'NAMED',
    openDate: new Date(Date.now() + 86_400_000).toISOString(),
    endDate: new Date(Date.now() + 8 * 86_400_000).toISOString(),
    targets: [{ kind: 'CLASS', ids: [classes.envelope.data.list.find((k) => k.code === '1A')!.id] }],
    definition: { version: 1, sections: [{ id: 's1', title: 'One', questions: [{ id: 'q1', type: 'SHORT_TEXT', title: 'Your name', required: false }] }] },
  });
  expect(created.envelope.code, created.envelope.msg).toBe(201);
  designing = created.envelope.data.id;
  const alone = await api<{ id: number }>('/v1/questionnaires', teacher, 'POST', {
    title: 'Messages: nobody to ask yet',
    type: 'NAMED',
    openDate: new Date(Date.now() + 86_400_000).toISOString(),
    endDate: new Date(Date.now() + 8 * 86_400_000).toISOString(),
    targets: [],
    definition: { version: 1, sections: [{ id: 's1', title: 'One', questions: [{ id: 'q1', type: 'SHORT_TEXT', title: 'Your name', required: false }] }] },
  });
  expect(alone.envelope.code, alone.envelope.msg).toBe(201);
  withoutAudience = alone.envelope.data.id;
});
afterAll(async () => browser?.close());

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The messages (react-admin's snackbars) on screen a moment after an action, as boxes. */
async function messages(page: Page): Promise<Box[]> {
  await page.waitForTimeout(900); // a message slides in; the page scrolls smoothly to what is wrong
  const boxes: Box[] = [];
  for (const snackbar of await page.locator('.MuiSnackbar-root').all()) {
    const box = await snackbar.boundingBox();
    if (box) boxes.push(box);
  }
  return boxes;
}

/** The parts of these that are inside the viewport now, by name (test id, else text). */
async function shown(page: Page, targets: Locator): Promise<{ what: string; box: Box }[]> {
  const out: { what: string; box: Box }[] = [];
  const viewport = page.viewportSize()!;
  for (const target of await targets.all()) {
    const box = await target.boundingBox();
    if (!box || box.y + box.height <= 0 || box.y >= viewport.height) continue;
    out.push({ what: await target.evaluate((e) => e.getAttribute('data-testid') ?? e.textContent?.slice(0, 60) ?? e.tagName), box });
  }
  return out;
}

describe('messages leave in sight what they are about', () => {
  for (const viewport of [{ width: 360, height: 640 }, { width: 1280, height: 800 }]) {
    it(`design complete without an audience, at ${viewport.width} px: the message covers neither the field in error nor the form's buttons`, { timeout: 120_000 }, async () => {
      const page = await newPage(browser, viewport);
      await loginAs(page, 'teacher01');
      await page.goto(url(`/forms/edit?id=${withoutAudience}`));
      await page.getByTestId('q-ready').click();
      const boxes = await messages(page);
      const inSight = await shown(page, page.locator('[data-testid="input-targets"] .MuiFormHelperText-root.Mui-error'));
      expect(inSight.map((t) => t.what), 'the field in error is in sight').toHaveLength(1);
      const covered = (await shown(page, page.locator('[data-testid="input-targets"], [data-testid="form-buttons"] button'))).filter((t) => boxes.some((b) => overlap(b, t.box)));
      expect(covered.map((t) => t.what)).toEqual([]);
      await page.close();
    });

    it(`a design saved, at ${viewport.width} px: the message says so over the top bar, not over the designer's buttons or questions`, { timeout: 120_000 }, async () => {
      const page = await newPage(browser, viewport);
      await loginAs(page, 'teacher01');
      await page.goto(url(`/forms/doc?id=${withoutAudience}`));
      await page.getByTestId('designer-toolbar').waitFor();
      await page.getByTestId('question-title').fill(`Your name (${viewport.width})`);
      await page.getByTestId('designer-save').click();
      await page.getByTestId('designer-dirty').waitFor({ state: 'detached' });
      const boxes = await messages(page);
      expect(boxes.length, 'a message says it is saved').toBeGreaterThan(0);
      const covered = (await shown(page, page.locator('[data-testid="designer-toolbar"] button, [data-testid="question-editor"]'))).filter((t) => boxes.some((b) => overlap(b, t.box)));
      expect(covered.map((t) => t.what)).toEqual([]);
      await page.close();
    });

    it(`design complete refused, at ${viewport.width} px: the message covers neither the problems nor the designer's toolbar`, { timeout: 120_000 }, async () => {
      const page = await newPage(browser, viewport);
      await loginAs(page, 'teacher01');
      await page.goto(url(`/forms/doc?id=${designing}`));
      await page.getByTestId('designer-toolbar').waitFor();
      // the question's title taken away: "design complete" refuses, with a message and a list of problems
      await page.getByTestId('question-title').fill('');
      if (viewport.width < 600) {
        await page.getByTestId('designer-more').click();
        await page.getByTestId('designer-ready').click();
      } else await page.getByTestId('designer-ready').click();
      await page.getByTestId('designer-problems').waitFor();
      const boxes = await messages(page);
      expect((await shown(page, page.getByTestId('designer-problems'))).length, 'the problems are in sight').toBe(1);
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'and focused, for a screen reader').toBe('designer-problems');
      const covered = (await shown(page, page.locator('[data-testid="designer-problems"], [data-testid="designer-toolbar"] button'))).filter((t) => boxes.some((b) => overlap(b, t.box)));
      expect(covered.map((t) => t.what)).toEqual([]);
      await page.close();
    });
  }
});
