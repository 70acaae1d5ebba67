import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preparedQuery } from '../../../src/server/db/prepared.js';
import { testApp, type TestApp } from '../harness.js';

/**
 * Queries compiled once and run with each call's arguments (db/prepared.ts), on both databases:
 * each argument lands in its own place whatever the order it is written in, the values the query
 * writes itself stay, calls running at once do not share their arguments, and a query that does
 * not bind an argument is refused when it is made, not answered wrongly later.
 */
describe('prepared queries', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp({ demo: true });
  });
  afterAll(async () => t?.close());

  it('puts each argument in its place and keeps the constants the query wrote', async () => {
    // the arguments in the opposite order of their places in the SQL, a constant between them
    const users = preparedQuery(t.db, 2, (type: string, username: string) =>
      t.db.selectFrom('users').select(['username', 'user_type']).where('username', '=', username).where('active', '=', 1).where('user_type', '=', type),
    );
    expect(await users('TEACHER', 'teacher01')).toEqual([{ username: 'teacher01', user_type: 'TEACHER' }]);
    expect(await users('STUDENT', 'student001')).toEqual([{ username: 'student001', user_type: 'STUDENT' }]);
    expect(await users('STUDENT', 'teacher01')).toEqual([]);
  });

  it('answers calls running at once each with its own arguments', async () => {
    const byName = preparedQuery(t.db, 1, (username: string) => t.db.selectFrom('users').select('username').where('username', '=', username));
    const names = ['admin', 'teacher01', 'teacher02', 'student001', 'student002', 'nobody-here'];
    const answers = await Promise.all(names.map((n) => byName(n)));
    expect(answers.map((rows) => rows[0]?.username ?? null)).toEqual([...names.slice(0, 5), null]);
  });

  it('refuses a query that does not bind one of its arguments', () => {
    expect(() => preparedQuery(t.db, 2 as number as 1, (username: string) => t.db.selectFrom('users').select('id').where('username', '=', username))).toThrow(/argument 1/);
  });
});
