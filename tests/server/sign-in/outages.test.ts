import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login, testApp, type TestApp } from '../harness.js';
import { browserKey, closedPort, providerBody, silentServer, startIssuer, type Issuer } from '../../support/oidc-issuer.js';
import { bearer, call, CALLBACK, complete, data, refused, signIn, signInConfig, start } from './helpers.js';

const TIMEOUT_MS = 1000;
/** What a refusal within the time limit may take at most: the limit, and room for a busy machine. */
const WITHIN_MS = TIMEOUT_MS + 4000;

/**
 * A provider that is down or hangs: every request QE makes to it gives up within
 * QE_SIGN_IN_TIMEOUT_MS and answers a business error naming the provider and the address, the
 * password login working all the while; and a burst of forged completions from one address runs
 * into the login limit.
 */
describe('sign-in when the provider is down or slow', () => {
  let t: TestApp;
  let idp: Issuer;
  let fresh: Issuer;
  let su: Record<string, string>;
  let providerId: number;

  beforeAll(async () => {
    [idp, fresh] = await Promise.all([
      startIssuer({ redirectUris: [CALLBACK], accounts: { tom: { email: 'tom@school.edu.hk', email_verified: true } } }),
      startIssuer({ redirectUris: [CALLBACK], accounts: { tom: { email: 'tom@school.edu.hk', email_verified: true } } }),
    ]);
    t = await testApp({ demo: true, config: signInConfig({ timeoutMs: TIMEOUT_MS }, { loginMaxFailuresPerAddress: 20 }) });
    su = bearer((await login(t.app, 'superadmin')).tk);
    providerId = data<{ id: number }>(await call(t.app, 'POST', '/v1/identity-providers', providerBody(idp), su)).id;
    await t.db.updateTable('users').set({ school_account: 'tom@school.edu.hk' }).where('username', '=', 'teacher01').execute();
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([idp?.close(), fresh?.close()]);
  });

  /** Runs `slow` while logging in with a password: `slow` answers within the limit, and the login (when `hangs`) before it. */
  async function whileLoggingIn<T>(slow: () => Promise<T>, hangs = true): Promise<T> {
    const began = Date.now();
    let loggedInAt = 0;
    const [result] = await Promise.all([
      slow().then((r) => ({ r, at: Date.now() })),
      login(t.app, 'teacher02').then(() => {
        loggedInAt = Date.now();
      }),
    ]);
    expect(result.at - began).toBeLessThan(WITHIN_MS);
    expect(loggedInAt).toBeGreaterThan(0);
    if (hangs) expect(loggedInAt).toBeLessThanOrEqual(result.at);
    return result.r;
  }

  it('a provider whose port is closed: refused at once, naming it and the address', async () => {
    const port = await closedPort();
    const down = data<{ id: number }>(await call(t.app, 'POST', '/v1/identity-providers', providerBody(idp, { issuer: `http://127.0.0.1:${port}`, nameEn: 'Closed' }), su));
    const { res } = await whileLoggingIn(() => start(t.app, down.id), false);
    expect(refused(res, 'SIGN_IN_PROVIDER_UNAVAILABLE')).toBe(
      `Closed cannot be used to sign in just now (http://127.0.0.1:${port}/.well-known/openid-configuration could not be reached (ECONNREFUSED)): try again in a few minutes, or log in with your user name and password`,
    );
    await call(t.app, 'DELETE', `/v1/identity-providers/${down.id}`, undefined, su);
  });

  it('a provider that accepts and never answers: refused within the time limit, the password login unaffected', async () => {
    const silent = await silentServer();
    try {
      const hung = data<{ id: number }>(await call(t.app, 'POST', '/v1/identity-providers', providerBody(idp, { issuer: silent.origin, nameEn: 'Silent' }), su));
      const { res } = await whileLoggingIn(() => start(t.app, hung.id));
      expect(refused(res, 'SIGN_IN_PROVIDER_UNAVAILABLE')).toContain(`no answer from ${silent.origin}/.well-known/openid-configuration within 1 seconds`);
      const test = await call(t.app, 'POST', `/v1/identity-providers/${hung.id}/test`, { browserKey: browserKey() }, su);
      refused(test, 'SIGN_IN_PROVIDER_UNAVAILABLE');
      await call(t.app, 'DELETE', `/v1/identity-providers/${hung.id}`, undefined, su);
    } finally {
      await silent.close();
    }
  });

  it('a burst of 50 sign-ins towards a provider that never answers asks it once, and each is refused within the limit', async () => {
    let asked = 0;
    const server = createServer(() => {
      asked += 1;
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const hung = data<{ id: number }>(await call(t.app, 'POST', '/v1/identity-providers', providerBody(idp, { issuer: origin, nameEn: 'Silent burst' }), su));
      const began = Date.now();
      const answers = await Promise.all(Array.from({ length: 50 }, () => start(t.app, hung.id)));
      for (const { res } of answers) expect(refused(res, 'SIGN_IN_PROVIDER_UNAVAILABLE')).toContain(`no answer from ${origin}/.well-known/openid-configuration`);
      expect(Date.now() - began).toBeLessThan(WITHIN_MS);
      expect(asked).toBe(1);
      await call(t.app, 'DELETE', `/v1/identity-providers/${hung.id}`, undefined, su);
    } finally {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    }
  });

  it('a provider answering megabytes is not read whole: refused once past the limit, naming the address', async () => {
    // 8 MB without a length, sent in chunks for as long as the reader takes them
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      let sent = 0;
      const more = () => {
        while (sent < 128) {
          sent += 1;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end('{}');
      };
      more();
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const big = data<{ id: number }>(await call(t.app, 'POST', '/v1/identity-providers', providerBody(idp, { issuer: origin, nameEn: 'Big' }), su));
      const { res } = await start(t.app, big.id);
      expect(refused(res, 'SIGN_IN_PROVIDER_UNAVAILABLE')).toContain(`the answer of ${origin}/.well-known/openid-configuration is larger than 512 KB`);
      await call(t.app, 'DELETE', `/v1/identity-providers/${big.id}`, undefined, su);
    } finally {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    }
  });

  it('a token endpoint that hangs: the completion gives up within the limit, and the flow is spent', async () => {
    const { link, key } = await start(t.app, providerId);
    const back = await idp.signIn(link, 'tom');
    idp.relay.hang = (path) => path.startsWith('/token');
    try {
      const res = await whileLoggingIn(() => complete(t.app, { code: back.code, iss: back.iss, state: back.state, browserKey: key }));
      expect(refused(res, 'SIGN_IN_PROVIDER_UNAVAILABLE')).toContain(`no answer from ${idp.origin}/token within 1 seconds`);
    } finally {
      idp.relay.hang = false;
    }
    refused(await complete(t.app, { code: back.code, iss: back.iss, state: back.state, browserKey: key }), 'SIGN_IN_FLOW_INVALID');
    // the provider back: a new sign-in goes through
    expect(data<{ purpose: string }>(await signIn(t.app, idp, providerId, 'tom')).purpose).toBe('sign-in');
  });

  it('keys that cannot be fetched: the ID token is not taken on trust', async () => {
    const p = data<{ id: number }>(await call(t.app, 'POST', '/v1/identity-providers', providerBody(fresh, { nameEn: 'Fresh' }), su));
    fresh.relay.hang = (path) => path.startsWith('/jwks');
    try {
      const res = await whileLoggingIn(() => signIn(t.app, fresh, p.id, 'tom'));
      expect(refused(res, 'SIGN_IN_PROVIDER_UNAVAILABLE')).toContain(`no answer from ${fresh.origin}/jwks within 1 seconds`);
    } finally {
      fresh.relay.hang = false;
    }
    expect(data<{ purpose: string }>(await signIn(t.app, fresh, p.id, 'tom')).purpose).toBe('sign-in');
  });

  it('a burst of forged completions from one address runs into the login limit (702), other addresses unaffected', async () => {
    const from = (address: string, state: string) =>
      t.app.inject({ method: 'POST', url: '/v1/sign-in/complete', remoteAddress: address, headers: { 'accept-language': 'en' }, payload: { code: 'forged', state, browserKey: browserKey() } });
    const codes: number[] = [];
    for (let i = 0; i < 25; i++) codes.push((await from('10.9.9.9', `forged-${i}`)).json().code);
    expect(codes.slice(0, 20).every((c) => c === 771)).toBe(true);
    expect(codes.slice(20)).toEqual([702, 702, 702, 702, 702]);
    // a real completion from that address waits for the window too; another address goes through
    const { link, key } = await start(t.app, providerId);
    const back = await idp.signIn(link, 'tom');
    refused(await t.app.inject({ method: 'POST', url: '/v1/sign-in/complete', remoteAddress: '10.9.9.9', headers: { 'accept-language': 'en' }, payload: { code: back.code, iss: back.iss, state: back.state, browserKey: key } }), 'LOGIN_RATE_LIMITED');
    const other = await t.app.inject({ method: 'POST', url: '/v1/sign-in/complete', remoteAddress: '10.9.9.10', headers: { 'accept-language': 'en' }, payload: { code: back.code, iss: back.iss, state: back.state, browserKey: key } });
    expect(other.json().code).toBe(200);
  });
});
