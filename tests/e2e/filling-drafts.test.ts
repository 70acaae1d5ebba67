import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createDb, type DB } from '../../src/server/db/connect.js';
import type { Definition } from '../../src/shared/questionnaire/definition.js';
import { launchBrowser, newPage } from './browser.js';
import { startOwnQe, type OwnQe } from './own-server.js';

// End to end: a pupil begins a named questionnaire in one browser (a school iPad), waits for
// "saved", and finishes it in another browser of their own (a phone at home): the answers are
// offered, continued by keyboard, and submitted; the draft is gone with the submission. An
// anonymous questionnaire keeps its answers on the device only: no draft call, no draft row
// (docs/product-rules.md#states). This file starts its own QE, whose database it reads.
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
  sections: [
    {
      id: 's1',
      questions: [
        { id: 'nick', type: 'SHORT_TEXT', title: '你的暱稱', required: true },
        { id: 'colour', type: 'RADIO', title: '喜歡的顏色', required: true, options: [{ id: 'red', label: '紅色' }, { id: 'blue', label: '藍色' }] },
        { id: 'more', type: 'PARAGRAPH', title: '其他想法', required: false },
      ],
    },
  ],
};

/** As teacher01, a questionnaire of `type` for 1B (student018 is its first pupil) that opens now: its id. */
async function openedFor1B(title: string, type: 'NAMED' | 'ANONYMOUS'): Promise<number> {
  const teacher = await qe.token('teacher01');
  const classes = await qe.api<{ list: { id: number; code: string }[] }>('/v1/audience-options?kind=CLASS&q=1B', teacher);
  const classId = classes.data.list.find((k) => k.code === '1B')!.id;
  const created = await qe.api<{ id: number }>('/v1/questionnaires', teacher, 'POST', {
    title,
    type,
    openDate: new Date(Date.now() - 60_000).toISOString(),
    endDate: new Date(Date.now() + 86_400_000).toISOString(),
    targets: [{ kind: 'CLASS', ids: [classId] }],
    definition,
  });
  expect(created.code, created.msg).toBe(201);
  const ready = await qe.api<{ status: string }>(`/v1/questionnaires/${created.data.id}/ready`, teacher, 'POST');
  expect(ready.data?.status, ready.msg).toBe('PROCESSING');
  return created.data.id;
}

const drafts = (questionnaireId: number) => db.selectFrom('reply_drafts').selectAll().where('questionnaire_id', '=', questionnaireId).execute();
const q = (page: Page, id: string) => page.getByTestId(`question-${id}`);

describe('a draft on the server', () => {
  it('is begun on one device and finished on another of the same pupil', async () => {
    const title = `E2E 草稿續答 ${Date.now()}`;
    const id = await openedFor1B(title, 'NAMED');

    // the school's iPad
    const ipad = await newPage(browser, { width: 1024, height: 768 });
    ipad.on('dialog', (d) => void d.accept());
    await qe.loginAs(ipad, 'student018');
    await ipad.goto(qe.at(`/questionnaire-filling/detail?id=${id}`));
    await q(ipad, 'nick').getByRole('textbox').fill('阿文');
    await q(ipad, 'colour').getByLabel('藍色').check();
    const saved = ipad.locator('[data-testid="server-draft-state"][data-state="saved"]');
    await saved.waitFor();
    expect(await saved.innerText()).toMatch(/^已儲存 \d\d:\d\d/);
    const [row] = await drafts(id);
    expect(JSON.parse(row.answers)).toEqual({ nick: '阿文', colour: { choice: 'blue' } });
    await ipad.close();

    // at home, on a phone: another browser, nothing kept in it
    const phone = await newPage(browser, { width: 360, height: 640 });
    await qe.loginAs(phone, 'student018');
    const sent: string[] = [];
    phone.on('request', (r) => r.url().includes('/draft') && sent.push(r.method()));
    await phone.goto(qe.at(`/questionnaire-filling/detail?id=${id}`));
    const offer = phone.getByTestId('draft-offer');
    await offer.getByText(/你有於 .+ 儲存的答案（在另一部裝置）。/).waitFor();
    await expect(phone.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(360);
    // by keyboard: the focus is on "Continue them"
    await expect(phone.evaluate(() => document.activeElement?.getAttribute('data-testid'))).resolves.toBe('draft-continue');
    await phone.keyboard.press('Enter');
    await offer.waitFor({ state: 'detached' });
    await expect(q(phone, 'nick').getByRole('textbox').inputValue()).resolves.toBe('阿文');
    await expect(q(phone, 'colour').getByLabel('藍色').isChecked()).resolves.toBe(true);
    await q(phone, 'more').getByRole('textbox').fill('在家完成');
    await phone.getByTestId('section-submit').click();
    await phone.waitForURL(new RegExp(`/questionnaire-filling/view\\?id=${id}$`));
    await phone.getByTestId('filling-submitted').waitFor();
    expect(sent[0]).toBe('GET');

    // stored as answered on both devices; the draft went with the submission
    const token = await phone.evaluate(() => localStorage.getItem('qe-token'));
    const mine = await qe.api<{ answers: unknown }>(`/v1/my/questionnaires/${id}`, token);
    expect(mine.data.answers).toEqual({ nick: '阿文', colour: { choice: 'blue' }, more: '在家完成' });
    expect(await drafts(id)).toEqual([]);
    expect((await qe.api(`/v1/my/questionnaires/${id}/draft`, token)).code).toBe(709);
    await phone.close();
  });

  it('is never kept for an anonymous questionnaire: the answers stay on the device', async () => {
    const title = `E2E 裝置草稿 ${Date.now()}`;
    const id = await openedFor1B(title, 'ANONYMOUS');
    const page = await newPage(browser, { width: 360, height: 640 });
    page.on('dialog', (d) => void d.accept());
    const sent: string[] = [];
    page.on('request', (r) => r.url().includes('/draft') && sent.push(`${r.method()} ${r.url()}`));
    await qe.loginAs(page, 'student018');
    await page.goto(qe.at(`/questionnaire-filling/detail?id=${id}`));
    await expect(page.getByTestId('draft-device-only').innerText()).resolves.toBe('此問卷不記名：你的答案只會保存在此裝置，不會保存在伺服器。');
    await q(page, 'nick').getByRole('textbox').fill('阿文');
    await q(page, 'colour').getByLabel('紅色').check();
    // longer than the pause after which a named one is written
    await page.waitForTimeout(2500);
    await expect(page.getByTestId('server-draft-state').count()).resolves.toBe(0);
    // hidden and shown again, as when the tablet sleeps: still nothing sent
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    await page.reload();
    await expect(q(page, 'nick').getByRole('textbox').inputValue()).resolves.toBe('阿文');
    expect(sent).toEqual([]);
    expect(await drafts(id)).toEqual([]);
    // kept in this browser only
    const local = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('qe-filling-draft')));
    expect(local).toHaveLength(1);
    // and the server would refuse one anyway
    const token = await page.evaluate(() => localStorage.getItem('qe-token'));
    const refused = await qe.api(`/v1/my/questionnaires/${id}/draft`, token, 'PUT', { answers: { nick: '阿文' } });
    expect(refused.code).toBe(709);
    expect(await drafts(id)).toEqual([]);
    await page.close();
  });
});
