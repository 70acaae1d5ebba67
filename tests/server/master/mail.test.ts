import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.js';
import { parseMail as parse, smtpServer } from '../../support/smtp.js';
import { errorText } from '../../../src/shared/errors.js';
import { fieldMessage } from '../../../src/shared/field-messages.js';
import { login, testApp, type TestApp } from '../harness.js';
import { caller } from './helpers.js';

describe('mail setting and test mail', () => {
  let t: TestApp;
  let call: ReturnType<typeof caller>;
  let callHk: ReturnType<typeof caller>;
  let smtp: Awaited<ReturnType<typeof smtpServer>>;
  const setting = () => ({
    host: '127.0.0.1',
    port: smtp.port,
    secure: false,
    username: 'mailer',
    password: 'Sm7pS3cret',
    fromAddress: 'qe@school.edu.hk',
    fromName: 'QE Reminders',
    reminderSubject: 'Reminder: {title}',
    reminderContent: 'Dear {name}, please fill in {title} by {deadline}.',
  });

  beforeAll(async () => {
    t = await testApp({ demo: true });
    smtp = await smtpServer();
    const { tk } = await login(t.app, 'admin');
    call = caller(t.app, tk, 'en');
    callHk = caller(t.app, tk, 'zh-hk');
  });
  afterAll(async () => {
    await smtp?.close();
    await t?.close();
  });

  it('answers 404 to a test mail before the setting is saved, and 422 to a bad address', async () => {
    expect((await call('POST', '/v1/mail-settings/test', { to: 'someone@school.edu.hk' })).json().code).toBe(404);
    const bad = await call('POST', '/v1/mail-settings/test', { to: 'someone@school' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().data).toEqual({ to: fieldMessage('email', 'en') });
  });

  it('sends the reminder template with its placeholders filled, through the saved server', async () => {
    expect((await call('PUT', '/v1/mail-settings', setting())).json().code).toBe(200);
    const res = await call('POST', '/v1/mail-settings/test', { to: 'teacher01@school.edu.hk' });
    expect(res.json(), res.body).toEqual({ code: 200, msg: 'success', data: null });

    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail).toMatchObject({ from: 'qe@school.edu.hk', to: ['teacher01@school.edu.hk'], user: 'mailer' });
    expect(smtp.logins).toEqual([{ user: 'mailer', pass: 'Sm7pS3cret' }]);
    const { header, body } = parse(mail.raw);
    expect(header('Subject')).toBe('Reminder: Sample questionnaire');
    expect(header('From')).toBe('QE Reminders <qe@school.edu.hk>');
    expect(header('To')).toBe('teacher01@school.edu.hk');
    expect(body).toBe('Dear Chan Tai Man, please fill in Sample questionnaire by 2026-12-31.');
  });

  it('fills the sample in the caller’s language', async () => {
    expect((await callHk('POST', '/v1/mail-settings/test', { to: 'teacher02@school.edu.hk' })).json().code).toBe(200);
    const { body } = parse(smtp.received.at(-1)!.raw);
    expect(body).toBe('Dear 陳大文, please fill in 問卷示例 by 2026-12-31.');
    expect(body).not.toMatch(/\{(name|title|deadline)\}/);
  });

  it('sends a caller in English the English template once it is written, a caller in Chinese the Chinese one; takes both English parts or neither', async () => {
    const english = { reminderSubjectEn: 'Please answer: {title}', reminderContentEn: 'Hello {name}, please answer {title} by {deadline}.' };
    const chinese = { reminderSubject: '提示：{title}', reminderContent: '{name}：請於 {deadline} 前填寫「{title}」。' };
    const saved = await call('PUT', '/v1/mail-settings', { ...setting(), ...chinese, ...english });
    expect(saved.json().data).toMatchObject({ ...chinese, ...english });
    expect((await call('GET', '/v1/mail-settings')).json().data).toMatchObject({ ...chinese, ...english });

    expect((await call('POST', '/v1/mail-settings/test', { to: 'teacher02@school.edu.hk' })).json().code).toBe(200);
    const inEnglish = parse(smtp.received.at(-1)!.raw);
    expect(inEnglish.header('Subject')).toBe('Please answer: Sample questionnaire');
    expect(inEnglish.body).toBe('Hello Chan Tai Man, please answer Sample questionnaire by 2026-12-31.');
    expect((await callHk('POST', '/v1/mail-settings/test', { to: 'teacher02@school.edu.hk' })).json().code).toBe(200);
    expect(parse(smtp.received.at(-1)!.raw).body).toBe('陳大文：請於 2026-12-31 前填寫「問卷示例」。');

    // half an English template is refused, naming the part left out
    const half = await call('PUT', '/v1/mail-settings', { ...setting(), reminderSubjectEn: 'Please answer: {title}', reminderContentEn: '' });
    expect(half.statusCode).toBe(422);
    expect(half.json().data).toEqual({ reminderContentEn: fieldMessage('required', 'en') });
    const otherHalf = await callHk('PUT', '/v1/mail-settings', { ...setting(), reminderSubjectEn: null, reminderContentEn: 'Hello {name}' });
    expect(otherHalf.json().data).toEqual({ reminderSubjectEn: fieldMessage('required', 'zh-hk') });
    expect((await call('GET', '/v1/mail-settings')).json().data).toMatchObject(english);

    // emptied, a caller in English gets the Chinese template again
    const emptied = await call('PUT', '/v1/mail-settings', { ...setting(), reminderSubjectEn: '', reminderContentEn: '' });
    expect(emptied.json().data).toMatchObject({ reminderSubjectEn: null, reminderContentEn: null });
    expect((await call('POST', '/v1/mail-settings/test', { to: 'teacher02@school.edu.hk' })).json().code).toBe(200);
    expect(parse(smtp.received.at(-1)!.raw).header('Subject')).toBe('Reminder: Sample questionnaire');
  });

  it('keeps the stored SMTP password when the setting is saved again with an empty one, and never answers it', async () => {
    const saved = await call('PUT', '/v1/mail-settings', { ...setting(), password: '', reminderSubject: 'Please reply: {title}' });
    expect(saved.json().code).toBe(200);
    expect(saved.json().data).not.toHaveProperty('password');
    expect(saved.body).not.toContain('Sm7pS3cret');
    expect((await call('GET', '/v1/mail-settings')).body).not.toContain('Sm7pS3cret');

    smtp.logins.length = 0;
    expect((await call('POST', '/v1/mail-settings/test', { to: 'teacher03@school.edu.hk' })).json().code).toBe(200);
    expect(smtp.logins).toEqual([{ user: 'mailer', pass: 'Sm7pS3cret' }]);
    expect(parse(smtp.received.at(-1)!.raw).header('Subject')).toBe('Please reply: Sample questionnaire');

    // left out altogether, it is kept too; a new one replaces it
    const { password: _password, ...withoutPassword } = setting();
    expect((await call('PUT', '/v1/mail-settings', withoutPassword)).json().code).toBe(200);
    expect((await call('POST', '/v1/mail-settings/test', { to: 'teacher03@school.edu.hk' })).json().code).toBe(200);
    expect((await call('PUT', '/v1/mail-settings', { ...setting(), password: 'N3wS3cret' })).json().code).toBe(200);
    expect((await call('POST', '/v1/mail-settings/test', { to: 'teacher03@school.edu.hk' })).json().code).toBe(200);
    expect(smtp.logins.map((l) => l.pass)).toEqual(['Sm7pS3cret', 'Sm7pS3cret', 'N3wS3cret']);
  });

  describe('with the SMTP server down', () => {
    it('answers 713 saying why', async () => {
      await smtp.close();
      const res = await call('POST', '/v1/mail-settings/test', { to: 'teacher01@school.edu.hk' });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe(713);
      expect(res.json().msg.startsWith(errorText('MAIL_FAILED', 'en', { reason: '' }))).toBe(true);
      expect(res.json().msg).toMatch(/ECONNREFUSED/);
      const hk = await callHk('POST', '/v1/mail-settings/test', { to: 'teacher01@school.edu.hk' });
      expect(hk.json().code).toBe(713);
      expect(hk.json().msg).toMatch(/^郵件發送失敗：.*ECONNREFUSED/);
    });
  });
});

describe('mail security: the SMTP password at rest, TLS verified', () => {
  let t: TestApp;
  let call: ReturnType<typeof caller>;
  let callHk: ReturnType<typeof caller>;
  /** a relay that checks the login: only mailer / Sm7pS3cret gets in */
  let smtp: Awaited<ReturnType<typeof smtpServer>>;
  const PASSWORD = 'Sm7pS3cret';
  const setting = (port: number, extra: object = {}) => ({
    host: '127.0.0.1',
    port,
    secure: false,
    username: 'mailer',
    password: PASSWORD,
    fromAddress: 'qe@school.edu.hk',
    reminderSubject: 'Reminder: {title}',
    reminderContent: 'Dear {name}, please fill in {title} by {deadline}.',
    ...extra,
  });
  const stored = async () => (await t.db.selectFrom('mail_settings').select('password').executeTakeFirstOrThrow()).password;
  /** Another QE on the same database (a restart, or a second instance), with its own server secret. */
  async function sameDatabase(secret: string) {
    const config = { ...t.config, secret, schedulerSeconds: 0 };
    const { app } = await buildApp(config, { logger: false });
    await app.ready();
    const tk = (await login(app, 'admin')).tk;
    return { app, en: caller(app, tk, 'en'), hk: caller(app, tk, 'zh-hk') };
  }

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    smtp = await smtpServer({ users: { mailer: PASSWORD } });
    const { tk } = await login(t.app, 'admin');
    call = caller(t.app, tk, 'en');
    callHk = caller(t.app, tk, 'zh-hk');
  });
  afterAll(async () => {
    await smtp?.close();
    await t?.close();
  });

  it('stores the SMTP password encrypted (a fresh value at every save), and sending still logs in with it', async () => {
    expect((await call('PUT', '/v1/mail-settings', setting(smtp.port))).json().code).toBe(200);
    const first = await stored();
    expect(first).not.toBeNull();
    expect(first).not.toContain(PASSWORD);
    expect(first).toMatch(/^qe-sealed:v1:[\w-]+$/);
    expect(Buffer.from(first!.slice('qe-sealed:v1:'.length), 'base64url').toString('latin1')).not.toContain(PASSWORD);
    expect((await call('PUT', '/v1/mail-settings', setting(smtp.port))).json().code).toBe(200);
    const second = await stored();
    expect(second).not.toBe(first);

    expect((await call('POST', '/v1/mail-settings/test', { to: 'teacher01@school.edu.hk' })).json()).toMatchObject({ code: 200 });
    expect(smtp.received.at(-1)).toMatchObject({ to: ['teacher01@school.edu.hk'], user: 'mailer' });
    expect((await call('GET', '/v1/mail-settings')).body).not.toContain('qe-sealed');
  });

  it('encrypts a readable password left from before when QE starts, and one written meanwhile when it is next read', async () => {
    await t.db.updateTable('mail_settings').set({ password: PASSWORD }).execute();
    const restarted = await sameDatabase(t.config.secret);
    try {
      const sealed = await stored();
      expect(sealed).toMatch(/^qe-sealed:v1:/);
      expect(sealed).not.toContain(PASSWORD);
      // starting again leaves a sealed one as it is
      const again = await sameDatabase(t.config.secret);
      await again.app.close();
      expect(await stored()).toBe(sealed);
      expect((await restarted.en('POST', '/v1/mail-settings/test', { to: 'teacher02@school.edu.hk' })).json().code).toBe(200);
      expect(smtp.received.at(-1)).toMatchObject({ to: ['teacher02@school.edu.hk'], user: 'mailer' });
    } finally {
      await restarted.app.close();
    }

    // written readable by an instance not yet upgraded: sealed when it is read to send
    await t.db.updateTable('mail_settings').set({ password: PASSWORD }).execute();
    expect((await call('POST', '/v1/mail-settings/test', { to: 'teacher03@school.edu.hk' })).json().code).toBe(200);
    expect(smtp.received.at(-1)).toMatchObject({ to: ['teacher03@school.edu.hk'], user: 'mailer' });
    expect(await stored()).toMatch(/^qe-sealed:v1:/);
  });

  it('answers 713 saying to re-enter the SMTP password when the server secret has changed, never a 500; re-entering it mends it', async () => {
    const moved = await sameDatabase('another-secret-than-the-one-that-sealed-it');
    try {
      const count = smtp.received.length;
      const en = await moved.en('POST', '/v1/mail-settings/test', { to: 'teacher01@school.edu.hk' });
      expect(en.statusCode).toBe(400);
      expect(en.json()).toEqual({ code: 713, msg: errorText('MAIL_PASSWORD_UNREADABLE', 'en'), data: null });
      expect(en.json().msg).toMatch(/re-enter the SMTP password in the mail setting/);
      const hk = await moved.hk('POST', '/v1/mail-settings/test', { to: 'teacher01@school.edu.hk' });
      expect(hk.json()).toEqual({ code: 713, msg: errorText('MAIL_PASSWORD_UNREADABLE', 'zh-hk'), data: null });
      expect(smtp.received).toHaveLength(count);

      expect((await moved.en('PUT', '/v1/mail-settings', setting(smtp.port))).json().code).toBe(200);
      expect((await moved.en('POST', '/v1/mail-settings/test', { to: 'teacher01@school.edu.hk' })).json().code).toBe(200);
      expect(smtp.received).toHaveLength(count + 1);
    } finally {
      await moved.app.close();
    }
  });

  it('is refused by the relay with a wrong password (the relay really checks it)', async () => {
    expect((await call('PUT', '/v1/mail-settings', setting(smtp.port, { password: 'Wr0ngPass' }))).json().code).toBe(200);
    const res = await call('POST', '/v1/mail-settings/test', { to: 'teacher01@school.edu.hk' });
    expect(res.json().code).toBe(713);
    expect(res.json().msg).toMatch(/535/);
    expect((await call('PUT', '/v1/mail-settings', setting(smtp.port))).json().code).toBe(200);
  });

  describe.each(['starttls', 'implicit'] as const)('a relay with a self-signed certificate (%s)', (tls) => {
    let relay: Awaited<ReturnType<typeof smtpServer>>;
    beforeAll(async () => {
      relay = await smtpServer({ tls, users: { mailer: PASSWORD } });
    });
    afterAll(async () => relay?.close());

    it('is refused by default with a reason that says what to do, and nothing is sent', async () => {
      const saved = await call('PUT', '/v1/mail-settings', setting(relay.port, { secure: tls === 'implicit' }));
      expect(saved.json().data).toMatchObject({ allowUntrustedCertificate: false });
      const en = await call('POST', '/v1/mail-settings/test', { to: 'teacher01@school.edu.hk' });
      expect(en.statusCode).toBe(400);
      expect(en.json().code).toBe(713);
      expect(en.json().msg).toBe(errorText('MAIL_CERTIFICATE_UNTRUSTED', 'en', { reason: 'self-signed certificate' }));
      const hk = await callHk('POST', '/v1/mail-settings/test', { to: 'teacher01@school.edu.hk' });
      expect(hk.json().msg).toBe(errorText('MAIL_CERTIFICATE_UNTRUSTED', 'zh-hk', { reason: 'self-signed certificate' }));
      expect(relay.received).toHaveLength(0);
      expect(relay.logins).toHaveLength(0);
    });

    it('delivers, logged in, once the setting allows an untrusted certificate; turned off, refuses again', async () => {
      const saved = await call('PUT', '/v1/mail-settings', setting(relay.port, { secure: tls === 'implicit', allowUntrustedCertificate: true }));
      expect(saved.json().data).toMatchObject({ allowUntrustedCertificate: true });
      expect((await call('GET', '/v1/mail-settings')).json().data).toMatchObject({ allowUntrustedCertificate: true });
      expect((await call('POST', '/v1/mail-settings/test', { to: 'teacher04@school.edu.hk' })).json()).toMatchObject({ code: 200 });
      expect(relay.received).toHaveLength(1);
      expect(relay.received[0]).toMatchObject({ to: ['teacher04@school.edu.hk'], user: 'mailer' });

      expect((await call('PUT', '/v1/mail-settings', setting(relay.port, { secure: tls === 'implicit', allowUntrustedCertificate: false }))).json().code).toBe(200);
      expect((await call('POST', '/v1/mail-settings/test', { to: 'teacher04@school.edu.hk' })).json().code).toBe(713);
      expect(relay.received).toHaveLength(1);
    });
  });
});
