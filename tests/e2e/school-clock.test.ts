import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.js';
import { startOwnQe, type OwnQe } from './own-server.js';
import type { OutboxMail } from '../../src/server/mail/outbox.js';

// One clock (docs/conventions.md#dates-and-times): the server runs on UTC (this file's own QE, in
// this process), the browsers on UTC and on New York's zone, and every screen, the xlsx, the PDF
// and the reminder say the same school time — Hong Kong's, the school's setting — and follow the
// setting when it changes.
process.env.TZ = 'UTC';

let qe: OwnQe;
let browser: Browser;
let work: string;
let id: number;
const title = `時鐘測試 ${Date.now()}`;
const year = new Date().getUTCFullYear() + 1;
// 09:30 UTC on 30 June: 17:30 in Hong Kong, 05:30 in New York, 09:30 in UTC
const endDate = `${year}-06-30T09:30:00.000Z`;
const HK = `${year}-06-30 17:30`;
const NY = `${year}-06-30 05:30`;
const UTC = `${year}-06-30 09:30`;

beforeAll(async () => {
  qe = await startOwnQe({ mailOutbox: true, publicUrl: 'http://127.0.0.1' });
  browser = await launchBrowser();
  work = mkdtempSync(join(tmpdir(), 'qe-clock-'));
  const mail = await qe.api('/v1/mail-settings', await qe.token('admin'), 'PUT', {
    host: 'smtp.invalid',
    port: 25,
    secure: false,
    fromAddress: 'qe@demo.qe.school',
    fromName: 'QE',
    reminderSubject: '提示：{title}',
    reminderContent: '{name}：請於 {deadline} 前填寫「{title}」。',
  });
  expect(mail.code, mail.msg).toBe(200);
  const teacher = await qe.token('teacher01');
  const classes = await qe.api<{ list: { id: number; code: string }[] }>('/v1/audience-options?kind=CLASS&q=1A', teacher);
  const classId = classes.data.list.find((k) => k.code === '1A')!.id;
  const created = await qe.api<{ id: number }>('/v1/questionnaires', teacher, 'POST', {
    title,
    type: 'NAMED',
    openDate: new Date(Date.now() - 60_000).toISOString(),
    endDate,
    targets: [{ kind: 'CLASS', ids: [classId] }],
    definition: { version: 1, sections: [{ id: 's1', questions: [{ id: 'q1', type: 'SHORT_TEXT', title: '你的意見', required: false }] }] },
  });
  expect(created.code, created.msg).toBe(201);
  id = created.data.id;
  expect((await qe.api<{ status: string }>(`/v1/questionnaires/${id}/ready`, teacher, 'POST')).data.status).toBe('PROCESSING');
});
afterAll(async () => {
  await browser?.close();
  await qe?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** A page in a browser whose own time zone is `timezoneId`, logged in as `username`. */
async function pageIn(timezoneId: string, username: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'zh-HK', timezoneId });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  await qe.loginAs(page, username);
  return page;
}

/** What every place shows of the questionnaire's end, as one list of texts. */
async function seenIn(timezoneId: string): Promise<Record<string, string>> {
  const student = await pageIn(timezoneId, 'student003');
  expect(await student.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe(timezoneId);
  const home = (await student.getByTestId('to-answer-item').filter({ hasText: title }).getByTestId('end-date').innerText()).trim();
  await student.goto(qe.at(`/questionnaire-filling/detail?id=${id}`));
  const answer = (await student.getByTestId('fact-endDate').innerText()).trim();
  await student.goto(qe.at('/questionnaire-filling/list'));
  const fillingList = (await student.getByRole('row').filter({ hasText: title }).first().innerText()).trim();
  await student.context().close();

  const teacher = await pageIn(timezoneId, 'teacher01');
  await teacher.goto(qe.at('/forms/list'));
  const formsList = (await teacher.getByRole('row').filter({ hasText: title }).first().innerText()).trim();
  await teacher.goto(qe.at(`/data-statistics/detail?id=${id}`));
  // the header is read whole once its release button (the person in charge's) has come with its own call
  await teacher.getByTestId('release-results').waitFor();
  const statistics = (await teacher.getByTestId('statistics-header').innerText()).trim();
  // the PDF, made in this browser
  await teacher.waitForFunction(() => document.querySelector('[data-testid="pdf-status"]')?.getAttribute('data-state') === 'success', undefined, { timeout: 60_000 });
  const [download] = await Promise.all([teacher.waitForEvent('download', { timeout: 60_000 }), teacher.getByTestId('statistics-pdf').click()]);
  const file = join(work, `${timezoneId.replace('/', '-')}-${Date.now()}.pdf`);
  await download.saveAs(file);
  const pdf = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(/[ \t]+/g, ' ');
  await teacher.context().close();
  return { home, answer, fillingList, formsList, statistics, pdf: /結束日期 ([\d-]+ [\d:]+)/.exec(pdf)?.[1] ?? pdf };
}

/** The End date of the xlsx's summary, made by the server (on UTC). */
async function xlsxEnd(): Promise<unknown> {
  const res = await fetch(`${qe.base}/v1/statistics/${id}/export`, { headers: { authorization: `Bearer ${await qe.token('teacher01')}` } });
  expect(res.status).toBe(200);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(await res.arrayBuffer());
  let end: unknown;
  workbook.worksheets[0].eachRow((row) => {
    if (row.getCell(1).value === '結束日期' || row.getCell(1).value === 'End date') end = row.getCell(2).value;
  });
  return end;
}

/** The deadline in the reminder mails of one notice (kept in the outbox). */
async function mailed(): Promise<string[]> {
  // the outbox as the mail setting screen reads it (in the database: migration 0034)
  const readOutbox = async () => (await qe.api<{ total: number; list: OutboxMail[] }>('/v1/mail-settings/outbox', await qe.token('admin'))).data;
  const before = (await readOutbox()).total;
  const sent = await qe.api<{ sent: number }>(`/v1/questionnaires/${id}/notice`, await qe.token('teacher01'), 'POST');
  expect(sent.code, sent.msg).toBe(200);
  const { total, list } = await readOutbox();
  expect(total - before).toBe(sent.data.sent);
  const newest = list.slice(0, sent.data.sent);
  return [...new Set(newest.map((m) => /\d{4}-\d{2}-\d{2} \d{2}:\d{2}/.exec(`${m.subject}\n${m.text}`)?.[0] ?? `no time in: ${m.text}`))];
}

const expectAll = (seen: Record<string, string>, time: string, others: string[]) => {
  for (const [where, text] of Object.entries(seen)) {
    expect(text, where).toContain(time);
    for (const other of others) expect(text, where).not.toContain(other);
  }
};

describe('one clock', () => {
  it('every screen, the PDF, the xlsx and the reminder show the school time in a UTC browser and a New York one, on a UTC server', async () => {
    const inUtc = await seenIn('UTC');
    const inNewYork = await seenIn('America/New_York');
    expectAll(inUtc, HK, [NY, UTC]);
    expectAll(inNewYork, HK, [NY, UTC]);
    expect(inNewYork).toEqual(inUtc);
    expect(await xlsxEnd()).toBe(HK);
    expect(await mailed()).toEqual([HK]);
  });

  it('a date typed in a New York browser is read on the school clock', async () => {
    const teacher = await pageIn('America/New_York', 'teacher01');
    await teacher.goto(qe.at(`/forms/list`));
    await teacher.getByRole('row').filter({ hasText: title }).first().getByTestId('row-extend').click();
    const input = teacher.getByTestId('extend-date');
    await input.fill(`${year}-07-01 08:00`);
    await teacher.getByTestId('extend-submit').click();
    await teacher.getByTestId('extend-dialog').waitFor({ state: 'detached' });
    const detail = await qe.api<{ endDate: string }>(`/v1/questionnaires/${id}`, await qe.token('teacher01'));
    // 08:00 in Hong Kong is midnight UTC
    expect(detail.data.endDate).toBe(`${year}-07-01T00:00:00.000Z`);
    await teacher.context().close();
  });

  it('follows the school setting: New York time everywhere once the school says so', async () => {
    const admin = await qe.token('admin');
    const s = (await qe.api<{ nameHk: string; nameEn: string; languageList: unknown }>('/v1/school', admin)).data;
    const saved = await qe.api<{ timeZone: string }>('/v1/school', admin, 'PUT', { nameHk: s.nameHk, nameEn: s.nameEn, languageList: s.languageList, timeZone: 'America/New_York' });
    expect(saved.code, saved.msg).toBe(200);
    // the end moved to midnight UTC on 1 July (the test before): 20:00 on 30 June in New York
    const end = `${year}-06-30 20:00`;
    const inUtc = await seenIn('UTC');
    expectAll(inUtc, end, [`${year}-07-01 08:00`, `${year}-07-01 00:00`]);
    expect(await xlsxEnd()).toBe(end);
    expect(await mailed()).toEqual([end]);
  });

  it('the school settings screen shows the zone and changes it, and the screens follow', async () => {
    const page = await pageIn('UTC', 'admin');
    await page.goto(qe.at('/master/school'));
    await page.getByTestId('school-settings').waitFor();
    const zone = page.getByRole('combobox', { name: /時區/ });
    expect(await zone.inputValue()).toBe('America/New_York');
    await zone.fill('Asia/Hong');
    await page.getByRole('option', { name: 'Asia/Hong_Kong' }).click();
    await page.getByTestId('school-save').click();
    await expect.poll(async () => (await qe.api<{ timeZone: string }>('/v1/school-info', null)).data.timeZone).toBe('Asia/Hong_Kong');
    // the questionnaire list reads the end on Hong Kong's clock again
    await page.goto(qe.at('/forms/list'));
    expect(await page.getByRole('row').filter({ hasText: title }).first().innerText()).toContain(`${year}-07-01 08:00`);
    await page.context().close();
  });
});
