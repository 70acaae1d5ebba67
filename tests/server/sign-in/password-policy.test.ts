import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login, testApp, type TestApp } from '../harness.js';
import { providerBody, startIssuer, type Issuer } from '../../support/oidc-issuer.js';
import { SIGN_IN_ANSWERS } from '../../../src/shared/calls/sign-in.js';
import { bearer, call, CALLBACK, data, fits, message, refused, signIn, signInConfig } from './helpers.js';

/**
 * The password login per user type: turned off for a type that an enabled provider signs in, a
 * right password is refused with words that point to the school's sign-in (a wrong one is still
 * just wrong); the super administrator always keeps it, and no change leaves a type without both.
 */
describe('password login per user type', () => {
  let t: TestApp;
  let idp: Issuer;
  let su: Record<string, string>;
  let pupils: number;
  const password = (username: string, pw = 'Passw0rd!', lang = 'en') => call(t.app, 'POST', '/v1/login', { username, password: pw }, { 'accept-language': lang });
  const policy = (body: Record<string, boolean>) => call(t.app, 'PUT', '/v1/sign-in/password-policy', body, su);
  const provider = (id: number, changes: Record<string, unknown>) => call(t.app, 'PUT', `/v1/identity-providers/${id}`, providerBody(idp, { secret: undefined, ...changes }), su);

  beforeAll(async () => {
    idp = await startIssuer({ redirectUris: [CALLBACK], accounts: { amy: { email: 'amy@school.edu.hk', email_verified: true } } });
    t = await testApp({ demo: true, config: signInConfig() });
    su = bearer((await login(t.app, 'superadmin')).tk);
    await t.db.updateTable('users').set({ school_account: 'amy@school.edu.hk' }).where('username', '=', 'student001').execute();
  });
  afterAll(async () => {
    await t?.close();
    await idp?.close();
  });

  it('allows every password login at first, and refuses to turn one off that no enabled provider replaces (779)', async () => {
    const read = await call(t.app, 'GET', '/v1/sign-in/password-policy', undefined, su);
    fits(read, SIGN_IN_ANSWERS.passwordPolicy[200]);
    expect(data(read)).toEqual({ ADMIN: true, TEACHER: true, STUDENT: true });
    expect(refused(await policy({ ADMIN: true, TEACHER: false, STUDENT: false }), 'PASSWORD_POLICY_NO_PROVIDER')).toBe(message('PASSWORD_POLICY_NO_PROVIDER', { userTypes: 'Teacher, Student' }));
    const off = data<{ id: number }>(await call(t.app, 'POST', '/v1/identity-providers', providerBody(idp, { roles: ['STUDENT'], enabled: false }), su));
    refused(await policy({ ADMIN: true, TEACHER: true, STUDENT: false }), 'PASSWORD_POLICY_NO_PROVIDER');
    await call(t.app, 'DELETE', `/v1/identity-providers/${off.id}`, undefined, su);
  });

  it('refuses a pupil’s right password once pupils sign in with the school account — after checking it — and lets staff and the super administrator in', async () => {
    pupils = data<{ id: number }>(await call(t.app, 'POST', '/v1/identity-providers', providerBody(idp, { roles: ['STUDENT'] }), su)).id;
    expect(data(await policy({ ADMIN: true, TEACHER: true, STUDENT: false }))).toEqual({ ADMIN: true, TEACHER: true, STUDENT: false });
    refused(await password('student001', 'wrong-password'), 'LOGIN_FAILED');
    expect(refused(await password('student001'), 'PASSWORD_LOGIN_OFF')).toBe('Student accounts sign in with the school account, not with a password: choose School account on the login page');
    expect((await password('student001', 'Passw0rd!', 'zh-HK')).json().msg).toBe('「學生」帳戶須以學校帳戶登入，不可使用密碼：請在登入頁面選擇「學校帳戶」');
    for (const staff of ['admin', 'teacher01', 'superadmin']) expect((await password(staff)).json().code, staff).toBe(200);
    // the school's sign-in works for the pupil
    expect(data<{ purpose: string }>(await signIn(t.app, idp, pupils, 'amy')).purpose).toBe('sign-in');
  });

  it('keeps the provider pupils rely on: not disabled, narrowed or deleted while their password login is off', async () => {
    refused(await provider(pupils, { roles: ['STUDENT'], enabled: false }), 'PASSWORD_POLICY_NO_PROVIDER');
    refused(await provider(pupils, { roles: ['TEACHER'] }), 'PASSWORD_POLICY_NO_PROVIDER');
    refused(await call(t.app, 'DELETE', `/v1/identity-providers/${pupils}`, undefined, su), 'PASSWORD_POLICY_NO_PROVIDER');
    // another provider takes the pupils over: the first may go
    const other = data<{ id: number }>(await call(t.app, 'POST', '/v1/identity-providers', providerBody(idp, { roles: ['STUDENT', 'TEACHER'], nameEn: 'Other' }), su));
    expect(data<{ enabled: boolean }>(await provider(pupils, { roles: ['STUDENT'], enabled: false })).enabled).toBe(false);
    expect(refused(await password('student001'), 'PASSWORD_LOGIN_OFF')).toContain('choose Other on the login page');
    // allowed again: the password works again
    await policy({ ADMIN: true, TEACHER: true, STUDENT: true });
    expect((await password('student001')).json().code).toBe(200);
    await call(t.app, 'DELETE', `/v1/identity-providers/${other.id}`, undefined, su);
  });
});
