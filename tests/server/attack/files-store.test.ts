import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unzipSync, zipSync } from 'fflate';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/server/app.js';
import type { DB } from '../../../src/server/db/connect.js';
import { ERRORS } from '../../../src/shared/errors.js';
import { uploads } from '../../../src/server/storage/file-store.js';
import { jobError } from '../../../src/server/backup/service.js';
import { bearer, login, testApp, type TestApp } from '../harness.js';
import { multipart } from '../master/helpers.js';
import { dumpTables } from '../backup/dump.js';

/**
 * The file store (src/server/storage/file-store.ts) as a caller meets it: what /qe/storage/
 * serves (images only as images; anything else as a download, never a page on QE's origin), a
 * restore refused for a file that is not an image, and — on PostgreSQL — two instances on one
 * database that are one QE: an image or a backup stored through one is read through the other,
 * also once the first is closed, and only one backup or restore runs across them.
 */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const onPostgres = Boolean(process.env.DATABASE_URL);

const call = (app: FastifyInstance, tk: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
  app.inject({ method, url, payload: payload as never, headers: { ...bearer(tk), 'accept-language': 'en' } });

async function uploadLogo(app: FastifyInstance, tk: string, content = PNG): Promise<string> {
  const body = multipart('logo.png', content, 'image/png');
  const res = await app.inject({ method: 'POST', url: '/v1/school/logo', headers: { ...body.headers, ...bearer(tk) }, payload: body.payload });
  expect(res.json().code, res.body).toBe(200);
  return res.json().data.schoolLogo as string;
}

async function waitForJob(app: FastifyInstance, tk: string): Promise<{ state: string; name: string; error: unknown; done: number; total: number }> {
  for (let i = 0; i < 3000; i++) {
    const job = (await call(app, tk, 'GET', '/v1/backups/job')).json().data;
    if (job && job.state !== 'running') return job;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the job did not end');
}

/** A backup made through the API, its archive downloaded. */
async function backupArchive(app: FastifyInstance, tk: string): Promise<{ name: string; bytes: Buffer }> {
  const started = await call(app, tk, 'POST', '/v1/backups', {});
  expect(started.statusCode, started.body).toBe(202);
  const job = await waitForJob(app, tk);
  expect(job.state).toBe('done');
  const file = await call(app, tk, 'GET', `/v1/backups/${job.name}/download`);
  expect(file.statusCode).toBe(200);
  return { name: job.name, bytes: file.rawPayload };
}

/** The archive with `extra` files added under files/, its manifest's checksums and count made to match (so only the content check can refuse it). */
function withFiles(bytes: Buffer, extra: Record<string, Buffer>): Buffer {
  const entries = unzipSync(new Uint8Array(bytes));
  const manifest = JSON.parse(new TextDecoder().decode(entries['manifest.json'])) as { sha256: Record<string, string>; files: number };
  for (const [name, content] of Object.entries(extra)) {
    entries[name] = new Uint8Array(content);
    manifest.sha256[name] = createHash('sha256').update(content).digest('hex');
    manifest.files++;
  }
  entries['manifest.json'] = new TextEncoder().encode(JSON.stringify(manifest));
  return Buffer.from(zipSync(entries));
}

describe('the file store, on either database', () => {
  let t: TestApp;
  let tk: string;
  beforeAll(async () => {
    t = await testApp({ demo: true });
    tk = (await login(t.app, 'superadmin')).tk;
  });
  afterAll(async () => t?.close());

  it('serves a stored image as its kind, cached for good under its random name, with nosniff and a sandbox', async () => {
    const path = await uploadLogo(t.app, tk);
    const res = await t.app.inject({ method: 'GET', url: `/qe/storage/${path}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toMatch(/^sandbox\b/);
    expect(res.headers['cache-control']).toMatch(/immutable/);
    expect(res.headers['content-disposition']).toBeUndefined();
    expect(res.rawPayload.equals(PNG)).toBe(true);
    const again = await t.app.inject({ method: 'GET', url: `/qe/storage/${path}`, headers: { 'if-none-match': String(res.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });

  it('sends anything in the store that is not an image as a download of bytes, never as a page, SVG or script', async () => {
    const store = uploads(t.db, t.config);
    const planted: Record<string, string> = {
      'school/x.html': '<html><script>alert(document.cookie)</script></html>',
      'school/evil.svg': '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>',
      'school/run.js': 'alert(1)',
      'school/fake.png': '<script>alert(1)</script>',
    };
    for (const [path, text] of Object.entries(planted)) {
      await store.write(path, Buffer.from(text));
      const res = await t.app.inject({ method: 'GET', url: `/qe/storage/${path}` });
      expect(res.statusCode, path).toBe(200);
      expect(res.headers['content-type'], path).toBe('application/octet-stream');
      expect(res.headers['content-disposition'], path).toBe('attachment');
      expect(res.headers['x-content-type-options'], path).toBe('nosniff');
      expect(res.headers['content-security-policy'], path).toMatch(/^sandbox\b/);
    }
  });

  it('keeps nothing of a file whose writing fails part way (more than a chunk in): not listed, not served, no partial left', async () => {
    const store = uploads(t.db, t.config);
    async function* cutShort() {
      yield Buffer.concat([PNG, Buffer.alloc(1024 * 1024, 7)]);
      yield Buffer.alloc(512 * 1024, 8);
      throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    }
    await expect(store.write('school/cut.png', cutShort())).rejects.toMatchObject({ code: 'ENOSPC' });
    expect((await store.list()).map((f) => f.path)).not.toContain('school/cut.png');
    expect((await t.app.inject({ method: 'GET', url: '/qe/storage/school/cut.png' })).statusCode).toBe(404);
    if (onPostgres) expect(await t.db.selectFrom('stored_files').select('id').where('complete', '=', 0).execute()).toEqual([]);
    else expect(readdirSync(join(t.config.storageDir, 'school')).filter((f) => f.startsWith('.'))).toEqual([]);
  });

  it('streams a file of several chunks back whole', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(2.5 * 1024 * 1024, 3)]);
    await uploads(t.db, t.config).write('school/big.png', big);
    const res = await t.app.inject({ method: 'GET', url: '/qe/storage/school/big.png' });
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.rawPayload.equals(big)).toBe(true);
  });

  it('refuses paths out of the store and hidden files', async () => {
    await uploads(t.db, t.config).write('school/x.png', PNG);
    for (const url of ['/qe/storage/..%2fsecret.key', '/qe/storage/.hidden', '/qe/storage/school/.x.png', '/qe/storage/school/none.png', '/qe/storage/school//x.png', '/qe/storage/%2fetc%2fpasswd']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toContain(t.config.secret);
    }
  });

  it('refuses a restore whose archive holds files/x.html or files/evil.svg (766, naming the file), the data unchanged', async () => {
    const logo = await uploadLogo(t.app, tk);
    const { bytes } = await backupArchive(t.app, tk);
    for (const [name, content] of [
      ['files/x.html', Buffer.from('<html><script>alert(1)</script></html>')],
      ['files/school/evil.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>')],
    ] as const) {
      const archive = withFiles(bytes, { [name]: content });
      const body = multipart('hostile.qe.zip', archive);
      const up = await t.app.inject({ method: 'POST', url: '/v1/backups/upload', payload: body.payload, headers: { ...body.headers, ...bearer(tk), 'accept-language': 'en' } });
      expect(up.statusCode, up.body).toBe(201);
      const uploaded = up.json().data.name as string;
      await t.db.updateTable('users').set({ name_en: 'After the backup' }).where('username', '=', 'teacher02').execute();
      const before = await dumpTables(t.db);
      const res = await call(t.app, tk, 'POST', `/v1/backups/${uploaded}/restore`, { confirm: uploaded });
      expect(res.json().code, res.body).toBe(ERRORS.BACKUP_CONTENT_REFUSED.code);
      expect(res.json().msg).toContain(name);
      expect(await dumpTables(t.db)).toEqual(before);
      // the live files too, and the caller's session
      expect((await t.app.inject({ method: 'GET', url: `/qe/storage/${logo}` })).statusCode).toBe(200);
      expect((await call(t.app, tk, 'GET', '/v1/backups/job')).json().data).toMatchObject({ kind: 'restore', state: 'failed', error: { code: ERRORS.BACKUP_CONTENT_REFUSED.code } });
    }
  });

  it('restores the images of an archive into the store and serves them', async () => {
    const logo = await uploadLogo(t.app, tk);
    const { name } = await backupArchive(t.app, tk);
    await uploads(t.db, t.config).delete(logo);
    expect((await t.app.inject({ method: 'GET', url: `/qe/storage/${logo}` })).statusCode).toBe(404);
    const res = await call(t.app, tk, 'POST', `/v1/backups/${name}/restore`, { confirm: name });
    expect(res.json().code, res.body).toBe(200);
    const served = await t.app.inject({ method: 'GET', url: `/qe/storage/${logo}` });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(PNG)).toBe(true);
  });

  it('lets one backup run at a time: a second start answers 750', async () => {
    tk = (await login(t.app, 'superadmin')).tk;
    const [a, b] = await Promise.all([call(t.app, tk, 'POST', '/v1/backups', {}), call(t.app, tk, 'POST', '/v1/backups', {})]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([202, 409]);
    expect([a, b].find((r) => r.statusCode === 409)!.json().code).toBe(ERRORS.BACKUP_RUNNING.code);
    expect((await waitForJob(t.app, tk)).state).toBe('done');
  });
});

describe('the backup job in the database, on either database', () => {
  let t: TestApp;
  let tk: string;
  beforeAll(async () => {
    t = await testApp({ demo: true });
    tk = (await login(t.app, 'superadmin')).tk;
  });
  afterAll(async () => t?.close());

  it('is held by a running job that says it is alive, and no longer by one whose instance stopped (its heartbeat stale)', async () => {
    await t.db.updateTable('backup_job').set({ job_id: 'elsewhere', kind: 'backup', state: 'running', name: 'qe-20260101-000000.qe.zip', heartbeat_at: Date.now() }).where('id', '=', 1).execute();
    expect((await call(t.app, tk, 'GET', '/v1/backups/job')).json().data).toMatchObject({ id: 'elsewhere', state: 'running' });
    expect((await call(t.app, tk, 'POST', '/v1/backups', {})).json().code).toBe(ERRORS.BACKUP_RUNNING.code);
    // its instance died a minute ago
    await t.db.updateTable('backup_job').set({ heartbeat_at: Date.now() - 60_000 }).where('id', '=', 1).execute();
    expect((await call(t.app, tk, 'GET', '/v1/backups/job')).json().data).toMatchObject({ id: 'elsewhere', state: 'failed', error: { message: expect.stringMatching(/interrupted/) } });
    const started = await call(t.app, tk, 'POST', '/v1/backups', {});
    expect(started.statusCode, started.body).toBe(202);
    expect((await waitForJob(t.app, tk)).state).toBe('done');
  });

  it('removes what a backup stopped mid-way left on the disk, once an hour old, and nothing else', async () => {
    const { BackupService } = await import('../../../src/server/backup/service.js');
    const { utimesSync } = await import('node:fs');
    const old = ['.backup-0123456789abcdef.qe.zip.partial', '.local-0123456789ab-qe-20260101-000000.qe.zip', 'upload-0123456789abcdef.part'];
    const kept = ['.backup-fedcba9876543210.qe.zip.partial', 'keep-me.txt'];
    for (const name of [...old, ...kept]) writeFileSync(join(t.config.dataDir, name), 'x');
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
    for (const name of [...old, 'keep-me.txt']) utimesSync(join(t.config.dataDir, name), twoHoursAgo, twoHoursAgo);
    new BackupService(t.db, t.config).sweepLeftovers();
    const left = readdirSync(t.config.dataDir);
    for (const name of old) expect(left).not.toContain(name);
    for (const name of kept) expect(left).toContain(name);
    for (const name of kept) (await import('node:fs')).rmSync(join(t.config.dataDir, name));
  });

  it('names a full disk in a failed job as DISK_FULL (763): this instance\'s (ENOSPC) or PostgreSQL\'s (53100)', () => {
    for (const code of ['ENOSPC', '53100']) expect(jobError(Object.assign(new Error('no space'), { code })).code).toBe(ERRORS.DISK_FULL.code);
  });

  it.skipIf(onPostgres)('reports a backup that cannot be kept as failed and leaves no partial file behind (SQLite: the backups folder)', async () => {
    const folder = join(t.config.dataDir, 'backups');
    const { rmSync } = await import('node:fs');
    rmSync(folder, { recursive: true, force: true });
    // a file where the folder should be: the finished archive cannot be put in place
    writeFileSync(folder, 'in the way');
    try {
      expect((await call(t.app, tk, 'POST', '/v1/backups', {})).statusCode).toBe(202);
      const job = await waitForJob(t.app, tk);
      expect(job).toMatchObject({ state: 'failed', error: { code: expect.any(Number) } });
      expect(readdirSync(t.config.dataDir).filter((f) => /partial|\.backup-/.test(f))).toEqual([]);
    } finally {
      rmSync(folder, { force: true });
    }
  });
});

describe.skipIf(!onPostgres)('two instances on one PostgreSQL database (PostgreSQL only: SQLite is one server)', () => {
  let t: TestApp;
  let second: { app: FastifyInstance; db: DB } | null = null;
  let tk1: string;
  let tk2: string;
  let dataDir: string;
  beforeAll(async () => {
    t = await testApp({ demo: true });
    // another instance: the same database, a data folder of its own (its own disk)
    dataDir = mkdtempSync(join(tmpdir(), 'qe-second-'));
    // an image this instance kept on its own disk before the file store: taken into the database at start
    mkdirSync(join(dataDir, 'storage', 'school'), { recursive: true });
    writeFileSync(join(dataDir, 'storage', 'school', 'logo-0ld.png'), PNG);
    second = await buildApp({ ...t.config, dataDir, storageDir: join(dataDir, 'storage') }, { logger: false });
    await second.app.ready();
    tk1 = (await login(t.app, 'superadmin')).tk;
    tk2 = (await login(second.app, 'superadmin')).tk;
  });
  afterAll(async () => {
    await second?.app.close();
    await t?.close();
  });

  it('serves the images an instance kept on its own disk before, through every instance', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/qe/storage/school/logo-0ld.png' });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(PNG)).toBe(true);
    expect(existsSync(join(dataDir, 'storage', 'school', 'logo-0ld.png'))).toBe(false);
  });

  it('serves an image uploaded through one instance through the other, with its type and headers', async () => {
    const path = await uploadLogo(t.app, tk1);
    const res = await second!.app.inject({ method: 'GET', url: `/qe/storage/${path}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.rawPayload.equals(PNG)).toBe(true);
    // removed through the second: gone on the first
    expect((await call(second!.app, tk2, 'DELETE', '/v1/school/logo')).json().code).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/qe/storage/${path}` })).statusCode).toBe(404);
  });

  it('lets one backup run across both instances: simultaneous starts answer one 202 and one 750', async () => {
    const [a, b] = await Promise.all([call(t.app, tk1, 'POST', '/v1/backups', {}), call(second!.app, tk2, 'POST', '/v1/backups', {})]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([202, 409]);
    expect([a, b].find((r) => r.statusCode === 409)!.json().code).toBe(ERRORS.BACKUP_RUNNING.code);
    // the job, polled through the other instance
    const started = [a, b].find((r) => r.statusCode === 202)!.json().data;
    const other = a.statusCode === 202 ? second!.app : t.app;
    const seen = (await call(other, a.statusCode === 202 ? tk2 : tk1, 'GET', '/v1/backups/job')).json().data;
    expect(seen).toMatchObject({ id: started.id, kind: 'backup' });
    const done = await waitForJob(other, a.statusCode === 202 ? tk2 : tk1);
    expect(done).toMatchObject({ state: 'done', name: started.name, error: null });
    expect(done.done).toBe(done.total);
  });

  it('lists and serves a backup made on the first instance through the second, after the first has stopped', async () => {
    const { name, bytes } = await backupArchive(t.app, tk1);
    await t.app.close();
    const list = (await call(second!.app, tk2, 'GET', '/v1/backups')).json().data;
    expect(list.list.map((b: { name: string }) => b.name)).toContain(name);
    expect(list.list.find((b: { name: string }) => b.name === name)).toMatchObject({ size: bytes.length, encrypted: false, createdBy: { name: expect.any(String) } });
    const file = await call(second!.app, tk2, 'GET', `/v1/backups/${name}/download`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/zip');
    expect(file.rawPayload.equals(bytes)).toBe(true);
    expect((await call(second!.app, tk2, 'DELETE', `/v1/backups/${name}`)).json().code).toBe(200);
    expect((await call(second!.app, tk2, 'GET', `/v1/backups/${name}/download`)).json().code).toBe(ERRORS.BACKUP_NOT_FOUND.code);
  });
});
