import { Writable } from 'node:stream';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ERRORS } from '../../src/shared/errors.js';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { logRedact, logSerializers } from '../../src/server/plugins/logging.js';
import { seedDemoSchool } from '../../src/server/demo/seed.js';
import { createTestDatabase } from '../support/database.js';
import { bearer, login, testApp, type TestApp } from './harness.js';

describe('requests', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp({ demo: true });
  });
  afterAll(async () => t?.close());

  it('answers an unknown /v1 route with the 404 envelope', async () => {
    for (const [method, url] of [['GET', '/v1/no-such-thing'], ['POST', '/v1/login/extra'], ['DELETE', '/v1/login'], ['GET', '/ed/nothing']] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json(), `${method} ${url}`).toEqual({ code: 404, msg: ERRORS.RECORD_NOT_FOUND['zh-hk'], data: null });
    }
    const en = await t.app.inject({ method: 'GET', url: '/v1/no-such-thing', headers: { 'accept-language': 'en-GB,en;q=0.9' } });
    expect(en.json().msg).toBe(ERRORS.RECORD_NOT_FOUND.en);
  });

  it('answers a malformed JSON body with the 406 envelope', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/login', headers: { 'content-type': 'application/json' }, payload: '{"username": "teacher01", "password": ' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 406, msg: ERRORS.INVALID_REQUEST['zh-hk'], data: null });
  });

  it('answers a body of a type it does not take, and an empty JSON body, with 406', async () => {
    const xml = await t.app.inject({ method: 'POST', url: '/v1/login', headers: { 'content-type': 'application/xml' }, payload: '<login/>' });
    expect(xml.json()).toEqual({ code: 406, msg: ERRORS.INVALID_REQUEST['zh-hk'], data: null });
    const empty = await t.app.inject({ method: 'POST', url: '/v1/login', headers: { 'content-type': 'application/json' }, payload: '' });
    expect(empty.json()).toMatchObject({ code: 406 });
  });

  it('answers a plain-text body where an object is expected with 422', async () => {
    const text = await t.app.inject({ method: 'POST', url: '/v1/login', headers: { 'content-type': 'text/plain' }, payload: 'username=teacher01' });
    expect(text.statusCode).toBe(422);
    expect(text.json().code).toBe(422);
  });

  it('answers a body over the size limit with 406', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ username: 'x'.repeat(3 * 1024 * 1024), password: 'y' }),
    });
    expect(res.json()).toMatchObject({ code: 406 });
  });

  it('trims strings in query parameters before checking them', async () => {
    const { tk, userId } = await login(t.app, 'teacher01');
    const res = await t.app.inject({ method: 'GET', url: `/v1/my/permissions?system=%20QE%20&userId=%20${userId}%20`, headers: bearer(tk) });
    expect(res.json().code).toBe(200);
    const role = await t.db.selectFrom('roles').select('id').where('role_code', '=', 'ADMIN').executeTakeFirstOrThrow();
    const admin = await login(t.app, 'admin');
    const padded = await t.app.inject({ method: 'GET', url: `/ed/roles/${role.id}/permissions?web_code=%20%20QE%09`, headers: bearer(admin.tk) });
    expect(padded.json().code).toBe(200);
    expect(padded.json().data.length).toBeGreaterThan(0);
  });

  it('publishes the OpenAPI description, which lists the calls', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/qe/api-docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths['/v1/login']).toHaveProperty('post');
    for (const path of ['/v1/logout', '/v1/change-password', '/v1/my/user-info', '/v1/my/action-list', '/v1/school-info', '/ed/roles/{role_id}/permissions']) {
      expect(doc.paths, path).toHaveProperty([path]);
    }
  });

  it('redirects / to /qe/', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBeGreaterThanOrEqual(300);
    expect(res.statusCode).toBeLessThan(400);
    expect(res.headers.location).toBe('/qe/');
  });
});

describe('logs', () => {
  const lines: string[] = [];
  let app: FastifyInstance;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const database = await createTestDatabase();
    const config = loadConfig({}, { dataDir: database.dataDir, databaseUrl: database.databaseUrl, clientDir: join(database.dataDir, 'no-client') });
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    // the logger settings app.ts uses by default, at the most verbose level, into the array
    const built = await buildApp(config, { logger: { level: 'trace', redact: logRedact, serializers: logSerializers, stream } });
    app = built.app;
    await seedDemoSchool(built.db);
    await app.ready();
    drop = async () => {
      await app.close();
      await database.drop();
    };
  });
  afterAll(async () => drop?.());

  it('never hold a password or a token, whatever the request', async () => {
    const secretPassword = 'Sup3rS3cret';
    const wrongPassword = 'Wr0ngGuess!';
    const { tk } = await login(app, 'teacher01');
    const auth = bearer(tk);
    const post = (url: string, payload: unknown, headers: Record<string, string> = {}) => app.inject({ method: 'POST', url, payload: payload as string, headers });

    await post('/v1/login', { username: 'teacher01', password: wrongPassword });
    await post('/v1/login', { username: 'nobody', password: wrongPassword });
    await post('/v1/login', { username: 'teacher01', password: wrongPassword, extra: wrongPassword });
    await post('/v1/login', `{"username":"teacher01","password":"${wrongPassword}" oops}`, { 'content-type': 'application/json' });
    await post('/v1/login', `{"password":"${wrongPassword}`, { 'content-type': 'application/json' });
    await post('/v1/login', wrongPassword, { 'content-type': 'application/json' });
    await post('/v1/login', `password=${wrongPassword}`, { 'content-type': 'text/plain' });
    await app.inject({ method: 'GET', url: `/v1/my/user-info?token=${tk}&tk=${tk}&password=${wrongPassword}`, headers: auth });
    await app.inject({ method: 'GET', url: `/v1/nothing?authorization=${tk}&password=${wrongPassword}`, headers: { ...auth, cookie: `tk=${tk}` } });
    await app.inject({ method: 'GET', url: '/v1/my/user-info', headers: { authorization: `Bearer ${tk}x` } });
    await post('/v1/change-password', { oldPassword: wrongPassword, newPassword: secretPassword }, auth);
    await post('/v1/change-password', { oldPassword: 'Passw0rd!', newPassword: 'x' }, auth);
    await post('/v1/change-password', { oldPassword: 'Passw0rd!', newPassword: secretPassword }, auth);
    await login(app, 'teacher01', secretPassword);
    await post('/v1/logout', {}, auth);

    const log = lines.join('');
    expect(lines.length).toBeGreaterThan(10);
    expect(log).toContain('incoming request');
    expect(log).toContain('/v1/login');
    for (const secret of [tk, tk.split('.')[2], secretPassword, wrongPassword, 'Passw0rd!']) {
      expect(log.includes(secret), `the logs hold ${secret}`).toBe(false);
    }
  });
});
