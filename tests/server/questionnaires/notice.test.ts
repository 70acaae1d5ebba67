import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMail as parse, smtpServer } from '../../support/smtp.js';
import { interpolate, ERRORS } from '../../../src/shared/errors.js';
import type { Questionnaire } from '../../../src/shared/questionnaire/types.js';
import { testApp, type TestApp } from '../harness.js';
import { as, classId, classStudents, create, data, expectError, feedbackRows, oneQuestion, processing, userId, type Caller } from './helpers.js';

describe('reminders (send notice)', () => {
  let t: TestApp;
  let teacher: Caller;
  let smtp: Awaited<ReturnType<typeof smtpServer>>;
  // a deadline in Hong Kong time: 09:30 UTC is 17:30 there
  const year = new Date().getUTCFullYear() + 1;
  const endDate = `${year}-06-30T09:30:00.000Z`;
  const deadline = `${year}-06-30 17:30`;

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    smtp = await smtpServer();
    teacher = await as(t, 'teacher01');
  });
  afterAll(async () => {
    await smtp?.close();
    await t?.close();
  });

  const people = (ids: number[]) => t.db.selectFrom('users').select(['id', 'email', 'name_hk', 'name_en', 'language']).where('id', 'in', ids).execute();
  const notice = async (q: Questionnaire) => teacher('POST', `/v1/questionnaires/${q.id}/notice`);

  it('answers 713 while no mail setting is saved, and records no notice', async () => {
    const q = await processing(teacher, [{ kind: 'ALL_TEACHERS' }], { title: 'Before the setting' });
    const res = await notice(q);
    expect(res.json().code).toBe(713);
    expect(res.json().msg.startsWith(interpolate(ERRORS.MAIL_FAILED.en, { reason: '' }))).toBe(true);
    expect(data(await teacher('GET', `/v1/questionnaires/${q.id}`)).lastNoticeTime).toBeNull();
    expect((await feedbackRows(t.db, q.id)).every((f) => f.notified_at === null)).toBe(true);
  });

  describe('with the mail setting saved', () => {
    let q: Questionnaire;
    let submitted: number;
    let noMail: number;
    let english: number;
    let refused: { id: number; email: string };

    beforeAll(async () => {
      const admin = await as(t, 'admin');
      const saved = await admin('PUT', '/v1/mail-settings', {
        host: '127.0.0.1',
        port: smtp.port,
        secure: false,
        fromAddress: 'qe@school.edu.hk',
        fromName: 'QE Reminders',
        reminderSubject: 'Reminder: {title}',
        reminderContent: 'Dear {name}, please fill in {title} by {deadline}. ({name})',
      });
      expect(saved.json().code, saved.body).toBe(200);

      const students = await classStudents(t.db, '1A');
      const teacher05 = await userId(t.db, 'teacher05');
      q = await processing(teacher, [{ kind: 'CLASS', ids: [await classId(t.db, '1A')] }, { kind: 'USERS', ids: [teacher05] }], { title: 'Sports day survey', endDate });
      [submitted, noMail, english] = students;
      // one has replied, one has no e-mail address, one reads English, the teacher has logged in in English
      const rows = await feedbackRows(t.db, q.id);
      await t.db.updateTable('feedback').set({ status: 'SUBMITTED', submitted_at: new Date().toISOString() }).where('id', '=', rows.find((r) => r.user_id === submitted)!.id).execute();
      await t.db.updateTable('users').set({ email: null }).where('id', '=', noMail).execute();
      await t.db.updateTable('users').set({ language: 'en' }).where('id', 'in', [english, teacher05]).execute();
      await t.db.updateTable('users').set({ language: 'zh-hk' }).where('id', '=', students[3]).execute();
      const [r] = await people([students[4]]);
      refused = { id: r.id, email: r.email! };
    });

    it('mails every respondent with an address who has not submitted, in their language, and records it', async () => {
      const before = data(await teacher('GET', `/v1/questionnaires/${q.id}`));
      expect(before.lastNoticeTime).toBeNull();
      const started = new Date().toISOString();

      const res = await notice(q);
      const rows = await feedbackRows(t.db, q.id);
      const expected = rows.filter((r) => r.status === 'NOT_SUBMITTED' && r.user_id !== noMail);
      expect(expected).toHaveLength(rows.length - 2);
      expect(data<{ sent: number; failed: number }>(res)).toEqual({ sent: expected.length, failed: 1 });

      const recipients = await people(expected.map((r) => r.user_id));
      expect(smtp.received).toHaveLength(expected.length);
      expect(smtp.received.map((m) => m.to[0]).sort()).toEqual(recipients.map((p) => p.email!).sort());
      for (const mail of smtp.received) {
        expect(mail.to).toHaveLength(1);
        const person = recipients.find((p) => p.email === mail.to[0])!;
        const name = person.language === 'en' ? person.name_en : person.name_hk;
        const { header, body } = parse(mail.raw);
        expect(header('Subject')).toBe('Reminder: Sports day survey');
        expect(header('From')).toBe('QE Reminders <qe@school.edu.hk>');
        // the filled template, then the respondent's own link into the questionnaire (/app/quick)
        const [text, link] = body.split('\n\n');
        expect(text).toBe(`Dear ${name}, please fill in Sports day survey by ${deadline}. (${name})`);
        expect(link).toMatch(/^http:\/\/localhost(:\d+)?\/qe\/app\/quick\?token=[\w.%-]+$/);
      }
      // the English readers got their English names, the others their Chinese names
      const byId = new Map(recipients.map((p) => [p.id, p]));
      const bodyOf = (id: number) => parse(smtp.received.find((m) => m.to[0] === byId.get(id)!.email)!.raw).body;
      expect(bodyOf(english)).toContain(`Dear ${byId.get(english)!.name_en},`);
      expect(bodyOf(await userId(t.db, 'teacher05'))).toContain(`Dear ${byId.get(await userId(t.db, 'teacher05'))!.name_en},`);
      const hk = recipients.find((p) => p.language !== 'en')!;
      expect(bodyOf(hk.id)).toContain(`Dear ${hk.name_hk},`);
      // the one who has replied got nothing
      const [replied] = await people([submitted]);
      expect(smtp.received.flatMap((m) => m.to)).not.toContain(replied.email);

      for (const r of rows) {
        if (expected.includes(r)) {
          expect(r.notified_at, String(r.user_id)).not.toBeNull();
          expect(r.notified_at! >= started).toBe(true);
        } else expect(r.notified_at, String(r.user_id)).toBeNull();
      }
      const after = data(await teacher('GET', `/v1/questionnaires/${q.id}`));
      expect(after.lastNoticeTime).not.toBeNull();
      expect(after.lastNoticeTime! >= started).toBe(true);
    });

    it('counts a recipient the SMTP server refuses as failed, still sends to the others and records them', async () => {
      const before = data(await teacher('GET', `/v1/questionnaires/${q.id}`)).lastNoticeTime!;
      const notifiedBefore = new Map((await feedbackRows(t.db, q.id)).map((r) => [r.user_id, r.notified_at]));
      await new Promise((resolve) => setTimeout(resolve, 5));
      smtp.received.length = 0;
      smtp.refuse.add(refused.email);

      const res = await notice(q);
      const rows = await feedbackRows(t.db, q.id);
      const waiting = rows.filter((r) => r.status === 'NOT_SUBMITTED' && r.user_id !== noMail);
      expect(data<{ sent: number; failed: number }>(res)).toEqual({ sent: waiting.length - 1, failed: 2 });
      expect(smtp.received).toHaveLength(waiting.length - 1);
      expect(smtp.received.flatMap((m) => m.to)).not.toContain(refused.email);

      for (const r of waiting) {
        if (r.user_id === refused.id) expect(r.notified_at).toBe(notifiedBefore.get(r.user_id));
        else expect(r.notified_at! > notifiedBefore.get(r.user_id)!).toBe(true);
      }
      const after = data(await teacher('GET', `/v1/questionnaires/${q.id}`)).lastNoticeTime!;
      expect(after > before).toBe(true);
      smtp.refuse.clear();
    });

    it('answers 709 outside PROCESSING', async () => {
      const preparing = await create(teacher, { title: 'Still in design', definition: oneQuestion(), targets: [{ kind: 'ALL_TEACHERS' }] });
      expectError(await notice(preparing), 'ILLEGAL_TRANSITION');
      const hk = await as(t, 'teacher01', 'zh-hk');
      expectError(await hk('POST', `/v1/questionnaires/${preparing.id}/notice`), 'ILLEGAL_TRANSITION', 'zh-hk');
      const finished = await processing(teacher, [{ kind: 'ALL_TEACHERS' }], { title: 'Closed one' });
      data(await teacher('POST', `/v1/questionnaires/${finished.id}/close`));
      smtp.received.length = 0;
      expectError(await notice(finished), 'ILLEGAL_TRANSITION');
      expect(smtp.received).toHaveLength(0);
      expect(data(await teacher('GET', `/v1/questionnaires/${finished.id}`)).lastNoticeTime).toBeNull();
      expect((await feedbackRows(t.db, finished.id)).every((f) => f.notified_at === null)).toBe(true);
    });

    it('records nobody as notified when the SMTP server is down', async () => {
      const down = await processing(teacher, [{ kind: 'CLASS', ids: [await classId(t.db, '2A')] }], { title: 'Server down' });
      await smtp.close();
      const res = await notice(down);
      if (res.json().code === 200) {
        const n = (await feedbackRows(t.db, down.id)).length;
        expect(res.json().data).toEqual({ sent: 0, failed: n });
      } else {
        expect(res.json().code).toBe(713);
      }
      expect((await feedbackRows(t.db, down.id)).every((f) => f.notified_at === null)).toBe(true);
      // a notice that reached nobody is not shown as sent
      expect(data(await teacher('GET', `/v1/questionnaires/${down.id}`)).lastNoticeTime).toBeNull();
      // nor does it change the record of an earlier one
      const earlier = data(await teacher('GET', `/v1/questionnaires/${q.id}`)).lastNoticeTime;
      expect([200, 713]).toContain((await notice(q)).json().code);
      expect(data(await teacher('GET', `/v1/questionnaires/${q.id}`)).lastNoticeTime).toBe(earlier);
    });
  });
});
