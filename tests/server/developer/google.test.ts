import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAuth2Server } from 'oauth2-mock-server';
import { bearer, login, testApp, type TestApp } from '../harness.js';

// The whole binding flow against a real OAuth server on loopback (oauth2-mock-server).
describe('Google account binding', () => {
  let oauth: OAuth2Server;
  let t: TestApp;
  let issuer: string;
  let email = 'teacher15.google@example.com';

  beforeAll(async () => {
    oauth = new OAuth2Server();
    await oauth.issuer.keys.generate('RS256');
    await oauth.start(0, '127.0.0.1');
    issuer = oauth.issuer.url!;
    oauth.service.on('beforeUserinfo', (response) => {
      response.body = { sub: 'google-user', email, email_verified: true };
    });
    t = await testApp({
      demo: true,
      config: {
        schedulerSeconds: 0,
        publicUrl: 'http://qe.test',
        google: { clientId: 'qe-client', clientSecret: 'qe-secret', authUrl: `${issuer}/authorize`, tokenUrl: `${issuer}/token`, userInfoUrl: `${issuer}/userinfo` },
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await oauth?.stop();
  });

  /** What the popup does: open the link, follow the provider to /google-callback, read code and state there. */
  async function signIn(link: string) {
    const res = await fetch(link, { redirect: 'manual' });
    const location = new URL(res.headers.get('location')!);
    expect(location.origin + location.pathname).toBe('http://qe.test/qe/google-callback');
    return { code: location.searchParams.get('code')!, state: location.searchParams.get('state')! };
  }

  it('binds the account whose sign-in returned the code; the teacher can then create a questionnaire', async () => {
    // the school requires a bound account (a setting that needs Google configured, as here)
    const admin = await login(t.app, 'admin');
    const school = (await t.app.inject({ method: 'GET', url: '/v1/school', headers: bearer(admin.tk) })).json().data;
    const on = await t.app.inject({ method: 'PUT', url: '/v1/school', headers: bearer(admin.tk), payload: { nameHk: school.nameHk, nameEn: school.nameEn, languageList: school.languageList, googleRequired: true } });
    expect(on.json()).toMatchObject({ code: 200, data: { googleRequired: true, googleConfigured: true } });
    const { tk } = await login(t.app, 'teacher15');
    const before = await t.app.inject({ method: 'POST', url: '/v1/questionnaires', headers: bearer(tk), payload: { title: 'Before binding' } });
    expect(before.json().code).toBe(710);

    const url = await t.app.inject({ method: 'GET', url: '/v1/google/actions/auth-url', headers: bearer(tk) });
    expect(url.json().code).toBe(200);
    expect(url.json().data.googleMail).toBeNull();
    const link = new URL(url.json().data.link);
    expect(link.origin + link.pathname).toBe(`${issuer}/authorize`);
    expect(link.searchParams.get('client_id')).toBe('qe-client');

    const { code, state } = await signIn(link.toString());
    const bind = await t.app.inject({ method: 'POST', url: '/v1/google/actions/bind', headers: bearer(tk), payload: { code, state } });
    expect(bind.json()).toMatchObject({ code: 200, data: { googleMail: email } });
    const info = await t.app.inject({ method: 'GET', url: '/v1/my/user-info', headers: bearer(tk) });
    expect(info.json().data.googleMail).toBe(email);

    const after = await t.app.inject({ method: 'POST', url: '/v1/questionnaires', headers: bearer(tk), payload: { title: 'After binding' } });
    expect(after.json().code).toBe(201);
  });

  it("refuses a state signed for someone else, and a code the provider does not know", async () => {
    const first = await login(t.app, 'teacher16');
    const second = await login(t.app, 'teacher17');
    const link = (await t.app.inject({ method: 'GET', url: '/v1/google/actions/auth-url', headers: bearer(first.tk) })).json().data.link;
    const { code, state } = await signIn(link);
    const stolen = await t.app.inject({ method: 'POST', url: '/v1/google/actions/bind', headers: bearer(second.tk), payload: { code, state } });
    expect(stolen.json().code).toBe(717);
    oauth.service.once('beforeResponse', (response) => {
      response.statusCode = 400;
      response.body = { error: 'invalid_grant' };
    });
    const bad = await t.app.inject({ method: 'POST', url: '/v1/google/actions/bind', headers: bearer(first.tk), payload: { code: 'not-a-code' } });
    expect(bad.json().code).toBe(717);
    const info = await t.app.inject({ method: 'GET', url: '/v1/my/user-info', headers: bearer(second.tk) });
    expect(info.json().data.googleMail).toBeNull();
  });

  it('lets an admin clear a binding, and refuses a student', async () => {
    email = 'teacher18.google@example.com';
    const teacher = await login(t.app, 'teacher18');
    const link = (await t.app.inject({ method: 'GET', url: '/v1/google/actions/auth-url', headers: bearer(teacher.tk) })).json().data.link;
    await t.app.inject({ method: 'POST', url: '/v1/google/actions/bind', headers: bearer(teacher.tk), payload: await signIn(link) });
    const student = await login(t.app, 'student001');
    expect((await t.app.inject({ method: 'GET', url: '/v1/google/actions/auth-url', headers: bearer(student.tk) })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/google/bindings/${teacher.userId}`, headers: bearer(student.tk) })).statusCode).toBe(403);
    const admin = await login(t.app, 'admin');
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/google/bindings/${teacher.userId}`, headers: bearer(admin.tk) })).json().code).toBe(200);
    const info = await t.app.inject({ method: 'GET', url: '/v1/my/user-info', headers: bearer(teacher.tk) });
    expect(info.json().data.googleMail).toBeNull();
  });
});
