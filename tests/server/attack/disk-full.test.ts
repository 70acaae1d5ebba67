import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readdirSync, rmSync, rmdirSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.js';
import { openSession } from '../../../src/server/auth/sessions.js';
import type { Config } from '../../../src/server/config.js';
import type { DB } from '../../../src/server/db/connect.js';
import { seedDemoSchool } from '../../../src/server/demo/seed.js';
import { fieldLabel } from '../../../src/shared/master/labels.js';
import { testConfig } from '../../support/config.js';
import { createTestDatabase } from '../../support/database.js';
import { call } from '../../support/qe-process.js';
import { everyType, goodAnswers, newKey, storedReplies } from '../filling/helpers.js';
import { multipart } from '../master/helpers.js';

/**
 * The disk of the data folder fills up: a small tmpfs mounted for the test holds it (the SQLite
 * file and the stored files too on SQLite; on PostgreSQL the temporary files of backups and uploads).
 * Filled to the last byte, a backup,
 * an image upload, a backup upload, a student import and an export are refused with DISK_FULL
 * (763, the envelope) or, where they need no disk, succeed; submissions answer an
 * acknowledgement or an envelope error, never a 500; nothing half-written is left behind; QE
 * (running in this test's process) stays up. Once space returns, everything works again
 * without a restart and the submissions retried under their keys are stored once each.
 */
const STUDENTS = 20;
let mountError = '';
const mnt = mkdtempSync(join(tmpdir(), 'qe-full-'));
try {
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=48m', 'tmpfs', mnt], { stdio: 'pipe' });
} catch (e) {
  mountError = String((e as Error).message).split('\n')[0];
}
if (mountError) console.warn(`disk-full tests skipped: a tmpfs could not be mounted (${mountError}); they need root`);

const STUDENT_IMPORT = ['code', 'username', 'password', 'nameHk', 'nameEn', 'classId', 'studentNumber', 'email', 'status', 'leaveDate'];
async function studentFile(n: number): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('students');
  sheet.addRow(STUDENT_IMPORT.map((f) => fieldLabel('student', f, 'en')));
  sheet.addRow([`S9${n}`, `full${n}`, 'Passw0rd!', '滿', `Full Disk ${n}`, '1A', 900 + n, null, null, null]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
/** A png as QE recognises one (its signature), of `size` bytes. */
const png = (size: number) => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(size - 8, 7)]);

/** Every file under `dir` whose name says it is half-written. */
function leftovers(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...leftovers(path));
    else if (/\.part$|\.partial$|^upload-/.test(name)) found.push(path);
  }
  return found;
}

describe.skipIf(!!mountError)('the data folder\'s disk fills up (both databases; the SQLite file on that disk too)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let app: FastifyInstance;
  let db: DB;
  let config: Config;
  let base: string;
  let admin: string;
  let students: { id: number; token: string }[];
  const filler = join(mnt, 'filler');

  beforeAll(async () => {
    database = await createTestDatabase();
    config = testConfig({ dataDir: mnt, databaseUrl: database.databaseUrl });
    ({ app, db } = await buildApp(config, { logger: false }));
    await seedDemoSchool(db);
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const user = (username: string) => db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow();
    admin = await openSession(db, config, (await user('superadmin')).id);
    const ids = await db.selectFrom('users').select('id').where('user_type', '=', 'STUDENT').orderBy('id').limit(STUDENTS).execute();
    students = [];
    for (const { id } of ids) students.push({ id, token: await openSession(db, config, id) });
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    if (!mountError) {
      // lazily: a worker thread of the closed database may let go of its file a moment later
      execFileSync('umount', ['-l', mnt]);
      rmdirSync(mnt);
    }
    await database?.drop();
  }, 60_000);

  /** Writes to the disk until it refuses: it is then full to the last block. */
  function fill() {
    const fd = openSync(filler, 'w');
    const block = Buffer.alloc(1 << 20, 1);
    try {
      for (;;) writeSync(fd, block);
    } catch {
      // ENOSPC: smaller pieces for the last blocks
      try {
        for (;;) writeSync(fd, block, 0, 4096);
      } catch {
        // full
      }
    } finally {
      closeSync(fd);
    }
  }

  const upload = (url: string, filename: string, content: Buffer) => {
    const { payload, headers } = multipart(filename, content);
    return app.inject({ method: 'POST', url, payload, headers: { ...headers, authorization: `Bearer ${admin}`, 'accept-language': 'en' } });
  };
  const backupJob = async () => {
    for (let i = 0; i < 300; i++) {
      const job = (await call(base, 'GET', '/v1/backups/job', admin)).body.data as unknown as { state: string; error: { code: number } | null };
      if (job.state !== 'running') return job;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the backup did not end');
  };

  it('refuses with DISK_FULL and keeps nothing half-written; once space returns, everything works and nothing is lost or doubled', async () => {
    const created = await call(base, 'POST', '/v1/questionnaires', admin, {
      title: 'Disk full',
      type: 'NAMED',
      targets: [{ kind: 'USERS', ids: students.map((s) => s.id) }],
      definition: everyType(),
      openDate: new Date(Date.now() - 60_000).toISOString(),
      endDate: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(created.body, JSON.stringify(created.body)).toMatchObject({ code: 201 });
    const id = (created.body.data as unknown as { id: number }).id;
    expect((await call(base, 'POST', `/v1/questionnaires/${id}/ready`, admin)).body).toMatchObject({ code: 200 });
    const keys = students.map(() => newKey());
    const submit = (i: number) => call(base, 'POST', `/v1/my/questionnaires/${id}/replies`, students[i].token, { submissionKey: keys[i], answers: { ...goodAnswers(), name: `S${i}` } });

    fill();
    // what a full disk answers: the envelope DISK_FULL, or (PostgreSQL holding the data, SQLite's
    // WAL with room left) success, or the database's "try again"; never a 500
    const envelopeOrDone = (status: number, body: { code: number }) => {
      expect([200, 201, 202, 507, 503], JSON.stringify(body)).toContain(status);
      if (status >= 500) expect([763, 762]).toContain(body.code);
    };
    const submitted = await Promise.all(students.map((_, i) => submit(i)));
    for (const s of submitted) envelopeOrDone(s.status, s.body);
    const acked = submitted.map((s) => (s.status === 200 ? s.body.data?.submittedAt : undefined));

    // a backup writes an archive to the data folder: refused (the job fails with 763)
    const started = await call(base, 'POST', '/v1/backups', admin, {});
    envelopeOrDone(started.status, started.body);
    if (started.status === 202) expect(await backupJob()).toMatchObject({ state: 'failed', error: { code: 763 } });
    else expect(started.body.code).toBe(763);

    // an image: refused on SQLite (kept in the data folder); on PostgreSQL the file store keeps it in the database
    const image = await upload('/v1/questionnaires/images', 'a.png', png(256 * 1024));
    if (database.databaseUrl) expect(image.json(), image.body).toMatchObject({ code: 200 });
    else {
      expect(image.json(), image.body).toMatchObject({ code: 763 });
      expect(image.statusCode).toBe(507);
    }
    // an archive uploaded: written to the data folder first on both databases, refused
    const archive = await upload('/v1/backups/upload', 'a.zip', Buffer.alloc(512 * 1024, 3));
    expect(archive.json(), archive.body).toMatchObject({ code: 763 });

    // an import and an export: refused, or done where they need no disk
    const imported = await upload('/v1/students/import', 'students.xlsx', await studentFile(1));
    envelopeOrDone(imported.statusCode, imported.json());
    const exported = await app.inject({ method: 'GET', url: `/v1/statistics/${id}/export`, headers: { authorization: `Bearer ${admin}`, 'accept-language': 'en' } });
    expect([200, 507, 503]).toContain(exported.statusCode);
    if (exported.statusCode !== 200) expect([763, 762]).toContain(exported.json().code);

    expect(leftovers(mnt)).toEqual([]);
    // the server still answers
    expect((await call(base, 'GET', '/v1/my/user-info', admin)).status).toBe(200);

    // space returns: no restart
    rmSync(filler);
    for (const [i, a] of acked.entries()) {
      const again = await submit(i);
      expect(again.body, JSON.stringify(again.body)).toMatchObject({ code: 200 });
      if (a !== undefined) expect(again.body.data?.submittedAt).toBe(a);
    }
    const feedback = await db.selectFrom('feedback').select(['user_id', 'status', 'submission_key']).where('questionnaire_id', '=', id).execute();
    for (const [i, s] of students.entries()) expect(feedback.find((f) => f.user_id === s.id), `student ${i}`).toMatchObject({ status: 'SUBMITTED', submission_key: keys[i] });
    expect((await storedReplies(db, id)).length).toBe(STUDENTS);

    expect((await call(base, 'POST', '/v1/backups', admin, {})).status).toBe(202);
    expect(await backupJob()).toMatchObject({ state: 'done' });
    expect((await upload('/v1/questionnaires/images', 'a.png', png(1024))).json()).toMatchObject({ code: 200 });
    const importedAfter = await upload('/v1/students/import', 'students.xlsx', await studentFile(2));
    expect(importedAfter.json(), importedAfter.body).toMatchObject({ code: 200 });
    expect(leftovers(mnt)).toEqual([]);
  }, 240_000);
});
