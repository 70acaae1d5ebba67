import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMail as parse, smtpServer } from '../../support/smtp.js';
import type { Questionnaire } from '../../../src/shared/questionnaire/types.js';
import { login, testApp, type TestApp } from '../harness.js';
import { as, classId, classStudents, create, data, expectError, feedbackRows, oneQuestion, processing, userId, type Caller } from './helpers.js';

const WORD = /=\?utf-8\?([bq])\?([^?]*)\?=/gi;

/** A header as a mail reader shows it: its RFC 2047 encoded words (a subject in Chinese) decoded, adjacent ones joined. */
function decodedHeader(value: string | undefined): string | undefined {
  return value?.replace(/=\?utf-8\?[bq]\?[^?]*\?=(?:\s+=\?utf-8\?[bq]\?[^?]*\?=)*/gi, (run) =>
    Buffer.concat(
      [...run.matchAll(WORD)].map(([, enc, text]) =>
        enc.toLowerCase() === 'b' ? Buffer.from(text, 'base64') : Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1'),
      ),
    ).toString('utf8'),
  );
}

describe('reminders (send notice)', () => {
  let t: TestApp;
  let teacher: Caller;
  let smtp: Awaited<ReturnType<typeof smtpServer>>;
  // a deadline in Hong Kong time: 09:30 UTC is 17:30 there
  const year = new Date().getUTCFullYear() + 1;
  const endDate = `${year}-06-30T09:30:00.000Z`;
  const deadline = `${year}-06-30 17:30`;

  // the address mails link to; the trailing slash is trimmed when the setting is read
  const PUBLIC = 'https://qe.school.edu.hk';
  const linkPattern = /^https:\/\/qe\.school\.edu\.hk\/qe\/app\/quick\?token=[\w.%-]+$/;

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0, publicUrl: `${PUBLIC}/` } });
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
    expectError(res, 'MAIL_SETTING_MISSING');
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

    it('mails every respondent with an address who has not submitted, in their language, and records it; one without an address is counted apart, not as failed', async () => {
      const before = data(await teacher('GET', `/v1/questionnaires/${q.id}`));
      expect(before.lastNoticeTime).toBeNull();
      const started = new Date().toISOString();

      const res = await notice(q);
      const rows = await feedbackRows(t.db, q.id);
      const expected = rows.filter((r) => r.status === 'NOT_SUBMITTED' && r.user_id !== noMail);
      expect(expected).toHaveLength(rows.length - 2);
      expect(data<{ sent: number; failed: number }>(res)).toEqual({ sent: expected.length, failed: 0, noAddress: 1 });

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
        expect(link).toMatch(linkPattern);
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
      expect(data<{ sent: number; failed: number }>(res)).toEqual({ sent: waiting.length - 1, failed: 1, noAddress: 1 });
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

    it('mails each recipient the template and the title of their language (null: Chinese), whichever language the questionnaire is written in first; an English reader gets the Chinese template while the English one is empty', async () => {
      const admin = await as(t, 'admin');
      const base = { host: '127.0.0.1', port: smtp.port, secure: false, fromAddress: 'qe@school.edu.hk', fromName: 'QE Reminders' };
      const chinese = { reminderSubject: '提示：{title}', reminderContent: '{name}：請於 {deadline} 前填寫「{title}」。' };
      const english = { reminderSubjectEn: 'Please answer: {title}', reminderContentEn: 'Dear {name}, please answer {title} by {deadline}.' };
      data(await admin('PUT', '/v1/mail-settings', { ...base, ...chinese, ...english }));

      const [en, hk, none] = [await userId(t.db, 'teacher06'), await userId(t.db, 'teacher07'), await userId(t.db, 'teacher08')];
      const both = await processing(teacher, [{ kind: 'USERS', ids: [en, hk, none] }], { title: '運動會問卷', endDate });
      // the columns the questionnaire service keeps from its definition and its second title
      await t.db.updateTable('questionnaires').set({ languages: 'zh-hk,en', title_translation: 'Sports day survey' }).where('id', '=', both.id).execute();
      await t.db.updateTable('users').set({ language: 'en' }).where('id', '=', en).execute();
      await t.db.updateTable('users').set({ language: 'zh-hk' }).where('id', '=', hk).execute();
      await t.db.updateTable('users').set({ language: null }).where('id', '=', none).execute();
      const people3 = new Map((await people([en, hk, none])).map((p) => [p.id, p]));
      expect([...people3.values()].every((p) => p.email)).toBe(true);

      /** Sends the notice and answers each recipient's mail: subject, filled text and link. */
      const send = async () => {
        smtp.received.length = 0;
        expect(data<{ sent: number }>(await notice(both)).sent).toBe(3);
        const mail = (id: number) => {
          const found = smtp.received.filter((m) => m.to[0] === people3.get(id)!.email);
          expect(found).toHaveLength(1);
          const { header, body } = parse(found[0].raw);
          const [text, link] = body.split('\n\n');
          expect(link).toMatch(linkPattern);
          return { subject: decodedHeader(header('Subject')), text };
        };
        return { en: mail(en), hk: mail(hk), none: mail(none) };
      };
      const nameEn = people3.get(en)!.name_en;
      const inChinese = (id: number, title: string) => ({ subject: `提示：${title}`, text: `${people3.get(id)!.name_hk}：請於 ${deadline} 前填寫「${title}」。` });
      const inEnglish = (title: string) => ({ subject: `Please answer: ${title}`, text: `Dear ${nameEn}, please answer ${title} by ${deadline}.` });

      expect(await send()).toEqual({ en: inEnglish('Sports day survey'), hk: inChinese(hk, '運動會問卷'), none: inChinese(none, '運動會問卷') });

      // written in English first, its translation is the Chinese title
      await t.db.updateTable('questionnaires').set({ title: 'Sports day survey', languages: 'en,zh-hk', title_translation: '運動會問卷' }).where('id', '=', both.id).execute();
      expect(await send()).toEqual({ en: inEnglish('Sports day survey'), hk: inChinese(hk, '運動會問卷'), none: inChinese(none, '運動會問卷') });

      // the English template emptied: the English reader gets the Chinese one, with the English title and name
      data(await admin('PUT', '/v1/mail-settings', { ...base, ...chinese, reminderSubjectEn: '', reminderContentEn: '' }));
      expect(await send()).toEqual({ en: { subject: '提示：Sports day survey', text: `${nameEn}：請於 ${deadline} 前填寫「Sports day survey」。` }, hk: inChinese(hk, '運動會問卷'), none: inChinese(none, '運動會問卷') });

      // the setting the other reminders here expect
      data(await admin('PUT', '/v1/mail-settings', { ...base, reminderSubject: 'Reminder: {title}', reminderContent: 'Dear {name}, please fill in {title} by {deadline}. ({name})' }));
      smtp.received.length = 0;
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

    /** A POST over real HTTP on loopback, with headers a browser would not let a page forge. */
    function post(port: number, path: string, headers: Record<string, string>): Promise<{ status: number; body: { code: number; msg: string; data: unknown } }> {
      return new Promise((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, path, method: 'POST', headers: { ...headers, 'content-length': '0' } }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(body) }));
        });
        req.on('error', reject);
        req.end();
      });
    }
    const waitingAddresses = async (id: number) => {
      const rows = (await feedbackRows(t.db, id)).filter((r) => r.status === 'NOT_SUBMITTED');
      return (await people(rows.map((r) => r.user_id))).map((p) => p.email).filter((e): e is string => Boolean(e)).sort();
    };
    const claimOf = async (id: number) => (await t.db.selectFrom('questionnaires').select('notice_claimed_at').where('id', '=', id).executeTakeFirstOrThrow()).notice_claimed_at;

    it('links every mail to QE_PUBLIC_URL whatever Host the caller sends, and the link logs its respondent in', async () => {
      const forged = await processing(teacher, [{ kind: 'CLASS', ids: [await classId(t.db, '3A')] }], { title: 'Forged host' });
      const expected = await waitingAddresses(forged.id);
      expect(expected.length).toBeGreaterThan(0);
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as AddressInfo;
      const { tk } = await login(t.app, 'teacher01');
      smtp.received.length = 0;

      const res = await post(port, `/v1/questionnaires/${forged.id}/notice`, {
        host: 'evil.example',
        'x-forwarded-host': 'evil.example',
        'x-forwarded-proto': 'http',
        authorization: `Bearer ${tk}`,
        'accept-language': 'en',
      });
      expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: 200, data: { sent: expected.length, failed: 0 } });
      expect(smtp.received.flatMap((m) => m.to).sort()).toEqual(expected);
      for (const mail of smtp.received) {
        expect(mail.raw).not.toContain('evil.example');
        const link = parse(mail.raw).body.split('\n\n').at(-1)!;
        expect(link).toMatch(linkPattern);
        const token = new URL(link).searchParams.get('token')!;
        const quick = await t.app.inject({ method: 'POST', url: '/v1/quick-login', payload: { token } });
        expect(quick.json()).toMatchObject({ code: 200, data: { questionnaireId: forged.id } });
      }
    });

    it('mails everyone once when two notices are sent at the same moment: the second is refused (709) while the first runs', async () => {
      const twice = await processing(teacher, [{ kind: 'CLASS', ids: [await classId(t.db, '4A')] }], { title: 'Twice at once' });
      const expected = await waitingAddresses(twice.id);
      expect(expected.length).toBeGreaterThan(1);
      smtp.received.length = 0;
      // the server holds the first mail until one of the two has answered: the first is then
      // surely still sending when the second asks, whichever of them got there first
      smtp.pause();
      const both = [notice(twice), notice(twice)];
      const outcome = await Promise.race([Promise.race(both).then((first) => first), smtp.whenHolding(2).then(() => 'both are sending' as const)]);
      smtp.resume();
      expect(outcome).not.toBe('both are sending');
      expectError(outcome as Awaited<(typeof both)[number]>, 'NOTICE_IN_PROGRESS');
      const answers = await Promise.all(both);
      expect(answers.map((a) => a.json().code).sort()).toEqual([200, 709]);
      expect(data<{ sent: number }>(answers.find((a) => a.json().code === 200)!).sent).toBe(expected.length);
      expect(smtp.received.flatMap((m) => m.to).sort()).toEqual(expected);
      // the claim ends with the send: the next notice goes out
      expect(await claimOf(twice.id)).toBeNull();
      smtp.received.length = 0;
      expect(data<{ sent: number }>(await notice(twice)).sent).toBe(expected.length);
      expect(smtp.received).toHaveLength(expected.length);
    });

    it('refuses a notice while another holds the claim, but takes over a claim older than ten minutes (its instance died mid-send)', async () => {
      const stuck = await processing(teacher, [{ kind: 'CLASS', ids: [await classId(t.db, '5A')] }], { title: 'Stuck notice' });
      const expected = await waitingAddresses(stuck.id);
      const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
      const fresh = minutesAgo(1);
      await t.db.updateTable('questionnaires').set({ notice_claimed_at: fresh }).where('id', '=', stuck.id).execute();
      smtp.received.length = 0;
      expectError(await notice(stuck), 'NOTICE_IN_PROGRESS');
      const hk = await as(t, 'teacher01', 'zh-hk');
      expectError(await hk('POST', `/v1/questionnaires/${stuck.id}/notice`), 'NOTICE_IN_PROGRESS', 'zh-hk');
      expect(smtp.received).toHaveLength(0);
      expect(await claimOf(stuck.id)).toBe(fresh);
      expect(data(await teacher('GET', `/v1/questionnaires/${stuck.id}`)).lastNoticeTime).toBeNull();

      await t.db.updateTable('questionnaires').set({ notice_claimed_at: minutesAgo(11) }).where('id', '=', stuck.id).execute();
      expect(data<{ sent: number }>(await notice(stuck)).sent).toBe(expected.length);
      expect(smtp.received.flatMap((m) => m.to).sort()).toEqual(expected);
      expect(await claimOf(stuck.id)).toBeNull();
    });

    it('records nobody as notified when the SMTP server is down', async () => {
      const down = await processing(teacher, [{ kind: 'CLASS', ids: [await classId(t.db, '2A')] }], { title: 'Server down' });
      await smtp.close();
      const res = await notice(down);
      if (res.json().code === 200) {
        const n = (await feedbackRows(t.db, down.id)).length;
        const { sent, failed, noAddress } = res.json().data;
        expect({ sent, told: failed + noAddress }).toEqual({ sent: 0, told: n });
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

describe('reminders without QE_PUBLIC_URL', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof smtpServer>>;
  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0, publicUrl: undefined } });
    smtp = await smtpServer();
  });
  afterAll(async () => {
    await smtp?.close();
    await t?.close();
  });

  it('refuses to send (713 saying the administrator must set it) and sends nothing, whatever the Host', async () => {
    expect(t.config.publicUrl).toBeUndefined();
    const admin = await as(t, 'admin');
    const saved = await admin('PUT', '/v1/mail-settings', { host: '127.0.0.1', port: smtp.port, secure: false, fromAddress: 'qe@school.edu.hk', reminderSubject: 'Reminder: {title}', reminderContent: 'Dear {name}, please fill in {title}.' });
    expect(saved.json().code, saved.body).toBe(200);
    const teacher = await as(t, 'teacher01');
    const q = await processing(teacher, [{ kind: 'CLASS', ids: [await classId(t.db, '1A')] }], { title: 'No public address' });

    expectError(await teacher('POST', `/v1/questionnaires/${q.id}/notice`), 'PUBLIC_URL_REQUIRED');
    const hk = await as(t, 'teacher01', 'zh-hk');
    const refused = await hk('POST', `/v1/questionnaires/${q.id}/notice`);
    expectError(refused, 'PUBLIC_URL_REQUIRED', 'zh-hk');
    expect(refused.json().msg).toContain('QE_PUBLIC_URL');
    const withHost = await t.app.inject({ method: 'POST', url: `/v1/questionnaires/${q.id}/notice`, headers: { authorization: `Bearer ${(await login(t.app, 'teacher01')).tk}`, host: 'qe.school.edu.hk', 'accept-language': 'en' } });
    expectError(withHost, 'PUBLIC_URL_REQUIRED');

    expect(smtp.received).toHaveLength(0);
    expect(data(await teacher('GET', `/v1/questionnaires/${q.id}`)).lastNoticeTime).toBeNull();
    expect((await feedbackRows(t.db, q.id)).every((f) => f.notified_at === null)).toBe(true);
    // the test mail of the mail setting holds no link: it still goes out
    expect((await admin('POST', '/v1/mail-settings/test', { to: 'office@school.edu.hk' })).json().code).toBe(200);
    expect(smtp.received).toHaveLength(1);
  });
});
