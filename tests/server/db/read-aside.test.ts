import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPostgres } from '../../../src/server/db/connect.js';
import { readAside } from '../../../src/server/db/read-aside.js';
import { scrubRewrittenRows } from '../../../src/server/db/scrub.js';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { testApp, type TestApp } from '../harness.js';

/**
 * Long reads aside (db/read-aside.ts): the same rows as the query run as usual, what was
 * committed just before included; and on SQLite the event loop keeps turning while one runs.
 */
describe('reads aside', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp({ demo: true });
  });
  afterAll(async () => t?.close());

  it('answers the rows the query answers as usual, with its parameters, after a write just committed', async () => {
    await t.db.updateTable('users').set({ name_en: 'Read Aside Check' }).where('username', '=', 'student001').execute();
    const query = t.db
      .selectFrom('users as u')
      .leftJoin('student_classes as sc', 'sc.user_id', 'u.id')
      .select(['u.id', 'u.username', 'u.name_en', 'sc.student_number'])
      .where('u.user_type', '=', 'STUDENT')
      .where('u.name_en', 'like', '%a%')
      .orderBy('u.name_en')
      .orderBy('u.id');
    const usual = await query.execute();
    expect(usual.length).toBeGreaterThan(10);
    expect(await readAside(t.db, query)).toEqual(usual);
    expect((await readAside(t.db, t.db.selectFrom('users').select('name_en').where('username', '=', 'student001')))[0].name_en).toBe('Read Aside Check');
  });

  it('lets the event loop turn while a long read runs (SQLite; PostgreSQL waits on its socket anyway)', async () => {
    if (isPostgres(t.db)) return;
    const long = t.db.selectNoFrom(sql<number>`(with recursive n(i) as (select 1 union all select i + 1 from n where i < 3000000) select count(*) from n)`.as('n'));
    let turns = 0;
    let reading = true;
    const spin = async () => {
      while (reading) {
        await new Promise((resolve) => setImmediate(resolve));
        turns++;
      }
    };
    const spinning = spin();
    const [row] = await readAside(t.db, long);
    reading = false;
    await spinning;
    expect(Number(row.n)).toBe(3_000_000);
    expect(turns).toBeGreaterThan(10);
  });

  it('refuses a query SQLite refuses, with its message, and goes on answering', async () => {
    if (isPostgres(t.db)) return;
    await expect(readAside(t.db, t.db.selectFrom('users').select(sql`no_such_column`.as('x')))).rejects.toThrow(/no_such_column/);
    expect(await readAside(t.db, t.db.selectFrom('users').select('id').where('username', '=', 'admin'))).toHaveLength(1);
  });

  it("never keeps the anonymity scrub from emptying the write-ahead log, however busy the reading thread is (SQLite)", async () => {
    if (isPostgres(t.db)) return;
    // a caller keeping the thread reading without a pause (statistics called in a loop)
    const long = t.db.selectNoFrom(sql<number>`(with recursive n(i) as (select 1 union all select i + 1 from n where i < 300000) select count(*) from n)`.as('n'));
    let reading = true;
    let reads = 0;
    const readers = Array.from({ length: 3 }, async () => {
      while (reading) {
        await readAside(t.db, long);
        reads++;
      }
    });
    try {
      for (let round = 0; round < 5; round++) {
        // a write puts pages in the log; the scrub must take them all out, at once
        await t.db.updateTable('users').set({ name_en: `Scrubbed ${round}` }).where('username', '=', 'student002').execute();
        expect(await scrubRewrittenRows(t.db)).toBe(true);
        expect(statSync(join(t.config.dataDir, 'qe.sqlite-wal')).size).toBe(0);
      }
    } finally {
      reading = false;
      await Promise.all(readers);
    }
    expect(reads).toBeGreaterThan(3);
    // and the reads go on after it
    expect((await readAside(t.db, t.db.selectFrom('users').select('name_en').where('username', '=', 'student002')))[0].name_en).toBe('Scrubbed 4');
  });
});
