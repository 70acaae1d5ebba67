import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { Definition } from '../../src/shared/questionnaire/definition.js';
import { apiLogin, launchBrowser, loginAs, newPage, openedForClass, url } from './browser.js';

// Answer patterns in the browser: the RE2 engine is not in the first bundle, it is
// fetched when a questionnaire with a pattern rule is shown, and it judges the answers on the
// screen — `(a+)+b` included, which froze JavaScript's RegExp — before anything is sent.
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

const definition: Definition = {
  version: 1,
  sections: [
    {
      id: 's1',
      questions: [
        { id: 'cls', type: 'SHORT_TEXT', title: '你的班別', required: true, textRule: { kind: 'pattern', pattern: '[1-6][A-D]', message: '請以 3A 的格式填寫' } },
        { id: 'trap', type: 'SHORT_TEXT', title: '一串字母', required: true, textRule: { kind: 'pattern', pattern: '(a+)+b' } },
      ],
    },
  ],
};

/** Whether a script the page loaded is the RE2 engine (its own error class's name is in it). */
const isEngine = async (src: string) => (await (await fetch(src)).text()).includes('RE2JSSyntaxException');

describe('answer patterns in the browser', () => {
  it('fetches the engine only for a questionnaire that needs it, and judges (a+)+b on the screen before sending', async () => {
    const teacher = await apiLogin('teacher01');
    const title = `E2E 格式 ${Date.now()}`;
    // student018 is the first of 1B in the demo school
    const id = await openedForClass(teacher, '1B', title, definition);

    // a phone, where the list shows cards
    const page = await newPage(browser, { width: 360, height: 640 });
    const scripts: string[] = [];
    const sent: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(r.url());
      if (r.method() === 'POST' && r.url().includes('/replies')) sent.push(r.url());
    });
    await loginAs(page, 'student018');
    await page.goto(url('/questionnaire-filling/list'));
    await page.getByTestId('filling-card').filter({ hasText: title }).waitFor();
    const engines = async () => (await Promise.all([...new Set(scripts)].map(async (s) => ((await isEngine(s)) ? [s] : [])))).flat();
    expect(await engines()).toEqual([]);

    await page.goto(url(`/questionnaire-filling/detail?id=${id}`));
    const q = (qid: string) => page.getByTestId(`question-${qid}`);
    await q('cls').waitFor();
    await expect.poll(engines).toHaveLength(1);

    await q('cls').getByRole('textbox').fill('7E');
    await q('trap').getByRole('textbox').fill('a'.repeat(1000));
    await page.getByTestId('section-submit').click();
    await q('cls').getByText('請以 3A 的格式填寫').waitFor();
    await q('trap').getByText('答案格式不正確').waitFor();
    expect(sent).toEqual([]);

    await q('cls').getByRole('textbox').fill('1B');
    await q('trap').getByRole('textbox').fill(`${'a'.repeat(999)}b`);
    await page.getByTestId('section-submit').click();
    await page.waitForURL(new RegExp(`/questionnaire-filling/view\\?id=${id}$`));
    expect(sent).toHaveLength(1);
    await page.close();
  });
});
