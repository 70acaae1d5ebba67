import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMail as parse, smtpServer } from '../../support/smtp.js';
import { ERRORS, interpolate } from '../../../src/shared/errors.js';
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
      expect(res.json().msg.startsWith(interpolate(ERRORS.MAIL_FAILED.en, { reason: '' }))).toBe(true);
      expect(res.json().msg).toMatch(/ECONNREFUSED/);
      const hk = await callHk('POST', '/v1/mail-settings/test', { to: 'teacher01@school.edu.hk' });
      expect(hk.json().code).toBe(713);
      expect(hk.json().msg).toMatch(/^郵件發送失敗：.*ECONNREFUSED/);
    });
  });
});
