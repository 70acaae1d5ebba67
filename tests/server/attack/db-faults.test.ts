import SQLite from 'better-sqlite3';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.js';
import { openSession } from '../../../src/server/auth/sessions.js';
import type { Config } from '../../../src/server/config.js';
import type { DB } from '../../../src/server/db/connect.js';
import { seedDemoSchool } from '../../../src/server/demo/seed.js';
import { testConfig } from '../../support/config.js';
import { createTestDatabase } from '../../support/database.js';
import { call, type Answer } from '../../support/qe-process.js';
import { TcpProxy } from '../../support/tcp-proxy.js';
import { everyType, goodAnswers, newKey, storedReplies } from '../filling/helpers.js';

/**
 * The database going away under traffic: PostgreSQL's backends terminated (pg_terminate_backend
 * on this test's database only) and the server "restarted" (a TCP proxy of the test's own between
 * QE and PostgreSQL, cut and brought back; the shared server is never touched); on SQLite another
 * writer holding the lock past busy_timeout. QE listens on a real port: every answer during the
 * fault is an acknowledgement or the envelope DATABASE_UNAVAILABLE (762, HTTP 503), never a 500
 * or a dropped connection; the process (this test's, QE runs in it) stays up; QE serves again
 * once the database is back; a retry under the same submission key stores exactly once.
 */
const STUDENTS = 200;
const WAVE = 10;
const WAVE_MS = 25;
const wave = (i: number) => new Promise((resolve) => setTimeout(resolve, Math.floor(i / WAVE) * WAVE_MS));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Outcome = { answer: Answer } | { error: string };
const acknowledged = (o: Outcome): o is { answer: Answer } => 'answer' in o && o.answer.status === 200 && o.answer.body.code === 200;
const toldToRetry = (o: Outcome) => 'answer' in o && o.answer.status === 503 && o.answer.body.code === 762;

interface Running {
  app: FastifyInstance;
  db: DB;
  config: Config;
  base: string;
  teacher: string;
  superadmin: string;
  students: { id: number; token: string }[];
}

async function start(database: { dataDir: string; databaseUrl?: string }, overrides: Partial<Config> = {}): Promise<Running> {
  const config = testConfig(database, { schedulerSeconds: 1, anonymousMixSeconds: 1, ...overrides });
  const { app, db } = await buildApp(config, { logger: false });
  await seedDemoSchool(db);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const user = (username: string) => db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow();
  const teacher = await openSession(db, config, (await user('teacher01')).id);
  const superadmin = await openSession(db, config, (await user('superadmin')).id);
  const ids = await db.selectFrom('users').select('id').where('user_type', '=', 'STUDENT').orderBy('id').limit(STUDENTS).execute();
  const students = [];
  for (const { id } of ids) students.push({ id, token: await openSession(db, config, id) });
  return { app, db, config, base, teacher, superadmin, students };
}

async function openQuestionnaire(qe: Running, type: 'NAMED' | 'ANONYMOUS'): Promise<number> {
  const created = await call(qe.base, 'POST', '/v1/questionnaires', qe.teacher, {
    title: `Faults (${type})`,
    type,
    targets: [{ kind: 'USERS', ids: qe.students.map((s) => s.id) }],
    definition: everyType(),
    openDate: new Date(Date.now() - 60_000).toISOString(),
    endDate: new Date(Date.now() + 86_400_000).toISOString(),
  });
  expect(created.body, JSON.stringify(created.body)).toMatchObject({ code: 201 });
  const id = (created.body.data as unknown as { id: number }).id;
  const ready = await call(qe.base, 'POST', `/v1/questionnaires/${id}/ready`, qe.teacher);
  expect(ready.body, JSON.stringify(ready.body)).toMatchObject({ code: 200 });
  return id;
}

const submit = (qe: Running, i: number, questionnaireId: number, key: string) =>
  call(qe.base, 'POST', `/v1/my/questionnaires/${questionnaireId}/replies`, qe.students[i].token, { submissionKey: key, answers: { ...goodAnswers(), name: `S${i}` } });

/** Sends everyone's submission in waves; `fault` is started once `faultAt` are acknowledged. */
async function burst(qe: Running, questionnaireId: number, keys: string[], faultAt: number, fault: () => Promise<void>): Promise<{ outcomes: Outcome[]; faulted: Promise<void> | null }> {
  let acks = 0;
  let faulted: Promise<void> | null = null;
  const outcomes = await Promise.all(
    qe.students.map((_, i) =>
      wave(i).then(() => submit(qe, i, questionnaireId, keys[i])).then(
        (answer): Outcome => {
          if (acknowledged({ answer }) && ++acks === faultAt) faulted = fault();
          return { answer };
        },
        (error: Error): Outcome => ({ error: error.message }),
      ),
    ),
  );
  return { outcomes, faulted };
}

/** Every answer an acknowledgement or "try again"; then each one not acknowledged sent again with its key until it is (bounded). */
async function settle(qe: Running, questionnaireId: number, keys: string[], outcomes: Outcome[]) {
  const otherwise = outcomes.filter((o) => !acknowledged(o) && !toldToRetry(o));
  expect(otherwise, JSON.stringify(otherwise.slice(0, 3))).toEqual([]);
  const acked = outcomes.map((o) => (acknowledged(o) ? o.answer.body.data?.submittedAt : undefined));
  for (let round = 0; round < 30 && acked.some((a) => a === undefined); round++) {
    if (round > 0) await sleep(1000);
    for (const [i, a] of acked.entries()) {
      if (a !== undefined) continue;
      const again: Outcome = await submit(qe, i, questionnaireId, keys[i]).then((answer) => ({ answer }), (e: Error) => ({ error: e.message }));
      expect(acknowledged(again) || toldToRetry(again), JSON.stringify(again)).toBe(true);
      if (acknowledged(again)) acked[i] = again.answer.body.data?.submittedAt;
    }
  }
  expect(acked.filter((a) => a === undefined).length, 'every submission acknowledged once the database is back').toBe(0);
  // stored exactly once each, under the student's own key, at the time first acknowledged
  const feedback = await qe.db.selectFrom('feedback').select(['user_id', 'status', 'submission_key', 'submitted_at']).where('questionnaire_id', '=', questionnaireId).execute();
  const byUser = new Map(feedback.map((f) => [f.user_id, f]));
  for (const [i, s] of qe.students.entries()) {
    expect(byUser.get(s.id), `student ${i}`).toMatchObject({ status: 'SUBMITTED', submission_key: keys[i] });
    if (outcomes[i] && acknowledged(outcomes[i])) expect(byUser.get(s.id)!.submitted_at, `student ${i}`).toBe(acked[i]);
  }
  expect((await storedReplies(qe.db, questionnaireId)).length).toBe(STUDENTS);
  // sending again answers the first result and stores nothing new
  const again = await submit(qe, 0, questionnaireId, keys[0]);
  expect(again.body).toMatchObject({ code: 200, data: { submittedAt: acked[0] } });
  expect((await storedReplies(qe.db, questionnaireId)).length).toBe(STUDENTS);
}

/** Reads beside the submissions: the statistics and their xlsx export answer 200 or "try again", never 500 or 719. */
async function readsDuring(qe: Running, questionnaireId: number, until: () => boolean): Promise<number[]> {
  const statuses: number[] = [];
  while (!until()) {
    const stats = await call(qe.base, 'GET', `/v1/statistics/${questionnaireId}`, qe.teacher).catch((e: Error) => ({ status: -1, body: { code: -1, msg: e.message } }) as Answer);
    statuses.push(stats.status === 200 ? 200 : stats.body.code);
    const xlsx = await qe.app.inject({ method: 'GET', url: `/v1/statistics/${questionnaireId}/export`, headers: { authorization: `Bearer ${qe.teacher}`, 'accept-language': 'en' } });
    statuses.push(xlsx.statusCode === 200 ? 200 : xlsx.json().code);
    await sleep(50);
  }
  return statuses;
}

describe.skipIf(!process.env.DATABASE_URL)('PostgreSQL goes away during traffic (PostgreSQL only: SQLite has no server)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let proxy: TcpProxy;
  let qe: Running;
  let admin: pg.Client;
  let dbName: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    const url = new URL(database.databaseUrl!);
    dbName = url.pathname.slice(1);
    proxy = new TcpProxy(url.hostname, Number(url.port || 5432));
    await proxy.start();
    const proxied = new URL(url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    qe = await start({ dataDir: database.dataDir, databaseUrl: proxied.toString() });
    admin = new pg.Client({ connectionString: database.databaseUrl });
    await admin.connect();
  }, 180_000);

  afterAll(async () => {
    await qe?.app.close();
    await admin?.end();
    await proxy?.stop();
    await database?.drop();
  }, 60_000);

  const terminate = () => admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [dbName]);

  it('backends terminated again and again during 200 submissions, statistics and exports: nothing lost or doubled', async () => {
    const id = await openQuestionnaire(qe, 'NAMED');
    const keys = qe.students.map(() => newKey());
    let done = false;
    const reads = readsDuring(qe, id, () => done);
    const { outcomes, faulted } = await burst(qe, id, keys, 30, async () => {
      for (let k = 0; k < 6; k++) {
        await terminate();
        await sleep(60);
      }
    });
    expect(faulted, 'the backends were terminated while submissions were in flight').not.toBeNull();
    await faulted;
    done = true;
    const statuses = await reads;
    expect(statuses.filter((s) => s !== 200 && s !== 762), 'reads during the fault').toEqual([]);
    await settle(qe, id, keys, outcomes);
  }, 240_000);

  it('the server "restarted" (every connection cut, new ones refused, then back): QE serves again without a restart', async () => {
    const id = await openQuestionnaire(qe, 'ANONYMOUS');
    const keys = qe.students.map(() => newKey());
    let done = false;
    const reads = readsDuring(qe, id, () => done);
    const { outcomes, faulted } = await burst(qe, id, keys, 40, async () => {
      await proxy.cut();
      await sleep(1500);
      await proxy.restore();
    });
    expect(faulted).not.toBeNull();
    await faulted;
    done = true;
    const statuses = await reads;
    expect(statuses.filter((s) => s !== 200 && s !== 762), 'reads during the fault').toEqual([]);
    // the cut was met (submissions stored together may all have been answered before it: the reads beside them meet it)
    expect(outcomes.some(toldToRetry) || statuses.includes(762), 'some call met the cut').toBe(true);
    // while it is down, a request is told to try again rather than left waiting
    await proxy.cut();
    const down = await call(qe.base, 'GET', `/v1/statistics/${id}`, qe.teacher);
    expect(down, JSON.stringify(down)).toMatchObject({ status: 503, body: { code: 762 } });
    await proxy.restore();
    await settle(qe, id, keys, outcomes);
    expect((await call(qe.base, 'GET', `/v1/statistics/${id}`, qe.teacher)).status).toBe(200);
  }, 240_000);

  it('a backup whose connection is terminated fails with 762 and leaves no partial archive; the next one is made', async () => {
    const backupJob = async () => {
      for (let i = 0; i < 600; i++) {
        const answer = await call(qe.base, 'GET', '/v1/backups/job', qe.superadmin);
        // the look itself may meet a terminated connection: told to try again
        if (answer.status === 503) expect(answer.body.code).toBe(762);
        const job = answer.body.data as unknown as { state: string; error: { code: number } | null } | null;
        if (job && job.state !== 'running') return job;
        await sleep(50);
      }
      throw new Error('the backup did not end');
    };
    const started = await call(qe.base, 'POST', '/v1/backups', qe.superadmin, {});
    expect(started.status).toBe(202);
    // terminated until the backup ends (it may have finished first: then it is done)
    let ended = false;
    const job = backupJob().finally(() => (ended = true));
    while (!ended) {
      await terminate();
      await sleep(20);
    }
    const result = await job;
    if (result.state === 'failed') expect(result.error).toMatchObject({ code: 762 });
    else expect(result.state).toBe('done');
    const { readdirSync } = await import('node:fs');
    const partial = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? partial(join(dir, e.name)) : /\.partial$/.test(e.name) ? [e.name] : []));
    expect(partial(database.dataDir)).toEqual([]);
    expect((await call(qe.base, 'POST', '/v1/backups', qe.superadmin, {})).status).toBe(202);
    expect(await backupJob()).toMatchObject({ state: 'done' });
  }, 120_000);
});

describe.skipIf(!!process.env.DATABASE_URL)('SQLite locked by another writer past busy_timeout (SQLite only)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let qe: Running;

  beforeAll(async () => {
    database = await createTestDatabase();
    qe = await start(database, { sqliteBusyMs: 200 });
  }, 180_000);

  afterAll(async () => {
    await qe?.app.close();
    await database?.drop();
  }, 60_000);

  it('submissions while the lock is held answer 762, reads go on; after it, a retry under the same key stores once', async () => {
    const id = await openQuestionnaire(qe, 'NAMED');
    const keys = qe.students.map(() => newKey());
    const other = new SQLite(join(database.dataDir, 'qe.sqlite'));
    // the lock held until the answers are in: every submission meanwhile waits busy_timeout, then is told to try again
    other.exec('begin immediate');
    const during = await Promise.all(qe.students.slice(0, 20).map((_, i) => submit(qe, i, id, keys[i]).then((answer): Outcome => ({ answer }), (e: Error): Outcome => ({ error: e.message }))));
    const reads = await call(qe.base, 'GET', `/v1/statistics/${id}`, qe.teacher);
    other.exec('commit');
    other.close();
    expect(during.filter((o) => !toldToRetry(o)), 'submissions while locked').toEqual([]);
    // reading is not held up by a writer (WAL)
    expect(reads.status).toBe(200);
    // then everyone, the twenty again under their keys
    const { outcomes } = await burst(qe, id, keys, STUDENTS + 1, async () => undefined);
    await settle(qe, id, keys, outcomes);
  }, 240_000);
});
