import { connect, type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ERRORS, type ErrorKey, errorText } from '../../src/shared/errors.js';
import { buildApp } from '../../src/server/app.js';
import { testConfig } from '../support/config.js';
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

  /** The envelope of a catalogue error, in zh-hk unless told. */
  const envelope = (key: ErrorKey, lang: 'zh-hk' | 'en' = 'zh-hk') => ({ code: ERRORS[key].code, msg: errorText(key, lang), data: null });

  it('answers an unknown /v1 route with the 404 envelope', async () => {
    for (const [method, url] of [['GET', '/v1/no-such-thing'], ['POST', '/v1/login/extra'], ['DELETE', '/v1/login'], ['GET', '/ed/nothing']] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json(), `${method} ${url}`).toEqual({ code: 404, msg: errorText('RECORD_NOT_FOUND', 'zh-hk'), data: null });
      expect(res.headers['cache-control']).toBe('no-store');
    }
    const en = await t.app.inject({ method: 'GET', url: '/v1/no-such-thing', headers: { 'accept-language': 'en-GB,en;q=0.9' } });
    expect(en.json().msg).toBe(errorText('RECORD_NOT_FOUND', 'en'));
  });

  it('answers a malformed JSON body with the 406 envelope', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/login', headers: { 'content-type': 'application/json' }, payload: '{"username": "teacher01", "password": ' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(envelope('INVALID_REQUEST'));
  });

  it('answers a body of a type it does not take with 415, and an empty JSON body with 406', async () => {
    const xml = await t.app.inject({ method: 'POST', url: '/v1/login', headers: { 'content-type': 'application/xml', 'accept-language': 'en' }, payload: '<login/>' });
    expect(xml.statusCode).toBe(415);
    expect(xml.json()).toEqual(envelope('UNSUPPORTED_MEDIA_TYPE', 'en'));
    const empty = await t.app.inject({ method: 'POST', url: '/v1/login', headers: { 'content-type': 'application/json' }, payload: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual(envelope('INVALID_REQUEST'));
  });

  it('answers a plain-text body where an object is expected with 422', async () => {
    const text = await t.app.inject({ method: 'POST', url: '/v1/login', headers: { 'content-type': 'text/plain' }, payload: 'username=teacher01' });
    expect(text.statusCode).toBe(422);
    expect(text.json().code).toBe(422);
  });

  it('answers a body over the size limit with 413', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/login',
      headers: { 'content-type': 'application/json', 'accept-language': 'en' },
      payload: JSON.stringify({ username: 'x'.repeat(3 * 1024 * 1024), password: 'y' }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual(envelope('REQUEST_TOO_LARGE', 'en'));
  });

  it('answers deeply nested JSON with 400 before anyone logs in, and takes nesting within the limit', async () => {
    for (const payload of [`${'['.repeat(100_000)}${']'.repeat(100_000)}`, `{"username":${'{"a":'.repeat(40)}1${'}'.repeat(40)},"password":"x"}`]) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/login', headers: { 'content-type': 'application/json' }, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(envelope('INVALID_REQUEST'));
    }
    // brackets inside strings are text, not nesting; 20 levels is a shape validation answers (422)
    const inString = await t.app.inject({ method: 'POST', url: '/v1/login', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ username: `fuzz${'['.repeat(90)}`, password: 'x' }) });
    expect(inString.json().code).toBe(ERRORS.LOGIN_FAILED.code);
    const twenty = await t.app.inject({ method: 'POST', url: '/v1/login', headers: { 'content-type': 'application/json' }, payload: `{"username":${'['.repeat(20)}${']'.repeat(20)},"password":"x"}` });
    expect(twenty.statusCode).toBe(422);
  });

  it('refuses text holding a NUL character with 400, in bodies and query strings alike', async () => {
    const body = await t.app.inject({ method: 'POST', url: '/v1/login', payload: { username: 'teacher\u000001', password: 'x' } });
    expect(body.statusCode).toBe(400);
    expect(body.json()).toEqual(envelope('INVALID_REQUEST'));
    // in a key, as JSON text writes it (an escape: a raw NUL is not JSON)
    const json = { 'content-type': 'application/json' };
    const inKey = await t.app.inject({ method: 'POST', url: '/v1/login', headers: json, payload: '{"username":"teacher01","password":"x","a\\u0000":1}' });
    expect(inKey.statusCode).toBe(400);
    // an escaped backslash before "u0000" is six characters of text, not a NUL: the login goes on (and fails as any wrong password)
    const lookalike = await t.app.inject({ method: 'POST', url: '/v1/login', headers: json, payload: '{"username":"teacher01","password":"x\\\\u0000"}' });
    expect(lookalike.json().code).toBe(ERRORS.LOGIN_FAILED.code);
    const { tk } = await login(t.app, 'admin');
    const query = await t.app.inject({ method: 'GET', url: '/v1/students?q=chan%00', headers: bearer(tk) });
    expect(query.statusCode).toBe(400);
    expect(query.json()).toEqual(envelope('INVALID_REQUEST'));
  });

  it('answers out-of-range ids and numbers with 422 on every kind of route, never 500', async () => {
    const { tk } = await login(t.app, 'admin');
    const headers = { ...bearer(tk), 'accept-language': 'en' };
    const hostile = ['2147483648', '9007199254740993', 'Infinity', '-Infinity', '1e400', 'NaN', '-1', '0', '1.5'];
    // a generated master route, the questionnaires, statistics and developer areas (their own schemas), a query id
    const routes = ['/v1/students/:v', '/v1/questionnaires/:v', '/v1/statistics/:v', '/v1/roles/:v', '/v1/students?schoolYearId=:v', '/v1/students?page=:v', '/v1/students?size=:v', '/v1/classes?id=:v', '/v1/statistics?size=:v'];
    for (const route of routes) {
      for (const v of hostile) {
        const res = await t.app.inject({ method: 'GET', url: route.replace(':v', v), headers });
        expect(res.statusCode, `${route} with ${v}: ${res.body}`).toBe(422);
        expect(res.json().code).toBe(422);
      }
    }
    // in a body: a class id past int4 and an infinite one (1e400 in JSON text)
    const [student] = await t.db.selectFrom('users').select('id').where('user_type', '=', 'STUDENT').limit(1).execute();
    for (const payload of ['{"classId":2147483648}', '{"classId":1e400}', '{"studentNumber":-1e400}']) {
      const res = await t.app.inject({ method: 'PUT', url: `/v1/students/${student.id}`, headers: { ...headers, 'content-type': 'application/json' }, payload });
      expect(res.statusCode, `${payload}: ${res.body}`).toBe(422);
    }
    // the largest id there can be is simply not found
    const largest = await t.app.inject({ method: 'GET', url: '/v1/students/2147483647', headers });
    expect(largest.statusCode).toBe(404);
  });

  it('answers a URL longer than 8 kB with 414, an over-long path parameter too, and bad percent-encoding with 400', async () => {
    const long = await t.app.inject({ method: 'GET', url: `/v1/school-info?q=${'a'.repeat(9000)}`, headers: { 'accept-language': 'en' } });
    expect(long.statusCode).toBe(414);
    expect(long.json()).toEqual(envelope('URL_TOO_LONG', 'en'));
    const param = await t.app.inject({ method: 'GET', url: `/v1/students/${'1'.repeat(150)}` });
    expect(param.statusCode).toBe(414);
    expect(param.json()).toEqual(envelope('URL_TOO_LONG'));
    expect(param.headers['cache-control']).toBe('no-store');
    for (const url of ['/v1/students/%zz', '/v1/students/%E0%A4%A', '/v1/%']) {
      const bad = await t.app.inject({ method: 'GET', url });
      expect(bad.statusCode, url).toBe(400);
      expect(bad.json(), url).toEqual(envelope('INVALID_REQUEST'));
      expect(bad.headers['cache-control']).toBe('no-store');
    }
  });

  it('answers a malformed multipart upload with 400, not a server error', async () => {
    const { tk } = await login(t.app, 'admin');
    const boundary = '----qe-broken';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`;
    // the file's part cut off before its end, or its headers never ending: busboy's parse errors
    for (const [kind, payload] of [['truncated', `${head}\u0089PNG`], ['headers that never end', `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n${'x'.repeat(20_000)}`]]) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/questionnaires/images', headers: { ...bearer(tk), 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
      expect(res.statusCode, `${kind}: ${res.body}`).toBe(400);
      expect(res.json().code, kind).toBe(ERRORS.INVALID_REQUEST.code);
    }
    const noBoundary = await t.app.inject({ method: 'POST', url: '/v1/students/import', headers: { ...bearer(tk), 'content-type': 'multipart/form-data' }, payload: `${head}x` });
    expect(noBoundary.statusCode).toBeLessThan(500);
    expect(noBoundary.json().code).toBe(ERRORS.INVALID_REQUEST.code);
  });

  it('answers too many requests with 429 and the rate-limit envelope', async () => {
    let res = await t.app.inject({ method: 'POST', url: '/v1/init', payload: {} });
    for (let i = 0; i < 25 && res.statusCode !== 429; i++) res = await t.app.inject({ method: 'POST', url: '/v1/init', headers: { 'accept-language': 'en' }, payload: {} });
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual(envelope('RATE_LIMITED', 'en'));
    expect(res.headers['retry-after']).toBeDefined();
  });

  it('marks every API answer Cache-Control: no-store: data, errors and downloads', async () => {
    const { tk } = await login(t.app, 'admin');
    const answers = [
      await t.app.inject({ method: 'GET', url: '/v1/school-info' }),
      await t.app.inject({ method: 'GET', url: '/v1/my/user-info', headers: bearer(tk) }),
      await t.app.inject({ method: 'GET', url: '/v1/my/user-info' }),
      await t.app.inject({ method: 'GET', url: '/v1/students/export', headers: bearer(tk) }),
      await t.app.inject({ method: 'GET', url: '/v1/students/import-template', headers: bearer(tk) }),
      await t.app.inject({ method: 'PUT', url: '/v1/students/1', headers: bearer(tk), payload: { code: 1 } }),
      await t.app.inject({ method: 'GET', url: '/ed/roles/1/permissions' }),
    ];
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 401, 200, 200, 422, 401]);
    for (const a of answers) expect(a.headers['cache-control']).toBe('no-store');
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
    // ids are documented with their range
    const id = doc.paths['/v1/questionnaires/{id}'].get.parameters.find((p: { name: string }) => p.name === 'id');
    expect(id.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 2147483647 });
  });

  it('redirects / to /qe/', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBeGreaterThanOrEqual(300);
    expect(res.statusCode).toBeLessThan(400);
    expect(res.headers.location).toBe('/qe/');
  });
});

describe('values the database refuses', () => {
  let app: FastifyInstance;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const database = await createTestDatabase();
    const config = testConfig(database);
    // two routes without schemas that hand the database what it cannot hold, as a route with a gap in its schema would
    const built = await buildApp(config, {
      logger: false,
      extraMasterRoutes: async (app, { db }) => {
        app.get('/v1/test/out-of-range', { config: { permission: 'public' } }, async () => {
          await db.selectFrom('users').select('id').where('id', '=', 2 ** 40).execute();
          // SQLite holds 2^40 in a rowid: a text where only an integer may go is its datatype mismatch
          await sql`insert into positions (id, code, name_hk, name_en, seq) values (${'not a number'}, 'X', 'X', 'X', 0)`.execute(db);
          return { code: 200, msg: 'success', data: null };
        });
        app.get('/v1/test/broken', { config: { permission: 'public' } }, async () => {
          await sql`select * from no_such_table`.execute(db);
          return { code: 200, msg: 'success', data: null };
        });
      },
    });
    app = built.app;
    await app.ready();
    drop = async () => {
      await app.close();
      await database.drop();
    };
  });
  afterAll(async () => drop?.());

  it('answers a data exception of the database with 400, and any other database failure with 500', async () => {
    const refused = await app.inject({ method: 'GET', url: '/v1/test/out-of-range', headers: { 'accept-language': 'en' } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ code: ERRORS.INVALID_REQUEST.code, msg: errorText('INVALID_REQUEST', 'en'), data: null });
    const broken = await app.inject({ method: 'GET', url: '/v1/test/broken', headers: { 'accept-language': 'en' } });
    expect(broken.statusCode).toBe(500);
    expect(broken.json()).toEqual({ code: ERRORS.SYSTEM_ERROR.code, msg: errorText('SYSTEM_ERROR', 'en'), data: null });
  });
});

describe('what only the HTTP parser sees', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await testApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => t?.close());

  /** Sends raw bytes and reads the answer until the server closes the connection. */
  const raw = (data: string) =>
    new Promise<{ status: number; headers: string; body: string }>((resolve, reject) => {
      const chunks: Buffer[] = [];
      const socket = connect(port, '127.0.0.1', () => socket.write(data));
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.on('error', reject);
      socket.on('close', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const head = text.indexOf('\r\n\r\n');
        resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]), headers: text.slice(0, head).toLowerCase(), body: text.slice(head + 4) });
      });
    });

  it('answers headers over 16 kB with the 431 envelope, in the language asked for', async () => {
    const res = await raw(`GET /v1/school-info HTTP/1.1\r\nHost: x\r\nAccept-Language: en\r\nX-Big: ${'b'.repeat(64 * 1024)}\r\n\r\n`);
    expect(res.status).toBe(431);
    expect(JSON.parse(res.body)).toEqual({ code: ERRORS.HEADERS_TOO_LARGE.code, msg: errorText('HEADERS_TOO_LARGE', 'en'), data: null });
    expect(res.headers).toContain('cache-control: no-store');
  });

  it('answers a 20 kB URL with the 414 envelope', async () => {
    const res = await raw(`GET /v1/students?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(res.status).toBe(414);
    expect(JSON.parse(res.body)).toEqual({ code: ERRORS.URL_TOO_LONG.code, msg: errorText('URL_TOO_LONG', 'zh-hk'), data: null });
  });

  it('answers a request Node cannot parse, and an unknown Expect, with the envelope', async () => {
    for (const request of ['FOO /v1/school-info HTTP/1.1\r\nHost: x\r\n\r\n', 'GET /v1/school-info HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n', 'GET /v1/school-info HTTP/9.9\r\nHost: x\r\n\r\n']) {
      const res = await raw(request);
      expect(res.status, request).toBe(400);
      expect(JSON.parse(res.body), request).toEqual({ code: ERRORS.INVALID_REQUEST.code, msg: errorText('INVALID_REQUEST', 'zh-hk'), data: null });
    }
    const expectation = await raw('POST /v1/login HTTP/1.1\r\nHost: x\r\nAccept-Language: en\r\nExpect: 200-ok\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}');
    expect(expectation.status).toBe(417);
    expect(JSON.parse(expectation.body)).toEqual({ code: ERRORS.EXPECTATION_FAILED.code, msg: errorText('EXPECTATION_FAILED', 'en'), data: null });
  });
});

describe('logs', () => {
  const lines: string[] = [];
  let app: FastifyInstance;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const database = await createTestDatabase();
    const config = testConfig(database, { logLevel: 'info' });
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
