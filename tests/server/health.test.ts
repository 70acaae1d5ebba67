import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/server/app.js';
import { createTestDatabase } from '../support/database.js';
import { testConfig } from '../support/config.js';
import { seedDemoSchool } from '../../src/server/demo/seed.js';

/**
 * The health checks a load balancer reads (GET /qe/health/live and /qe/health/ready) and an
 * instance's drain: readiness 503 while draining, a restore holds writes or the database does
 * not answer; calls still served while draining; SERVER_CLOSING with Connection: close once closing.
 */
const closeAll: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closeAll.splice(0).reverse()) await close();
});

async function instance(demo = false): Promise<App> {
  const database = await createTestDatabase();
  const built = await buildApp(testConfig(database), { logger: false });
  if (demo) await seedDemoSchool(built.db);
  await built.app.ready();
  closeAll.push(async () => {
    await built.app.close();
    await database.drop();
  });
  return built;
}

describe('health checks', () => {
  it('liveness and readiness answer 200 envelopes, kept by no cache, to anyone', async () => {
    const { app } = await instance();
    for (const url of ['/qe/health/live', '/qe/health/ready']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.json(), url).toMatchObject({ code: 200, msg: 'success' });
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
  });

  it('is not logged per call at the info level, unlike an API call', async () => {
    const database = await createTestDatabase();
    const lines: string[] = [];
    const stream = { write: (line: string) => lines.push(line) };
    const built = await buildApp(testConfig(database, { logLevel: 'info' }), { logger: { level: 'info', stream } });
    closeAll.push(async () => {
      await built.app.close();
      await database.drop();
    });
    await built.app.inject({ method: 'GET', url: '/qe/health/live' });
    await built.app.inject({ method: 'GET', url: '/qe/health/ready' });
    expect(lines.filter((l) => l.includes('/qe/health/'))).toEqual([]);
    await built.app.inject({ method: 'GET', url: '/v1/school-info' });
    expect(lines.filter((l) => l.includes('/v1/school-info')).length).toBeGreaterThan(0);
  });

  it('readiness is asked again and again without a limit', async () => {
    const { app } = await instance();
    const answers = await Promise.all(Array.from({ length: 60 }, () => app.inject({ method: 'GET', url: '/qe/health/ready' })));
    expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 200));
  });

  it('readiness answers 503 RESTORING while a restore holds writes, and 200 again after', async () => {
    const { app, gate } = await instance();
    await gate.close(1000);
    const held = await app.inject({ method: 'GET', url: '/qe/health/ready', headers: { 'accept-language': 'en' } });
    expect(held.statusCode).toBe(503);
    expect(held.json()).toMatchObject({ code: 759, msg: expect.stringContaining('restoring') });
    expect((await app.inject({ method: 'GET', url: '/qe/health/live' })).statusCode).toBe(200);
    gate.open();
    expect((await app.inject({ method: 'GET', url: '/qe/health/ready' })).statusCode).toBe(200);
  });

  it('draining: readiness 503 SERVER_CLOSING at once while calls are still served, each on a connection closed after it', async () => {
    const { app, instance: state } = await instance(true);
    state.drain();
    const ready = await app.inject({ method: 'GET', url: '/qe/health/ready', headers: { 'accept-language': 'en' } });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ code: 764, msg: 'The server is restarting: try again in a moment' });
    expect((await app.inject({ method: 'GET', url: '/qe/health/live' })).statusCode).toBe(200);
    const login = await app.inject({ method: 'POST', url: '/v1/login', payload: { username: 'admin', password: 'Passw0rd!' } });
    expect(login.json()).toMatchObject({ code: 200 });
    expect(login.headers.connection).toBe('close');
  });

  it('closing: a call that still arrives is refused SERVER_CLOSING with Connection: close, nothing of it done', async () => {
    const { app, db, instance: state } = await instance(true);
    state.drain();
    state.close();
    const login = await app.inject({ method: 'POST', url: '/v1/login', payload: { username: 'admin', password: 'Passw0rd!' }, headers: { 'accept-language': 'en' } });
    expect(login.statusCode).toBe(503);
    expect(login.json()).toMatchObject({ code: 764, data: null });
    expect(login.headers.connection).toBe('close');
    // no session was opened by the refused login
    const sessions = await db.selectFrom('sessions').select('id').execute();
    expect(sessions).toEqual([]);
  });
});

/** A TCP proxy to PostgreSQL that can stop passing bytes on (a database gone quiet) and pass them on again. */
async function quietProxy(target: URL): Promise<{ port: number; quiet(on: boolean): void; close(): Promise<void> }> {
  let silent = false;
  const held: (() => void)[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    const pass = (from: Socket, to: Socket) =>
      from.on('data', (chunk) => {
        if (silent) held.push(() => to.write(chunk));
        else to.write(chunk);
      });
    pass(client, upstream);
    pass(upstream, client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    quiet(on) {
      silent = on;
      if (!on) for (const send of held.splice(0)) send();
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe.skipIf(!process.env.DATABASE_URL)('readiness when the database does not answer (PostgreSQL only: SQLite is a file, not a server that can go quiet)', () => {
  it('answers 503 DATABASE_UNAVAILABLE within about a second, and 200 again once it answers', async () => {
    // the instance reaches its database through the proxy
    const database = await createTestDatabase();
    const target = new URL(database.databaseUrl!);
    const proxy = await quietProxy(target);
    const through = new URL(target);
    through.hostname = '127.0.0.1';
    through.port = String(proxy.port);
    const built = await buildApp(testConfig({ dataDir: database.dataDir, databaseUrl: through.toString() }), { logger: false });
    closeAll.push(async () => {
      proxy.quiet(false);
      await built.app.close();
      await proxy.close();
      await database.drop();
    });
    expect((await built.app.inject({ method: 'GET', url: '/qe/health/ready' })).statusCode).toBe(200);
    proxy.quiet(true);
    const started = Date.now();
    const quiet = await built.app.inject({ method: 'GET', url: '/qe/health/ready', headers: { 'accept-language': 'en' } });
    expect(quiet.statusCode).toBe(503);
    expect(quiet.json()).toMatchObject({ code: 762 });
    // a bound, not a timing claim: the check gives up rather than hanging with the database
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await built.app.inject({ method: 'GET', url: '/qe/health/live' })).statusCode).toBe(200);
    proxy.quiet(false);
    await expect.poll(async () => (await built.app.inject({ method: 'GET', url: '/qe/health/ready' })).statusCode, { timeout: 10_000 }).toBe(200);
  });
});
