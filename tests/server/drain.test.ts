import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/database.js';
import { call, QeProcess, qeEnv } from '../support/qe-process.js';

/**
 * Stopping a real QE process (src/server/main.ts) as a service manager does, behind a load
 * balancer: on SIGTERM its readiness answers 503 (764) at once while calls are still served for
 * QE_DRAIN_SECONDS; a second signal changes nothing; then it stops accepting, a call already
 * inside (its body still coming) is answered in full, not cut, and the process exits 0.
 */
describe('SIGTERM drains, then closes without cutting a call', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let qe: QeProcess;

  beforeAll(async () => {
    database = await createTestDatabase();
    const env = await qeEnv(database, 'drain-test-secret-0123456789abcdefghij', { QE_DRAIN_SECONDS: '3' });
    qe = new QeProcess(env, `http://127.0.0.1:${env.PORT}`);
    await qe.start(['--demo'], { signals: true });
  }, 180_000);

  afterAll(async () => {
    await qe?.kill();
    await database?.drop();
  }, 60_000);

  it('readiness 503 at once, calls served while draining, the call inside finished after closing, exit 0', async () => {
    const port = Number(new URL(qe.base).port);
    expect((await call(qe.base, 'GET', '/qe/health/ready')).status).toBe(200);

    // a login whose body is still coming when the instance stops accepting
    const body = JSON.stringify({ username: 'admin', password: 'Passw0rd!' });
    const inside = request({ host: '127.0.0.1', port, path: '/v1/login', method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } });
    const answered = new Promise<{ status: number; text: string }>((resolve, reject) => {
      inside.on('error', reject);
      inside.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      });
    });
    inside.write(body.slice(0, 10));
    inside.flushHeaders();
    await new Promise((r) => setTimeout(r, 300));

    qe.signal('SIGTERM');
    await expect.poll(async () => (await call(qe.base, 'GET', '/qe/health/ready')).body.code, { timeout: 5000, interval: 50 }).toBe(764);
    const ready = await call(qe.base, 'GET', '/qe/health/ready');
    expect(ready.status).toBe(503);
    // a repeated signal (npm passing a Ctrl-C on) does not cut the drain short
    qe.signal('SIGINT');
    // still served while the balancer takes it out
    const served = await call(qe.base, 'GET', '/v1/school-info');
    expect(served.body.code).toBe(200);

    // then it stops accepting: a new connection is refused
    await expect.poll(async () => call(qe.base, 'GET', '/qe/health/live').then(() => 'accepted', () => 'refused'), { timeout: 20_000, interval: 100 }).toBe('refused');
    inside.end(body.slice(10));
    const { status, text } = await answered;
    expect(status, text).toBe(200);
    expect(JSON.parse(text)).toMatchObject({ code: 200, data: { tk: expect.any(String) } });
    await qe.waitExit(20_000);
    expect(qe.exitCode).toBe(0);
  }, 120_000);
});
