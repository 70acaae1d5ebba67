import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheVersions, type CacheVersions } from '../../../src/server/auth/cache-versions.js';
import { createDb, type DB } from '../../../src/server/db/connect.js';
import { testApp, type TestApp } from '../harness.js';

/**
 * The counters a request reads must include every change committed before it asked — from this
 * app's connection, another connection or another instance — and nothing a transaction has not
 * committed (a counter seen moved by a transaction later rolled back would be moved again by the
 * next change, to the same number, and a value kept under it would pass for current).
 */
describe('cache counters as a request reads them', () => {
  let t: TestApp;
  let other: DB;
  let counters: CacheVersions;
  beforeAll(async () => {
    t = await testApp();
    other = createDb(t.config);
    counters = cacheVersions(t.db);
  });
  afterAll(async () => {
    await other?.destroy();
    await t?.close();
  });

  const move = (db: DB, name = 'calendar') => db.updateTable('cache_versions').set((eb) => ({ version: eb('version', '+', 1) })).where('name', '=', name).execute();

  it('sees a change committed on the app connection or another one at the next read', async () => {
    const start = (await counters.read()).calendar;
    await move(t.db);
    expect((await counters.read()).calendar).toBe(start + 1);
    await move(other);
    expect((await counters.read()).calendar).toBe(start + 2);
    // a school year added and removed moves the counter through its triggers
    const year = await t.db.insertInto('school_years').values({ name: '2099-2100', begin_date: '2099-09-01', end_date: '2100-08-31', year_status: '0' }).returning('id').executeTakeFirstOrThrow();
    const added = (await counters.read()).calendar;
    expect(added).toBeGreaterThan(start + 2);
    await t.db.deleteFrom('school_years').where('id', '=', year.id).execute();
    expect((await counters.read()).calendar).toBeGreaterThan(added);
  });

  it('never sees a counter moved by a transaction not yet committed, nor one rolled back', async () => {
    const start = (await counters.read()).auth;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let moved!: () => void;
    const inside = new Promise<void>((resolve) => (moved = resolve));
    const rolledBack = t.db
      .transaction()
      .execute(async (trx) => {
        await move(trx as unknown as DB, 'auth');
        moved();
        await held;
        throw new Error('rolled back on purpose');
      })
      .catch((e: Error) => e.message);
    await inside;
    // PostgreSQL reads the committed counter on another connection; SQLite's one connection holds
    // the transaction, and the read waits for its end
    const during = Promise.resolve(counters.read());
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    expect(await rolledBack).toBe('rolled back on purpose');
    expect((await during).auth).toBe(start);
    expect((await counters.read()).auth).toBe(start);
  });

  it('reads asked for together each include a change committed before they asked', async () => {
    const start = (await counters.read()).profile;
    const first = Promise.all(Array.from({ length: 50 }, () => counters.read()));
    await move(other, 'profile');
    const after = await Promise.all(Array.from({ length: 50 }, () => counters.read()));
    expect(after.map((v) => v.profile)).toEqual(after.map(() => start + 1));
    for (const v of await first) expect(v.profile).toBeGreaterThanOrEqual(start);
  });

  it('answers 0 for a counter that does not exist and every row counter by name', async () => {
    const v = await counters.read();
    expect(v.of('no such counter')).toBe(0);
    expect(v.of('rows:users')).toBeGreaterThan(0);
    expect(v.profile).toBeGreaterThan(0);
  });
});
