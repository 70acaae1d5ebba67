import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, errorText } from '../../src/shared/errors.js';
import { fieldMessage } from '../../src/shared/field-messages.js';
import { PAGES, permissionCodes } from '../../src/shared/permissions.js';
import { DEFAULT_GRANTS } from '../support/default-grants.js';
import { signToken } from '../../src/server/auth/tokens.js';
import { hasArgon2 } from '../../src/server/auth/passwords.js';
import { bearer, login, testApp, type TestApp } from './harness.js';

const PASSWORD = 'Passw0rd!';

/** Every field of the logged-in user (docs/product-rules.md#records-and-fields) except the token, which login answers. */
const USER_FIELDS = [
  'userId', 'userNo', 'username', 'nameHk', 'nameEn', 'avatar', 'identityCardId', 'identityCardType', 'email', 'googleMail',
  'tel', 'gender', 'birthday', 'userType', 'active', 'loginTime', 'permissions', 'lastLogin', 'staff_id', 'status',
  'years', 'terms', 'currentYear', 'currentTerm',
];

describe('sessions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp({ demo: true });
  });
  afterAll(async () => t?.close());

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
  const userInfo = (tk: string) => get('/v1/my/user-info', bearer(tk));
  const changePassword = (tk: string, payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/v1/change-password', headers: { ...bearer(tk), ...headers }, payload });
  const tryLogin = (username: string, password: string) => t.app.inject({ method: 'POST', url: '/v1/login', payload: { username, password } });

  describe('GET /v1/my/user-info', () => {
    it('answers every field of the logged-in user that the spec lists', async () => {
      const { tk, userId } = await login(t.app, 'teacher01');
      const res = await userInfo(tk);
      expect(res.statusCode).toBe(200);
      const { code, data } = res.json();
      expect(code).toBe(200);
      for (const field of USER_FIELDS) expect(data, field).toHaveProperty(field);
      const row = await t.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
      expect(data).toMatchObject({
        userId,
        userNo: 'T001',
        username: 'teacher01',
        nameHk: row.name_hk,
        nameEn: row.name_en,
        email: 'teacher01@demo.qe.school',
        gender: 'F',
        userType: 'TEACHER',
        active: true,
        status: '1',
        staff_id: userId,
      });
    });

    it('never answers the password hash', async () => {
      const { tk } = await login(t.app, 'teacher01');
      const res = await userInfo(tk);
      expect(res.body).not.toMatch(/password|scrypt\$|\$argon2id\$/i);
    });

    it("answers the user's permission list in the spec's shape", async () => {
      const { tk } = await login(t.app, 'teacher01');
      const { permissions } = (await userInfo(tk)).json().data;
      expect(permissions.map((p: { code: string }) => p.code)).toEqual(PAGES.map((p) => p.code));
      expect(permissionCodes(permissions).sort()).toEqual(DEFAULT_GRANTS.TEACHER);
    });

    it('answers the school calendar: the current year and its terms', async () => {
      const { tk } = await login(t.app, 'student001');
      const data = (await userInfo(tk)).json().data;
      expect(data.years).toHaveLength(1);
      expect(data.currentYear).toMatchObject({ yearStatus: '1', beginDate: expect.stringMatching(/^\d{4}-09-01$/) });
      expect(data.terms).toHaveLength(2);
      expect(data.terms.map((x: { nameEn: string }) => x.nameEn)).toEqual(['First term', 'Second term']);
      expect(data.terms).toContainEqual(data.currentTerm);
    });

    it('answers no staff id for a student', async () => {
      const { tk } = await login(t.app, 'student001');
      expect((await userInfo(tk)).json().data).toMatchObject({ userType: 'STUDENT', staff_id: null });
    });

    it('answers 401 without a token', async () => {
      const res = await get('/v1/my/user-info');
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ code: 401, msg: errorText('SESSION_EXPIRED', 'zh-hk'), data: null });
      expect((await get('/v1/my/user-info', { 'accept-language': 'en' })).json().msg).toBe(errorText('SESSION_EXPIRED', 'en'));
    });

    it('answers 401 for a garbage token or a header that is not a bearer', async () => {
      for (const authorization of ['Bearer garbage', 'Bearer a.b.c', 'Bearer ', 'Basic dGVhY2hlcjAxOlBhc3N3MHJkIQ==']) {
        const res = await get('/v1/my/user-info', { authorization });
        expect(res.statusCode, authorization).toBe(401);
        expect(res.json().code, authorization).toBe(401);
      }
    });

    it('answers 401 for a token signed with another secret', async () => {
      const { tk, userId } = await login(t.app, 'teacher01');
      const sid = JSON.parse(Buffer.from(tk.split('.')[1], 'base64url').toString()).sid;
      const forged = await signToken('not-the-server-secret', { userId, sessionId: sid }, Date.now() + 3600_000);
      expect((await userInfo(forged)).json().code).toBe(401);
    });

    it("answers 401 for a validly signed token naming another user's session or no session", async () => {
      const teacher = await login(t.app, 'teacher01');
      const admin = await login(t.app, 'admin');
      const sid = JSON.parse(Buffer.from(teacher.tk.split('.')[1], 'base64url').toString()).sid;
      const otherUser = await signToken(t.config.secret, { userId: admin.userId, sessionId: sid }, Date.now() + 3600_000);
      expect((await userInfo(otherUser)).json().code).toBe(401);
      const noSession = await signToken(t.config.secret, { userId: teacher.userId, sessionId: 'no-such-session' }, Date.now() + 3600_000);
      expect((await userInfo(noSession)).json().code).toBe(401);
    });

    it('answers 401 once the session has expired', async () => {
      const { tk, userId } = await login(t.app, 'teacher12');
      expect((await userInfo(tk)).json().code).toBe(200);
      await t.db.updateTable('sessions').set({ expires_at: Date.now() - 1000 }).where('user_id', '=', userId).execute();
      const res = await userInfo(tk);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe(401);
    });

    it('answers 444 once the account is disabled, and works again when enabled', async () => {
      const { tk, userId } = await login(t.app, 'teacher13');
      await t.db.updateTable('users').set({ active: 0 }).where('id', '=', userId).execute();
      const res = await userInfo(tk);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 444, msg: errorText('SESSION_REVOKED', 'zh-hk') });
      await t.db.updateTable('users').set({ active: 1 }).where('id', '=', userId).execute();
      expect((await userInfo(tk)).json().code).toBe(200);
    });

    it('answers 444 once a logged-in teacher is set off the job or a student leaves the school', async () => {
      const teacher = await login(t.app, 'teacher11');
      const student = await login(t.app, 'student005');
      await t.db.updateTable('users').set({ status: '0' }).where('id', '=', teacher.userId).execute();
      await t.db.updateTable('users').set({ status: '2' }).where('id', '=', student.userId).execute();
      expect((await userInfo(teacher.tk)).json().code).toBe(444);
      expect((await userInfo(student.tk)).json().code).toBe(444);
      await t.db.updateTable('users').set({ status: '1' }).where('id', 'in', [teacher.userId, student.userId]).execute();
      expect((await userInfo(teacher.tk)).json().code).toBe(200);
    });
  });

  describe('another user', () => {
    it("refuses with 405 when a userId parameter names someone else", async () => {
      const { tk } = await login(t.app, 'student004');
      const { userId: other } = await login(t.app, 'teacher01');
      for (const path of ['/v1/my/user-info', '/v1/my/action-list', '/v1/my/permissions']) {
        const res = await get(`${path}?userId=${other}`, bearer(tk));
        expect(res.statusCode, path).toBe(403);
        expect(res.json(), path).toEqual({ code: 405, msg: errorText('PERMISSION_DENIED', 'zh-hk'), data: null });
      }
    });

    it('answers when the userId parameter is my own', async () => {
      const { tk, userId } = await login(t.app, 'student004');
      for (const path of ['/v1/my/user-info', '/v1/my/action-list', `/v1/my/permissions`]) {
        expect((await get(`${path}?userId=${userId}&system=QE`, bearer(tk))).json().code, path).toBe(200);
      }
    });
  });

  describe('POST /v1/logout', () => {
    it('ends the session: the same token then answers 444', async () => {
      const { tk } = await login(t.app, 'teacher14');
      const out = await t.app.inject({ method: 'POST', url: '/v1/logout', headers: bearer(tk) });
      expect(out.json()).toMatchObject({ code: 200 });
      const res = await userInfo(tk);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ code: 444, msg: errorText('SESSION_REVOKED', 'zh-hk'), data: null });
      expect((await t.app.inject({ method: 'POST', url: '/v1/logout', headers: bearer(tk) })).json().code).toBe(444);
    });

    it("leaves the user's other sessions open", async () => {
      const a = await login(t.app, 'teacher15');
      const b = await login(t.app, 'teacher15');
      await t.app.inject({ method: 'POST', url: '/v1/logout', headers: bearer(a.tk) });
      expect((await userInfo(a.tk)).json().code).toBe(444);
      expect((await userInfo(b.tk)).json().code).toBe(200);
    });

    it('answers 401 without a token', async () => {
      expect((await t.app.inject({ method: 'POST', url: '/v1/logout' })).json().code).toBe(401);
    });
  });

  describe('POST /v1/change-password', () => {
    it('ends every session of the user; the new password logs in and the old one does not', async () => {
      const a = await login(t.app, 'teacher16');
      const b = await login(t.app, 'teacher16');
      const other = await login(t.app, 'teacher17');
      const res = await changePassword(a.tk, { oldPassword: PASSWORD, newPassword: 'N3wSecret' });
      expect(res.json()).toMatchObject({ code: 200 });
      expect((await userInfo(a.tk)).json().code).toBe(444);
      expect((await userInfo(b.tk)).json().code).toBe(444);
      expect((await userInfo(other.tk)).json().code).toBe(200);
      expect((await tryLogin('teacher16', 'N3wSecret')).json().code).toBe(200);
      expect((await tryLogin('teacher16', PASSWORD)).json().code).toBe(700);
    });

    it('stores the new password hashed, never in clear', async () => {
      const { tk, userId } = await login(t.app, 'teacher18');
      expect((await changePassword(tk, { oldPassword: PASSWORD, newPassword: 'Cl3arText' })).json().code).toBe(200);
      const row = await t.db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirstOrThrow();
      expect(row.password_hash).not.toContain('Cl3arText');
      expect(row.password_hash).toMatch(hasArgon2 ? /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/ : /^scrypt\$/);
    });

    it('refuses a wrong old password with 422 on the field oldPassword, and keeps the session', async () => {
      const { tk } = await login(t.app, 'teacher19');
      const res = await changePassword(tk, { oldPassword: 'not-my-password', newPassword: 'N3wSecret' });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ code: 422, msg: fieldMessage('oldPasswordWrong', 'zh-hk'), data: { oldPassword: fieldMessage('oldPasswordWrong', 'zh-hk') } });
      const en = await changePassword(tk, { oldPassword: 'not-my-password', newPassword: 'N3wSecret' }, { 'accept-language': 'en' });
      expect(en.json().data).toEqual({ oldPassword: fieldMessage('oldPasswordWrong', 'en') });
      expect((await userInfo(tk)).json().code).toBe(200);
      expect((await tryLogin('teacher19', PASSWORD)).json().code).toBe(200);
    });

    it('refuses a new password shorter than 6 or longer than 15 characters with 422 on newPassword', async () => {
      const { tk } = await login(t.app, 'teacher19');
      for (const [newPassword, rule, limit] of [['a'.repeat(5), 'minLength', 6], ['a'.repeat(16), 'maxLength', 15], ['  abc12  ', 'minLength', 6]] as const) {
        const res = await changePassword(tk, { oldPassword: PASSWORD, newPassword });
        expect(res.statusCode, newPassword).toBe(422);
        expect(res.json().data, newPassword).toEqual({ newPassword: fieldMessage(rule, 'zh-hk', { limit }) });
      }
      expect((await tryLogin('teacher19', PASSWORD)).json().code).toBe(200);
    });

    it('accepts a new password of exactly 6 and of exactly 15 characters', async () => {
      const six = await login(t.app, 'teacher20');
      expect((await changePassword(six.tk, { oldPassword: PASSWORD, newPassword: 'abc123' })).json().code).toBe(200);
      const fifteen = await login(t.app, 'teacher20', 'abc123');
      expect((await changePassword(fifteen.tk, { oldPassword: 'abc123', newPassword: 'abcdefghij12345' })).json().code).toBe(200);
      expect((await tryLogin('teacher20', 'abcdefghij12345')).json().code).toBe(200);
    });

    it('refuses missing fields with 422', async () => {
      const { tk } = await login(t.app, 'teacher19');
      const res = await changePassword(tk, {});
      expect(res.statusCode).toBe(422);
      expect(Object.keys(res.json().data).sort()).toEqual(['newPassword', 'oldPassword']);
    });

    it('refuses a new password equal to the old one with 711', async () => {
      const { tk } = await login(t.app, 'teacher19');
      const res = await changePassword(tk, { oldPassword: PASSWORD, newPassword: PASSWORD });
      expect(res.statusCode).toBe(ERRORS.SAME_PASSWORD.http);
      expect(res.json()).toEqual({ code: 711, msg: errorText('SAME_PASSWORD', 'zh-hk'), data: null });
      expect((await userInfo(tk)).json().code).toBe(200);
    });

    it('answers 401 without a token', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/v1/change-password', payload: { oldPassword: PASSWORD, newPassword: 'N3wSecret' } });
      expect(res.json().code).toBe(401);
    });
  });
});
