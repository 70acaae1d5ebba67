import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, errorText } from '../../src/shared/errors.js';
import { fieldMessage } from '../../src/shared/field-messages.js';
import { bearer, login, testApp, type TestApp } from './harness.js';

const PASSWORD = 'Passw0rd!';
const MAX_FAILURES = 3;

describe('POST /v1/login', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp({ demo: true, config: { loginMaxFailures: MAX_FAILURES } });
  });
  afterAll(async () => t?.close());

  const post = (payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/v1/login', payload: payload as object, headers });
  const userId = async (username: string) =>
    (await t.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;

  it('answers the token (tk) and the user id, in a success envelope', async () => {
    const res = await post({ username: 'teacher01', password: PASSWORD });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ code: 200, data: { userId: await userId('teacher01') } });
    expect(typeof body.msg).toBe('string');
    expect(body.data.tk.split('.')).toHaveLength(3);
  });

  it("answers a token whose jti claim is the user's id (the client compares them)", async () => {
    const { tk, userId: id } = await login(t.app, 'teacher02');
    const claims = JSON.parse(Buffer.from(tk.split('.')[1], 'base64url').toString('utf8'));
    expect(claims.jti).toBe(String(id));
  });

  it('answers a token that works for the next calls', async () => {
    const { tk, userId: id } = await login(t.app, 'student001');
    const res = await t.app.inject({ method: 'GET', url: '/v1/my/user-info', headers: bearer(tk) });
    expect(res.json()).toMatchObject({ code: 200, data: { userId: id, username: 'student001' } });
  });

  it('trims the username and the password', async () => {
    const res = await post({ username: '  teacher01 ', password: ` ${PASSWORD}\t` });
    expect(res.json()).toMatchObject({ code: 200, data: { userId: await userId('teacher01') } });
  });

  it('refuses a wrong password with 700 and the zh-hk text by default', async () => {
    const res = await post({ username: 'teacher03', password: 'wrong-password' });
    expect(res.statusCode).toBe(ERRORS.LOGIN_FAILED.http);
    expect(res.json()).toEqual({ code: 700, msg: errorText('LOGIN_FAILED', 'zh-hk'), data: null });
  });

  it('answers the English text when the caller asks for en', async () => {
    const res = await post({ username: 'teacher03', password: 'wrong-password' }, { 'accept-language': 'en' });
    expect(res.json()).toEqual({ code: 700, msg: errorText('LOGIN_FAILED', 'en'), data: null });
  });

  it('answers zh-hk for zh-HK and for a language it does not have', async () => {
    for (const lang of ['zh-HK', 'fr']) {
      const res = await post({ username: 'teacher04', password: 'wrong-password' }, { 'accept-language': lang });
      expect(res.json().msg, lang).toBe(errorText('LOGIN_FAILED', 'zh-hk'));
    }
    // teacher03 and teacher04 are now close to their limit: clear it so no other test depends on the order
    await t.db.deleteFrom('login_failures').execute();
  });

  it('refuses an unknown user exactly like a wrong password', async () => {
    const unknown = await post({ username: 'nobody-here', password: PASSWORD });
    const wrong = await post({ username: 'teacher04', password: 'wrong-password' });
    expect(unknown.statusCode).toBe(wrong.statusCode);
    expect(unknown.json()).toEqual(wrong.json());
    expect(unknown.json()).toEqual({ code: 700, msg: errorText('LOGIN_FAILED', 'zh-hk'), data: null });
  });

  it('answers 422 with field errors when a field is missing', async () => {
    const res = await post({ username: 'teacher01' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 422, data: { password: fieldMessage('required', 'zh-hk') } });

    const both = (await post({}, { 'accept-language': 'en' })).json();
    expect(both.code).toBe(422);
    expect(both.data).toEqual({ username: fieldMessage('required', 'en'), password: fieldMessage('required', 'en') });
    expect(both.msg).toContain(fieldMessage('required', 'en'));
  });

  it('answers 422 for a username of spaces only (empty once trimmed)', async () => {
    const res = await post({ username: '   ', password: PASSWORD });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().data)).toEqual(['username']);
  });

  it('answers 422 for a field of the wrong type and for an unknown field', async () => {
    expect((await post({ username: { name: 'teacher01' }, password: PASSWORD })).json()).toMatchObject({ code: 422, data: { username: fieldMessage('type', 'zh-hk') } });
    expect((await post({ username: 'teacher01', password: PASSWORD, remember: true })).json()).toMatchObject({ code: 422, data: { remember: expect.any(String) } });
  });

  describe('after too many failed tries', () => {
    it(`refuses the next try, even with the right password, with 702 and the minutes to wait`, async () => {
      for (let i = 0; i < MAX_FAILURES; i++) {
        expect((await post({ username: 'teacher05', password: `wrong-${i}` })).json().code).toBe(700);
      }
      const res = await post({ username: 'teacher05', password: PASSWORD });
      expect(res.statusCode).toBe(ERRORS.LOGIN_RATE_LIMITED.http);
      const minutes = t.config.loginWindowMinutes;
      expect(res.json()).toEqual({ code: 702, msg: errorText('LOGIN_RATE_LIMITED', 'zh-hk', { minutes }), data: null });
      const en = await post({ username: 'teacher05', password: PASSWORD }, { 'accept-language': 'en' });
      expect(en.json().msg).toBe(errorText('LOGIN_RATE_LIMITED', 'en', { minutes }));
      expect(en.json().msg).not.toContain('%{');
    });

    it('counts the account whatever the case of the name typed', async () => {
      expect((await post({ username: 'TEACHER05', password: PASSWORD })).json().code).toBe(702);
    });

    it('leaves other accounts free', async () => {
      expect((await post({ username: 'teacher06', password: PASSWORD })).json().code).toBe(200);
    });

    it('lets the account in again once the window has passed', async () => {
      const windowMs = t.config.loginWindowMinutes * 60_000;
      await t.db.updateTable('login_failures').set({ window_start: Date.now() - windowMs - 1000 }).where('key', '=', 'account:teacher05').execute();
      expect((await post({ username: 'teacher05', password: PASSWORD })).json().code).toBe(200);
    });

    it('starts counting afresh after a successful login', async () => {
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < MAX_FAILURES - 1; i++) {
          expect((await post({ username: 'teacher09', password: 'wrong-password' })).json().code).toBe(700);
        }
        expect((await post({ username: 'teacher09', password: PASSWORD })).json().code, `round ${round}`).toBe(200);
      }
    });
  });

  describe('a disabled account', () => {
    it('is refused with 701 when users.active is 0', async () => {
      await t.db.updateTable('users').set({ active: 0 }).where('username', '=', 'teacher07').execute();
      const res = await post({ username: 'teacher07', password: PASSWORD });
      expect(res.statusCode).toBe(ERRORS.ACCOUNT_DISABLED.http);
      expect(res.json()).toEqual({ code: 701, msg: errorText('ACCOUNT_DISABLED', 'zh-hk'), data: null });
      expect((await post({ username: 'teacher07', password: PASSWORD }, { 'accept-language': 'en' })).json().msg).toBe(errorText('ACCOUNT_DISABLED', 'en'));
    });

    it('still answers 700 for a wrong password, so a guess learns nothing', async () => {
      expect((await post({ username: 'teacher07', password: 'wrong-password' })).json().code).toBe(700);
    });

    it('is refused with 701 for a teacher off the job', async () => {
      await t.db.updateTable('users').set({ status: '0' }).where('username', '=', 'teacher08').execute();
      expect((await post({ username: 'teacher08', password: PASSWORD })).json().code).toBe(701);
    });

    it('is refused with 701 for a student who has left the school', async () => {
      await t.db.updateTable('users').set({ status: '2' }).where('username', '=', 'student002').execute();
      await t.db.updateTable('users').set({ status: '3' }).where('username', '=', 'student003').execute();
      expect((await post({ username: 'student002', password: PASSWORD })).json().code).toBe(701);
      expect((await post({ username: 'student003', password: PASSWORD })).json().code).toBe(701);
    });

    it('logs in again once enabled', async () => {
      await t.db.updateTable('users').set({ active: 1 }).where('username', '=', 'teacher07').execute();
      expect((await post({ username: 'teacher07', password: PASSWORD })).json().code).toBe(200);
    });
  });

  it('records the login time, and the previous one as the last login', async () => {
    const before = await t.db.selectFrom('users').select(['login_time', 'last_login']).where('username', '=', 'teacher10').executeTakeFirstOrThrow();
    expect(before).toEqual({ login_time: null, last_login: null });

    const start = Date.now();
    await login(t.app, 'teacher10');
    const first = await t.db.selectFrom('users').select(['login_time', 'last_login']).where('username', '=', 'teacher10').executeTakeFirstOrThrow();
    expect(first.last_login).toBeNull();
    expect(Date.parse(first.login_time!)).toBeGreaterThanOrEqual(start - 1000);
    expect(Date.parse(first.login_time!)).toBeLessThanOrEqual(Date.now() + 1000);

    await new Promise((r) => setTimeout(r, 5));
    const { tk } = await login(t.app, 'teacher10');
    const second = await t.db.selectFrom('users').select(['login_time', 'last_login']).where('username', '=', 'teacher10').executeTakeFirstOrThrow();
    expect(second.last_login).toBe(first.login_time);
    expect(second.login_time! > first.login_time!).toBe(true);

    const info = (await t.app.inject({ method: 'GET', url: '/v1/my/user-info', headers: bearer(tk) })).json().data;
    expect(info).toMatchObject({ loginTime: second.login_time, lastLogin: first.login_time });
  });

  it('does not record a login time for a failed try', async () => {
    await post({ username: 'teacher11', password: 'wrong-password' });
    const row = await t.db.selectFrom('users').select(['login_time']).where('username', '=', 'teacher11').executeTakeFirstOrThrow();
    expect(row.login_time).toBeNull();
  });
});

describe('POST /v1/login from an address that keeps failing', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp({ demo: true, config: { loginMaxFailures: 100, loginMaxFailuresPerAddress: 3 } });
  });
  afterAll(async () => t?.close());

  it('refuses every account from that address with 702, while a good login does not reopen it', async () => {
    const post = (username: string, password: string) => t.app.inject({ method: 'POST', url: '/v1/login', payload: { username, password } });
    expect((await post('teacher01', 'wrong-password')).json().code).toBe(700);
    expect((await post('nobody', 'wrong-password')).json().code).toBe(700);
    expect((await post('teacher02', PASSWORD)).json().code).toBe(200);
    expect((await post('student001', 'wrong-password')).json().code).toBe(700);
    const res = await post('teacher03', PASSWORD);
    expect(res.json()).toMatchObject({ code: 702 });
  });
});
