import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../support/config.js';
import { buildApp } from '../../../src/server/app.js';
import { openSession } from '../../../src/server/auth/sessions.js';
import { isPostgres, type DB } from '../../../src/server/db/connect.js';
import { seedDemoSchool } from '../../../src/server/demo/seed.js';
import { createTestDatabase } from '../../support/database.js';
import { pageOwners, places } from '../../support/sqlite-pages.js';
import { caller } from '../master/helpers.js';
import { as, classId, classStudents, data } from '../questionnaires/helpers.js';
import { goodAnswers, newKey, opened } from '../filling/helpers.js';
import { testApp, type TestApp } from '../harness.js';

/**
 * An administrator reads the database files — SQLite's main file and write-ahead log, or
 * PostgreSQL's tables with their hidden columns and dead row versions (pageinspect) — and tries
 * to pair each anonymous reply with the pupil who sent it. Before the mixing job has run, the
 * files pair them (the test shows it can see that); after at most one mixing period nothing does.
 */
/** Where a released reply's answers live: the reply, its text rows, the words of its texts. */
const RELEASED_PLACES = ['replies', 'reply_answers', 'text_terms', 'text_terms_reply_idx', 'term_counts', 'term_totals', 'term_totals_top_idx'];

describe('anonymous replies at rest', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let first: TestApp;
  const markers: string[] = [];
  const keys: string[] = [];
  const pupils: number[] = [];
  let questionnaireId = 0;
  /** PostgreSQL: the transaction id of each submission, read before any mixing */
  let submissionXids: string[] = [];

  /** QE on the test database; `mixSeconds` is the mixing period. */
  async function start(mixSeconds: number): Promise<TestApp> {
    const config = testConfig(database, { schedulerSeconds: 0, anonymousMixSeconds: mixSeconds });
    const { app, db } = await buildApp(config, { logger: false });
    await app.ready();
    return { app, db, config, close: () => app.close() };
  }

  const sqliteFile = () => join(database.dataDir, 'qe.sqlite');
  const read = (file: string) => (existsSync(file) ? readFileSync(file) : Buffer.alloc(0));
  const occurrences = (haystack: Buffer, needle: string) => places(haystack, needle).length;

  beforeAll(async () => {
    database = await createTestDatabase();
    // the first instance mixes once a minute: the submissions below all fall inside one period
    first = await start(60);
    await seedDemoSchool(first.db);
    const teacher = await as(first, 'teacher01');
    const cls = await classId(first.db, '6A');
    pupils.push(...(await classStudents(first.db, '6A')));
    const q = await opened(teacher, [{ kind: 'CLASS', ids: [cls] }], { type: 'ANONYMOUS', title: 'About our teachers' });
    questionnaireId = q.id;
    for (const [i, pupil] of pupils.entries()) {
      const marker = `mk${i}q${crypto.randomUUID().slice(0, 8)}`;
      const key = newKey();
      markers.push(marker);
      keys.push(key);
      const call = caller(first.app, await openSession(first.db, first.config, pupil));
      data(await call('POST', `/v1/my/questionnaires/${q.id}/replies`, { submissionKey: key, answers: { ...goodAnswers(), story: `My teacher ${marker}` } }));
    }
  });

  afterAll(async () => {
    await first?.close().catch(() => undefined);
    await database?.drop();
  });

  it('pairs replies with their respondents before mixing — the attack this suite checks for works', async () => {
    if (isPostgres(first.db)) {
      const { rows } = await sql<{ xmin: string }>`select f.xmin::text as xmin from feedback f join waiting_replies r on r.xmin = f.xmin where f.questionnaire_id = ${questionnaireId}`.execute(first.db);
      submissionXids = rows.map((r) => r.xmin);
      expect(submissionXids).toHaveLength(pupils.length);
    } else {
      // each submission's key (kept on the feedback record) and its answers lie in the log, transaction by transaction
      const wal = read(`${sqliteFile()}-wal`);
      for (const [i, marker] of markers.entries()) {
        expect(occurrences(wal, marker), marker).toBeGreaterThan(0);
        expect(occurrences(wal, keys[i]), keys[i]).toBeGreaterThan(0);
      }
      // the replies wait apart for their release, none among the others yet
      const unmixed = await first.db.selectFrom('waiting_replies').select('id').where('questionnaire_id', '=', questionnaireId).execute();
      expect(unmixed).toHaveLength(pupils.length);
      expect(await first.db.selectFrom('replies').select('id').where('questionnaire_id', '=', questionnaireId).execute()).toEqual([]);
    }
  });

  it('leaves nothing that pairs them after one mixing period, in the tables, free space, the log or dead row versions', async () => {
    await first.close();
    // QE again (a restart, or a second instance) with a one-second period
    const second = await start(1);
    try {
      const db = second.db;
      await eventually(async () => {
        const unmixed = await db.selectFrom('waiting_replies').select('id').where('questionnaire_id', '=', questionnaireId).execute();
        if (unmixed.length) return false;
        return isPostgres(db) ? (await pairedByTransaction(db)).length === 0 : read(`${sqliteFile()}-wal`).length === 0;
      });

      // who has submitted is kept, with the day only
      const feedback = await db.selectFrom('feedback').select(['status', 'submitted_at']).where('questionnaire_id', '=', questionnaireId).execute();
      expect(feedback.filter((f) => f.status === 'SUBMITTED')).toHaveLength(pupils.length);
      for (const f of feedback.filter((r) => r.status === 'SUBMITTED')) expect(f.submitted_at).toMatch(/^\d{4}-\d{2}-\d{2}$/);

      if (isPostgres(db)) {
        // no transaction id of a submission is left on any row version, live or dead, of the replies' side nor the feedback
        expect(await pairedByTransaction(db)).toEqual([]);
        const replyXmins = await sql<{ xmin: string }>`select distinct xmin::text as xmin from replies where questionnaire_id = ${questionnaireId}`.execute(db);
        const feedbackXmins = await sql<{ xmin: string }>`select distinct xmin::text as xmin from feedback where questionnaire_id = ${questionnaireId} and status = 'SUBMITTED'`.execute(db);
        // every reply and every submitted record carries the one mixing transaction's id: it names nobody
        expect(replyXmins.rows).toHaveLength(1);
        expect(feedbackXmins.rows).toEqual(replyXmins.rows);
      } else {
        // the log is empty. In the main file each answer lies in the pages of the released replies,
        // their text rows and their texts' words, and nowhere else: not in the pages the replies waited in (emptied
        // whole, so freed and zeroed), not in free pages. Within those pages a balance may leave a
        // copy of a row in a page's unallocated space (SQLite's rebuildPage): of a reply as
        // released, the only form of it those pages ever held.
        expect(read(`${sqliteFile()}-wal`).length).toBe(0);
        const main = read(sqliteFile());
        const { owner: owners } = await pageOwners(db);
        const replies = await db.selectFrom('replies').select('answers').where('questionnaire_id', '=', questionnaireId).execute();
        const rows = await db.selectFrom('reply_answers').select('value_text').where('questionnaire_id', '=', questionnaireId).execute();
        for (const marker of markers) {
          const live = replies.filter((r) => r.answers.includes(marker)).length + rows.filter((r) => r.value_text?.includes(marker)).length;
          expect(live, marker).toBeGreaterThan(0);
          expect(occurrences(main, marker), `${marker} in the main file`).toBeGreaterThanOrEqual(live);
          // …and the words of those texts (statistics/terms.ts), each table in key order
          expect(places(main, marker).map(owners).filter((o) => !RELEASED_PLACES.includes(o)), marker).toEqual([]);
        }
        // the submission keys stay in the pages of the feedback records
        for (const key of keys) {
          expect(occurrences(main, key), key).toBeGreaterThanOrEqual(1);
          expect(places(main, key).map(owners).filter((o) => o !== 'feedback'), key).toEqual([]);
        }
      }
    } finally {
      await second.close();
    }
  }, 180_000);

  it('keeps the data, its log and the secret readable by their owner only', () => {
    const mode = (path: string) => statSync(path).mode & 0o777;
    expect(mode(database.dataDir)).toBe(0o700);
    expect(mode(join(database.dataDir, 'secret.key'))).toBe(0o600);
    expect(mode(join(database.dataDir, 'storage'))).toBe(0o700);
    if (!database.databaseUrl) {
      for (const f of [sqliteFile(), `${sqliteFile()}-wal`, `${sqliteFile()}-shm`]) if (existsSync(f)) expect(mode(f), f).toBe(0o600);
    }
  });

  /** Row versions (live or dead, every page of the three tables) whose transaction ids are a submission's. */
  async function pairedByTransaction(db: DB): Promise<string[]> {
    await sql`create extension if not exists pageinspect`.execute(db);
    const found: string[] = [];
    for (const table of ['replies', 'waiting_replies', 'reply_answers', 'feedback']) {
      const { rows } = await sql<{ xid: string }>`
        select x.xid from (
          select i.t_xmin::text as xmin, i.t_xmax::text as xmax
          from generate_series(0, pg_relation_size(${table}::regclass) / current_setting('block_size')::int - 1) as p(n),
               lateral heap_page_items(get_raw_page(${table}, p.n::int)) as i
        ) v, lateral (values (v.xmin), (v.xmax)) as x(xid)
        where x.xid = any(${submissionXids}::text[])`.execute(db);
      found.push(...rows.map((r) => `${table}:${r.xid}`));
    }
    return found;
  }
});

describe.skipIf(Boolean(process.env.DATABASE_URL))('the log of a SQLite file that another process is reading', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0, anonymousMixSeconds: 1 } });
  });
  afterAll(async () => t?.close());

  it('is truncated once the reader lets go, without QE waiting for it meanwhile', async () => {
    const file = join(t.config.dataDir, 'qe.sqlite');
    const teacher = await as(t, 'teacher01');
    const q = await opened(teacher, [{ kind: 'CLASS', ids: [await classId(t.db, '5B')] }], { type: 'ANONYMOUS', title: 'Read while mixed' });
    // a backup tool, say, holds a read transaction on the file
    const reader = new SQLite(file, { readonly: true });
    reader.exec('begin');
    reader.prepare('select count(*) from replies').get();
    try {
      for (const pupil of (await classStudents(t.db, '5B')).slice(0, 6)) {
        const call = caller(t.app, await openSession(t.db, t.config, pupil));
        data(await call('POST', `/v1/my/questionnaires/${q.id}/replies`, { submissionKey: newKey(), answers: goodAnswers() }));
      }
      await eventually(async () => (await t.db.selectFrom('replies').select('id').where('questionnaire_id', '=', q.id).where('mixed', '=', 0).execute()).length === 0);
      // mixed, but the log could not be truncated under the reader; QE answers meanwhile
      expect(readFileSync(`${file}-wal`).length).toBeGreaterThan(0);
      expect((await t.app.inject({ method: 'GET', url: '/v1/school-info' })).json().code).toBe(200);
    } finally {
      reader.exec('commit');
      reader.close();
    }
    // the next rounds try again, and succeed
    await eventually(async () => readFileSync(`${file}-wal`).length === 0);
  }, 180_000);
});

/** Polls `check` until it holds (each round at most once a second, 90 s at most on a busy machine). */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 90; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error('the files were not clean after 90 mixing periods');
}
