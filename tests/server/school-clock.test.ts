import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { fieldMessage } from '../../src/shared/field-messages.js';
import type { Questionnaire } from '../../src/shared/questionnaire/types.js';
import { parseMail, smtpServer } from '../support/smtp.js';
import { login, testApp, type TestApp } from './harness.js';
import { caller } from './master/helpers.js';
import { as, classId, classStudents, data, expectError, processing, type Caller } from './questionnaires/helpers.js';
import { goodAnswers, newKey, opened } from './filling/helpers.js';
import { schoolDate } from '../../src/shared/school-clock.js';

// The server's own zone is UTC: what QE exports and mails follows the school's setting alone.
process.env.TZ = 'UTC';

/** The summary sheet's value beside a label (Open date, End date). */
async function summaryValue(res: LightMyRequestResponse, label: string): Promise<unknown> {
  expect(res.statusCode, res.body).toBe(200);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  let found: unknown;
  workbook.worksheets[0].eachRow((row) => {
    if (row.getCell(1).value === label) found = row.getCell(2).value;
  });
  return found;
}

describe("the school's time zone", () => {
  let t: TestApp;
  let admin: Caller;
  let teacher: Caller;
  let smtp: Awaited<ReturnType<typeof smtpServer>>;
  let q: Questionnaire;
  const year = new Date().getUTCFullYear() + 1;
  // 09:30 UTC on 30 June: 17:30 in Hong Kong, 05:30 in New York (summer time), 09:30 in UTC
  const endDate = `${year}-06-30T09:30:00.000Z`;

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0, publicUrl: 'https://qe.school.edu.hk' } });
    smtp = await smtpServer();
    admin = caller(t.app, (await login(t.app, 'admin')).tk);
    teacher = await as(t, 'teacher01');
    const saved = await admin('PUT', '/v1/mail-settings', {
      host: '127.0.0.1',
      port: smtp.port,
      secure: false,
      fromAddress: 'qe@school.edu.hk',
      fromName: 'QE',
      reminderSubject: 'Reminder: {title} by {deadline}',
      reminderContent: 'Please fill in {title} by {deadline}.',
    });
    expect(saved.json().code, saved.body).toBe(200);
    q = await processing(teacher, [{ kind: 'CLASS', ids: [await classId(t.db, '1A')] }], { title: 'Clock survey', endDate });
  });
  afterAll(async () => {
    await smtp?.close();
    await t?.close();
  });

  const settings = async () => (await admin('GET', '/v1/school')).json().data;
  const setZone = async (timeZone: string, call = admin) => {
    const s = await settings();
    return call('PUT', '/v1/school', { nameHk: s.nameHk, nameEn: s.nameEn, languageList: s.languageList, timeZone });
  };
  const exported = async () => summaryValue(await teacher('GET', `/v1/statistics/${q.id}/export`), 'End date');
  /** The deadline in the reminders of one notice: subject and text. */
  const mailed = async () => {
    smtp.received.length = 0;
    const res = await teacher('POST', `/v1/questionnaires/${q.id}/notice`);
    expect(res.json().code, res.body).toBe(200);
    expect(smtp.received.length).toBeGreaterThan(0);
    return [...new Set(smtp.received.map((m) => {
      const { header, body } = parseMail(m.raw);
      return `${header('Subject')} | ${body.split('\n\n')[0]}`;
    }))];
  };

  it('is Hong Kong by default: the settings, the school info and the user info say so, and the xlsx and the reminders use it', async () => {
    expect((await settings()).timeZone).toBe('Asia/Hong_Kong');
    expect(data<{ timeZone: string }>(await admin('GET', '/v1/school-info')).timeZone).toBe('Asia/Hong_Kong');
    expect(data<{ timeZone: string }>(await teacher('GET', '/v1/my/user-info')).timeZone).toBe('Asia/Hong_Kong');
    expect(await exported()).toBe(`${year}-06-30 17:30`);
    expect(await mailed()).toEqual([`Reminder: Clock survey by ${year}-06-30 17:30 | Please fill in Clock survey by ${year}-06-30 17:30.`]);
  });

  it('refuses a zone it does not know, field by field in the caller’s language, and keeps the one saved', async () => {
    for (const [zone, lang] of [['Mars/Olympus_Mons', 'en'], ['GMT+8', 'zh-hk'], ['', 'en']] as const) {
      const res = await setZone(zone, caller(t.app, (await login(t.app, 'admin')).tk, lang));
      expect(res.statusCode, res.body).toBe(422);
      if (zone) expect(res.json().data).toEqual({ timeZone: fieldMessage('timeZone', lang) });
    }
    expect((await settings()).timeZone).toBe('Asia/Hong_Kong');
    // only whoever may edit the school settings
    expectError(await setZone('UTC', teacher), 'PERMISSION_DENIED');
    expect((await settings()).timeZone).toBe('Asia/Hong_Kong');
  });

  it('moves every export and reminder to the new zone at once, New York with its summer time, and UTC', async () => {
    expect(data<{ timeZone: string }>(await setZone('America/New_York')).timeZone).toBe('America/New_York');
    expect(data<{ timeZone: string }>(await teacher('GET', '/v1/my/user-info')).timeZone).toBe('America/New_York');
    expect(await exported()).toBe(`${year}-06-30 05:30`);
    expect(await mailed()).toEqual([`Reminder: Clock survey by ${year}-06-30 05:30 | Please fill in Clock survey by ${year}-06-30 05:30.`]);
    // saved as Intl spells it
    expect(data<{ timeZone: string }>(await setZone('utc')).timeZone).toBe('UTC');
    expect(await exported()).toBe(`${year}-06-30 09:30`);
    expect(await mailed()).toEqual([`Reminder: Clock survey by ${year}-06-30 09:30 | Please fill in Clock survey by ${year}-06-30 09:30.`]);
  });

  it("keeps an anonymous reply's day on the school's clock: a day ahead of UTC's at Kiritimati, behind at Pago Pago", async () => {
    const students = await classStudents(t.db, '6A');
    const q6 = await opened(teacher, [{ kind: 'CLASS', ids: [await classId(t.db, '6A')] }], { type: 'ANONYMOUS' });
    const submitAs = async (userId: number) => {
      const { username } = await t.db.selectFrom('users').select('username').where('id', '=', userId).executeTakeFirstOrThrow();
      const student = await as(t, username);
      return data<{ submittedAt: string }>(await student('POST', `/v1/my/questionnaires/${q6.id}/replies`, { submissionKey: newKey(), answers: goodAnswers() })).submittedAt;
    };
    for (const [i, zone] of (['Pacific/Kiritimati', 'Pacific/Pago_Pago'] as const).entries()) {
      await setZone(zone);
      const before = schoolDate(new Date(), zone);
      const day = await submitAs(students[i]);
      // the day on the school's clock as the reply came (UTC+14 and UTC-11 are never on the same day)
      expect([before, schoolDate(new Date(), zone)]).toContain(day);
      const feedback = await t.db.selectFrom('feedback').select('submitted_at').where('questionnaire_id', '=', q6.id).where('user_id', '=', students[i]).executeTakeFirstOrThrow();
      expect(feedback.submitted_at).toBe(day);
    }
    const days = await t.db.selectFrom('feedback').select('submitted_at').where('questionnaire_id', '=', q6.id).where('status', '=', 'SUBMITTED').execute();
    expect(new Set(days.map((d) => d.submitted_at)).size).toBe(2);
  });

  it('reaches another instance on the same database at its next request (the zone is kept under a cache counter, not in one process)', async () => {
    await setZone('UTC');
    const other = await buildApp(t.config, { logger: false });
    try {
      await other.app.ready();
      const teacherThere = caller(other.app, (await login(other.app, 'teacher01')).tk);
      const zoneThere = async () => data<{ timeZone: string }>(await teacherThere('GET', '/v1/my/user-info')).timeZone;
      const exportedThere = async () => summaryValue(await teacherThere('GET', `/v1/statistics/${q.id}/export`), 'End date');
      expect(await zoneThere()).toBe('UTC');
      expect(await exportedThere()).toBe(`${year}-06-30 09:30`);
      await setZone('Asia/Hong_Kong');
      expect(await zoneThere()).toBe('Asia/Hong_Kong');
      expect(await exportedThere()).toBe(`${year}-06-30 17:30`);
      // and back the other way: a change made there holds here
      const adminThere = caller(other.app, (await login(other.app, 'admin')).tk);
      const s = await settings();
      expect((await adminThere('PUT', '/v1/school', { nameHk: s.nameHk, nameEn: s.nameEn, languageList: s.languageList, timeZone: 'America/New_York' })).json().code).toBe(200);
      expect(await exported()).toBe(`${year}-06-30 05:30`);
    } finally {
      await other.app.close();
    }
  });
});
