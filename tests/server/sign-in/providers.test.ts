import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seal } from '../../../src/server/mail/secret.js';
import { login, testApp, type TestApp } from '../harness.js';
import { browserKey, closedPort, providerBody, startIssuer, type Issuer } from '../../support/oidc-issuer.js';
import { SIGN_IN_ANSWERS } from '../../../src/shared/calls/sign-in.js';
import { bearer, call, CALLBACK, complete, data, fits, refused, signIn, signInConfig, start } from './helpers.js';

const TENANT = '6f1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

interface Provider {
  id: number;
  kind: string;
  issuer: string;
  tenant: string | null;
  secretSource: string;
  secretEnv: string | null;
  domains: string[];
  enabled: boolean;
  redirectUri: string;
  links: number;
}

interface Report {
  ok: boolean;
  steps: { step: string; ok: boolean; detail: string }[];
  claims: { subject: string; email: string | null; emailVerified: boolean; name: string | null } | null;
  account: { userId: number; nameEn: string; userType: string } | null;
}

/**
 * The providers' settings (the super administrator's), the test of a provider, and the three
 * kinds against real providers on loopback: a generic issuer (its client authenticating in the
 * body, or in the Authorization header), one at a Microsoft-shaped issuer (/{tenant}/v2.0) and one
 * standing in for Google's.
 */
describe('identity providers', () => {
  let t: TestApp;
  let idp: Issuer;
  let basic: Issuer;
  let entra: Issuer;
  let google: Issuer;
  let su: Record<string, string>;
  const id = async (username: string) => (await t.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;
  const create = async (body: Record<string, unknown>) => {
    const res = await call(t.app, 'POST', '/v1/identity-providers', body, su);
    fits(res, SIGN_IN_ANSWERS.provider[200]);
    return data<Provider>(res);
  };

  beforeAll(async () => {
    [idp, basic, entra, google] = await Promise.all([
      startIssuer({ redirectUris: [CALLBACK], accounts: { tom: { email: 'tom@school.edu.hk', email_verified: true, name: 'Tom Lee' }, outsider: { email: 'out@other.org', email_verified: true } } }),
      startIssuer({ redirectUris: [CALLBACK], clientAuth: 'client_secret_basic', clientSecret: 'a secret/with+odd chars&=', accounts: { tom: { email: 'tom@school.edu.hk', email_verified: true } } }),
      startIssuer({ redirectUris: [CALLBACK], path: `/${TENANT}/v2.0`, aliases: ['/school.edu.hk/v2.0'], accounts: { mei: { preferred_username: 'Mei@School.edu.hk', name: 'Mei', tid: TENANT } } }),
      startIssuer({ redirectUris: [CALLBACK], accounts: { kit: { email: 'kit@school.edu.hk', email_verified: true, hd: 'school.edu.hk' }, gmail: { email: 'kit.personal@gmail.com', email_verified: true } } }),
    ]);
    t = await testApp({ demo: true, config: signInConfig({ microsoftAuthority: entra.origin, googleIssuer: google.issuer }) });
    su = bearer((await login(t.app, 'superadmin')).tk);
    await t.db.updateTable('users').set({ school_account: 'tom@school.edu.hk' }).where('username', '=', 'teacher01').execute();
    await t.db.updateTable('users').set({ school_account: 'mei@school.edu.hk' }).where('username', '=', 'teacher02').execute();
    await t.db.updateTable('users').set({ school_account: 'kit@school.edu.hk', google_mail: null }).where('username', '=', 'teacher03').execute();
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([idp, basic, entra, google].map((i) => i?.close()));
    delete process.env.QE_TEST_IDP_SECRET;
  });

  describe('settings', () => {
    it('are changed by a super administrator only — an administrator given sign-in.edit may read them, not add, change or delete one, nor turn password logins off (780)', async () => {
      const created = await create(providerBody(idp, { roles: ['SUPER_ADMIN'] }));
      const role = await t.db.selectFrom('roles').select('id').where('user_type', '=', 'ADMIN').where('is_default', '=', 1).executeTakeFirstOrThrow();
      const edit = await t.db.selectFrom('actions as a').innerJoin('menus as m', 'm.id', 'a.menu_id').where('m.code', '=', 'sign-in').select(['a.id', 'a.code']).execute();
      for (const a of edit) await t.db.insertInto('role_actions').values({ role_id: role.id, action_id: a.id }).execute();
      try {
        const admin = bearer((await login(t.app, 'admin')).tk);
        const listed = await call(t.app, 'GET', '/v1/identity-providers', undefined, admin);
        expect(listed.statusCode, listed.body).toBe(200);
        const attempts = [
          call(t.app, 'POST', '/v1/identity-providers', providerBody(idp, { roles: ['SUPER_ADMIN'], domains: ['evil.example'] }), admin),
          call(t.app, 'PUT', `/v1/identity-providers/${created.id}`, providerBody(idp, { roles: ['SUPER_ADMIN', 'ADMIN'] }), admin),
          call(t.app, 'DELETE', `/v1/identity-providers/${created.id}`, undefined, admin),
          call(t.app, 'PUT', '/v1/sign-in/password-policy', { ADMIN: true, TEACHER: true, STUDENT: false }, admin),
        ];
        for (const res of await Promise.all(attempts)) refused(res, 'SIGN_IN_SUPER_ADMIN_ONLY');
        const after = await t.db.selectFrom('identity_providers').select(['id', 'roles', 'domains']).execute();
        expect(after.filter((r) => r.id === created.id).map((r) => [r.roles, r.domains])).toEqual([[JSON.stringify(['SUPER_ADMIN']), JSON.stringify(['school.edu.hk'])]]);
        expect(after.some((r) => r.domains.includes('evil.example'))).toBe(false);
      } finally {
        await t.db.deleteFrom('role_actions').where('role_id', '=', role.id).where('action_id', 'in', edit.map((a) => a.id)).execute();
        refused(await call(t.app, 'DELETE', `/v1/identity-providers/${created.id}`, undefined, bearer((await login(t.app, 'admin')).tk)), 'PERMISSION_DENIED');
        expect((await call(t.app, 'DELETE', `/v1/identity-providers/${created.id}`, undefined, su)).statusCode).toBe(200);
      }
    });

    it('keeps the secret sealed and never answers it; an edit without one keeps it; an environment variable instead', async () => {
      const created = await create(providerBody(idp, { seq: 5 }));
      expect(created).toMatchObject({ kind: 'oidc', issuer: idp.issuer, secretSource: 'stored', secretEnv: null, redirectUri: CALLBACK, links: 0, domains: ['school.edu.hk'] });
      expect(JSON.stringify(created)).not.toContain(idp.clientSecret);
      const row = await t.db.selectFrom('identity_providers').select('secret').where('id', '=', created.id).executeTakeFirstOrThrow();
      expect(row.secret).toMatch(/^qe-sealed:v1:/);
      expect(row.secret).not.toContain(idp.clientSecret);
      const listed = await call(t.app, 'GET', '/v1/identity-providers', undefined, su);
      fits(listed, SIGN_IN_ANSWERS.providers[200]);
      expect(listed.body).not.toContain(idp.clientSecret);
      expect(listed.body).not.toContain(row.secret);

      const renamed = data<Provider>(await call(t.app, 'PUT', `/v1/identity-providers/${created.id}`, providerBody(idp, { nameEn: 'Staff account', secret: undefined, domains: ['School.EDU.hk'] }), su));
      expect(renamed).toMatchObject({ secretSource: 'stored', domains: ['school.edu.hk'] });
      expect((await t.db.selectFrom('identity_providers').select('secret').where('id', '=', created.id).executeTakeFirstOrThrow()).secret).toBe(row.secret);
      expect(data<{ userId: number }>(await signIn(t.app, idp, created.id, 'tom')).userId).toBe(await id('teacher01'));

      const unset = await call(t.app, 'PUT', `/v1/identity-providers/${created.id}`, providerBody(idp, { secret: undefined, secretEnv: 'QE_TEST_IDP_SECRET' }), su);
      expect(unset.statusCode).toBe(422);
      expect(unset.json().data).toEqual({ secretEnv: 'The environment variable QE_TEST_IDP_SECRET is not set on this server: set it on every instance, then save again' });
      await call(t.app, 'DELETE', `/v1/identity-providers/${created.id}`, undefined, su);
    });

    it('refuses what cannot work, field by field (422)', async () => {
      const fields = async (body: Record<string, unknown>) => {
        const res = await call(t.app, 'POST', '/v1/identity-providers', body, su);
        expect(res.statusCode, res.body).toBe(422);
        return Object.keys(res.json().data).sort();
      };
      for (const tenant of ['common', 'organizations', 'consumers', 'Common']) expect(await fields(providerBody(idp, { kind: 'microsoft', tenant, issuer: null }))).toEqual(['tenant']);
      expect(await fields(providerBody(idp, { kind: 'microsoft', tenant: null }))).toEqual(['tenant']);
      expect(await fields(providerBody(idp, { kind: 'microsoft', tenant: 'not a tenant!' }))).toEqual(['tenant']);
      for (const issuer of ['http://idp.example', 'https://idp.example/?tenant=x', 'https://idp.example/#x', 'ftp://idp.example', 'https://user:pw@idp.example', null]) expect(await fields(providerBody(idp, { issuer })), String(issuer)).toEqual(['issuer']);
      expect(await fields(providerBody(idp, { kind: 'google', secret: undefined }))).toEqual(['secret']);
      expect(await fields(providerBody(idp, { secretEnv: 'QE_TEST_IDP_SECRET' }))).toEqual(['secretEnv']);
      expect(await fields(providerBody(idp, { secret: undefined, secretEnv: 'QE_TEST_NOT_SET' }))).toEqual(['secretEnv']);
      expect(await fields(providerBody(idp, { domains: [], roles: [] }))).toEqual(['domains', 'roles']);
      expect(await fields(providerBody(idp, { domains: ['not a domain'] }))).toEqual(['domains.0']);
      const zh = await call(t.app, 'POST', '/v1/identity-providers', providerBody(idp, { kind: 'microsoft', tenant: 'common' }), { ...su, 'accept-language': 'zh-HK' });
      expect(zh.json().data.tenant).toContain('common、organizations 及 consumers');
    });

    it('derives the issuer of Microsoft’s kind from the tenant and Google’s from Google; takes http only on this machine', async () => {
      expect(await create(providerBody(idp, { kind: 'microsoft', tenant: TENANT.toUpperCase(), issuer: 'https://ignored.example', enabled: false }))).toMatchObject({ tenant: TENANT, issuer: `${entra.origin}/${TENANT}/v2.0` });
      expect(await create(providerBody(idp, { kind: 'google', tenant: 'ignored', enabled: false }))).toMatchObject({ tenant: null, issuer: google.issuer });
      for (const issuer of ['http://127.0.0.1:9/x', 'http://[::1]:9', 'http://localhost:9', 'https://login.example.org/tenant/']) expect((await create(providerBody(idp, { issuer, enabled: false }))).issuer).toBe(issuer);
    });

    it('reads a secret from an environment variable named, never storing it', async () => {
      process.env.QE_TEST_IDP_SECRET = idp.clientSecret;
      const p = await create(providerBody(idp, { secret: undefined, secretEnv: 'QE_TEST_IDP_SECRET', enabled: false }));
      expect(p).toMatchObject({ secretSource: 'environment', secretEnv: 'QE_TEST_IDP_SECRET' });
      expect((await t.db.selectFrom('identity_providers').select('secret').where('id', '=', p.id).executeTakeFirstOrThrow()).secret).toBeNull();
      await call(t.app, 'PUT', `/v1/identity-providers/${p.id}`, providerBody(idp, { secret: undefined, secretEnv: 'QE_TEST_IDP_SECRET', enabled: true }), su);
      expect(data<{ userId: number }>(await signIn(t.app, idp, p.id, 'tom')).userId).toBe(await id('teacher01'));
      // the variable gone from this instance: the sign-in says which one to set
      delete process.env.QE_TEST_IDP_SECRET;
      expect(refused((await start(t.app, p.id)).res, 'SIGN_IN_SECRET_MISSING')).toContain('the environment variable QE_TEST_IDP_SECRET is not set on this server');
      await call(t.app, 'DELETE', `/v1/identity-providers/${p.id}`, undefined, su);
    });

    it('tells a secret sealed under another server secret (723)', async () => {
      const p = await create(providerBody(idp));
      await t.db.updateTable('identity_providers').set({ secret: seal('another-server-secret-0123456789abcdef', 'identity_providers.secret', idp.clientSecret) }).where('id', '=', p.id).execute();
      expect(refused((await start(t.app, p.id)).res, 'SIGN_IN_SECRET_MISSING')).toContain('QE_SECRET has changed');
      await call(t.app, 'DELETE', `/v1/identity-providers/${p.id}`, undefined, su);
    });

    it('offers the enabled providers in their order; a disabled or deleted one is gone from the login page, its links and flows with it', async () => {
      for (const p of data<Provider[]>(await call(t.app, 'GET', '/v1/identity-providers', undefined, su))) await call(t.app, 'DELETE', `/v1/identity-providers/${p.id}`, undefined, su);
      const b = await create(providerBody(idp, { nameEn: 'B', seq: 2 }));
      const a = await create(providerBody(idp, { nameEn: 'A', seq: 1 }));
      const off = await create(providerBody(idp, { nameEn: 'Off', seq: 0, enabled: false }));
      expect(data<{ providers: { nameEn: string }[] }>(await call(t.app, 'GET', '/v1/sign-in/options')).providers.map((p) => p.nameEn)).toEqual(['A', 'B']);
      refused((await start(t.app, off.id)).res, 'SIGN_IN_OPTION_GONE');
      refused((await start(t.app, 999999)).res, 'SIGN_IN_OPTION_GONE');

      await signIn(t.app, idp, b.id, 'tom');
      expect(data<Provider[]>(await call(t.app, 'GET', '/v1/identity-providers', undefined, su))).toEqual(expect.arrayContaining([expect.objectContaining({ id: b.id, links: 1 })]));
      const pending = await start(t.app, b.id);
      const back = await idp.signIn(pending.link, 'tom');
      expect(data(await call(t.app, 'DELETE', `/v1/identity-providers/${b.id}`, undefined, su))).toBeNull();
      expect(await t.db.selectFrom('sign_in_links').select('id').where('provider_id', '=', b.id).execute()).toEqual([]);
      refused(await complete(t.app, { code: back.code, iss: back.iss, state: back.state, browserKey: pending.key }), 'SIGN_IN_FLOW_INVALID');
      refused(await call(t.app, 'DELETE', `/v1/identity-providers/${b.id}`, undefined, su), 'RECORD_NOT_FOUND');
      await call(t.app, 'DELETE', `/v1/identity-providers/${a.id}`, undefined, su);
      await call(t.app, 'DELETE', `/v1/identity-providers/${off.id}`, undefined, su);
    });
  });

  describe('the test of a provider', () => {
    let p: Provider;
    beforeAll(async () => {
      p = await create(providerBody(idp, { enabled: false, roles: ['TEACHER'] }));
    });

    async function test(account: string, headers: Record<string, string> = su) {
      const key = browserKey();
      const res = await call(t.app, 'POST', `/v1/identity-providers/${p.id}/test`, { browserKey: key }, headers);
      const { link } = data<{ link: string }>(res);
      expect(new URL(link).searchParams.get('prompt')).toBe('login');
      const back = await idp.signIn(link, account);
      return { key, back };
    }

    it('answers every check with what it found, signs nobody in and links nothing — only for the super administrator who started it', async () => {
      const { key, back } = await test('tom');
      const body = { code: back.code, iss: back.iss, state: back.state, browserKey: key };
      refused(await complete(t.app, body), 'SIGN_IN_TEST_NOT_YOURS');
      refused(await complete(t.app, body, bearer((await login(t.app, 'admin')).tk)), 'SIGN_IN_TEST_NOT_YOURS');
      const answer = await complete(t.app, body, su);
      fits(answer, SIGN_IN_ANSWERS.completed[200]);
      const done = data<{ purpose: string; tk?: string; report: Report }>(answer);
      expect(done.purpose).toBe('test');
      expect(done.tk).toBeUndefined();
      expect(done.report.ok).toBe(true);
      expect(done.report.steps.map((s) => [s.step, s.ok])).toEqual(['discovery', 'keys', 'token', 'idToken', 'email', 'domain', 'account', 'role'].map((s) => [s, true]));
      const detail = Object.fromEntries(done.report.steps.map((s) => [s.step, s.detail]));
      expect(detail.discovery).toBe(`The provider answers at ${idp.issuer}/.well-known/openid-configuration as the issuer ${idp.issuer}`);
      expect(detail.keys).toBe(`1 signing key is published at ${idp.origin}/jwks`);
      expect(detail.token).toContain('client authentication: client_secret_post');
      const teacher = await t.db.selectFrom('users').select('name_en').where('username', '=', 'teacher01').executeTakeFirstOrThrow();
      expect(detail.account).toBe(`Found by the school account tom@school.edu.hk: ${teacher.name_en} (teacher01, Teacher)`);
      expect(done.report.claims).toEqual({ subject: 'tom', email: 'tom@school.edu.hk', emailVerified: true, name: 'Tom Lee' });
      expect(done.report.account).toMatchObject({ userId: await id('teacher01'), userType: 'TEACHER' });
      expect(await t.db.selectFrom('sign_in_links').select('id').where('provider_id', '=', p.id).execute()).toEqual([]);
      // completed once
      refused(await complete(t.app, body, su), 'SIGN_IN_FLOW_INVALID');
    });

    it('says what failed and leaves the later checks unchecked, in the caller’s language', async () => {
      const { key, back } = await test('outsider');
      const report = data<{ report: Report }>(await complete(t.app, { code: back.code, iss: back.iss, state: back.state, browserKey: key }, { ...su, 'accept-language': 'zh-HK' })).report;
      expect(report.ok).toBe(false);
      expect(report.steps.map((s) => s.ok)).toEqual([true, true, true, true, true, false, false, false]);
      expect(report.steps[5].detail).toBe('地址 out@other.org 不屬於網域 school.edu.hk');
      expect(report.steps[6].detail).toBe('未有檢查：之前的步驟失敗');
      expect(report.account).toBeNull();
      expect(report.claims?.email).toBe('out@other.org');

      idp.relay.onToken = async (a) => ({ ...a, id_token: await idp.resign(a.id_token, { aud: 'someone-else' }) });
      const aud = await test('tom');
      const wrong = data<{ report: Report }>(await complete(t.app, { code: aud.back.code, iss: aud.back.iss, state: aud.back.state, browserKey: aud.key }, su)).report;
      idp.relay.onToken = null;
      expect(wrong.steps.find((s) => s.step === 'idToken')).toEqual({ step: 'idToken', ok: false, detail: `the token's audience is someone-else, the client id is ${idp.clientId}` });
    });

    it('refuses to start when the provider’s discovery cannot be read, naming the address', async () => {
      const port = await closedPort();
      const down = await create(providerBody(idp, { issuer: `http://127.0.0.1:${port}`, enabled: false }));
      const res = await call(t.app, 'POST', `/v1/identity-providers/${down.id}/test`, { browserKey: browserKey() }, su);
      expect(refused(res, 'SIGN_IN_PROVIDER_UNAVAILABLE')).toContain(`http://127.0.0.1:${port}/.well-known/openid-configuration could not be reached (ECONNREFUSED)`);
    });
    it('refuses a provider whose document gives its keys or token endpoint over plain http (anyone on the way could swap the keys), naming the address', async () => {
      const server = createServer((_req, res) => {
        const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ issuer: origin, authorization_endpoint: `${origin}/auth`, token_endpoint: `${origin}/token`, jwks_uri: 'http://keys.school.edu.hk/jwks' }));
      });
      await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
      try {
        const plain = await create(providerBody(idp, { issuer: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, enabled: false }));
        const res = await call(t.app, 'POST', `/v1/identity-providers/${plain.id}/test`, { browserKey: browserKey() }, su);
        expect(refused(res, 'SIGN_IN_PROVIDER_UNAVAILABLE')).toContain('the discovery document gives jwks_uri as http://keys.school.edu.hk/jwks, which is not https');
        await call(t.app, 'DELETE', `/v1/identity-providers/${plain.id}`, undefined, su);
      } finally {
        await new Promise((done) => server.close(done));
      }
    });
  });

  describe('the kinds', () => {
    it('microsoft: the tenant’s issuer, the address from preferred_username; a tenant given by its domain is pinned to the issuer its document names', async () => {
      const byId = await create(providerBody(entra, { kind: 'microsoft', tenant: TENANT, issuer: null, nameEn: 'Microsoft' }));
      const done = data<{ userId: number }>(await signIn(t.app, entra, byId.id, 'mei'));
      expect(done.userId).toBe(await id('teacher02'));
      await call(t.app, 'DELETE', `/v1/identity-providers/${byId.id}`, undefined, su);
      const byDomain = await create(providerBody(entra, { kind: 'microsoft', tenant: 'school.edu.hk', issuer: null, nameEn: 'Microsoft' }));
      expect(data<{ userId: number }>(await signIn(t.app, entra, byDomain.id, 'mei')).userId).toBe(await id('teacher02'));
      // a token of another tenant's issuer is refused
      entra.relay.onToken = async (a) => ({ ...a, id_token: await entra.resign(a.id_token, { iss: `${entra.origin}/00000000-0000-4000-8000-000000000000/v2.0` }) });
      expect(refused(await signIn(t.app, entra, byDomain.id, 'mei'), 'SIGN_IN_TOKEN_INVALID')).toContain("the token's issuer is");
      entra.relay.onToken = null;
      await call(t.app, 'DELETE', `/v1/identity-providers/${byDomain.id}`, undefined, su);
    });

    it('google: a verified address of the school’s Workspace (hd) signs in and becomes the Google account; a personal Gmail does not', async () => {
      const g = await create(providerBody(google, { kind: 'google', issuer: null, nameEn: 'Google' }));
      const { link } = await start(t.app, g.id);
      expect(new URL(link).searchParams.get('hd')).toBe('school.edu.hk');
      expect(data<{ userId: number }>(await signIn(t.app, google, g.id, 'kit')).userId).toBe(await id('teacher03'));
      expect((await t.db.selectFrom('users').select('google_mail').where('username', '=', 'teacher03').executeTakeFirstOrThrow()).google_mail).toBe('kit@school.edu.hk');
      expect(refused(await signIn(t.app, google, g.id, 'gmail'), 'SIGN_IN_ADDRESS_REFUSED')).toContain("the Google account kit.personal@gmail.com is not of the school's Google Workspace (hd: —; expected one of school.edu.hk)");
      await call(t.app, 'DELETE', `/v1/identity-providers/${g.id}`, undefined, su);
    });

    it('a provider that takes the client secret in the Authorization header only (client_secret_basic), with characters to encode', async () => {
      const b = await create(providerBody(basic));
      expect(data<{ userId: number }>(await signIn(t.app, basic, b.id, 'tom')).userId).toBe(await id('teacher01'));
      await call(t.app, 'DELETE', `/v1/identity-providers/${b.id}`, undefined, su);
    });
  });
});
