import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/server/app.js';
import { testConfig } from '../../support/config.js';
import { login, testApp, type TestApp } from '../harness.js';
import { browserKey, providerBody, startIssuer, type Issuer } from '../../support/oidc-issuer.js';
import { bearer, call, CALLBACK, complete, data, refused, signInConfig, start } from './helpers.js';

/**
 * Several QE instances on one database (behind a load balancer: a browser's calls may reach any of
 * them) are one QE: a sign-in started on one completes on another, once.
 */
describe('sign-in across instances', () => {
  let t: TestApp;
  let second: FastifyInstance;
  let idp: Issuer;
  let su: Record<string, string>;
  let providerId: number;

  beforeAll(async () => {
    idp = await startIssuer({ redirectUris: [CALLBACK], accounts: { tom: { email: 'tom@school.edu.hk', email_verified: true } } });
    t = await testApp({ demo: true, config: signInConfig() });
    // a second instance on the same database (PostgreSQL), or the same SQLite file, with the school's one secret
    second = (await buildApp(testConfig({ dataDir: t.config.dataDir, databaseUrl: t.config.databaseUrl }, { ...signInConfig(), secret: t.config.secret }), { logger: false })).app;
    await second.ready();
    su = bearer((await login(t.app, 'superadmin')).tk);
    providerId = data<{ id: number }>(await call(t.app, 'POST', '/v1/identity-providers', providerBody(idp), su)).id;
    await t.db.updateTable('users').set({ school_account: 'tom@school.edu.hk' }).where('username', '=', 'teacher01').execute();
  });
  afterAll(async () => {
    await second?.close();
    await t?.close();
    await idp?.close();
  });

  it('completes on the second instance a sign-in started on the first, once', async () => {
    const { link, key } = await start(t.app, providerId);
    const back = await idp.signIn(link, 'tom');
    const body = { code: back.code, iss: back.iss, state: back.state, browserKey: key };
    const done = data<{ tk: string }>(await complete(second, body));
    expect(data<{ username: string }>(await call(t.app, 'GET', '/v1/my/user-info', undefined, bearer(done.tk))).username).toBe('teacher01');
    refused(await complete(t.app, body), 'SIGN_IN_FLOW_INVALID');
    refused(await complete(second, body), 'SIGN_IN_FLOW_INVALID');
  });

  it('completes a provider’s test on the first instance that the second started', async () => {
    const key = browserKey();
    const { link } = data<{ link: string }>(await call(second, 'POST', `/v1/identity-providers/${providerId}/test`, { browserKey: key }, su));
    const back = await idp.signIn(link, 'tom');
    const done = data<{ purpose: string; report: { ok: boolean } }>(await complete(t.app, { code: back.code, iss: back.iss, state: back.state, browserKey: key }, su));
    expect(done).toMatchObject({ purpose: 'test', report: { ok: true } });
  });
});
