import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, login, testApp, type TestApp } from '../harness.js';

/**
 * user-info's current term follows the school's day (Hong Kong, UTC+8), not UTC's: on the first
 * day of a term, from midnight, not from 08:00 — also when the answer was kept the evening before.
 */
describe("user-info's current term on the school's day", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp({ demo: true });
    const year = await t.db.selectFrom('school_years').select('id').where('year_status', '=', '1').executeTakeFirstOrThrow();
    await t.db.deleteFrom('terms').where('school_year_id', '=', year.id).execute();
    await t.db
      .insertInto('terms')
      .values([
        { school_year_id: year.id, name_hk: '上學期', name_en: 'First term', begin_date: '2030-09-01', end_date: '2031-01-31', seq: 1 },
        { school_year_id: year.id, name_hk: '下學期', name_en: 'Second term', begin_date: '2031-02-01', end_date: '2031-08-31', seq: 2 },
      ])
      .execute();
  });
  afterEach(() => vi.useRealTimers());
  afterAll(async () => t?.close());

  const currentTerm = async (tk: string) => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/my/user-info', headers: bearer(tk) });
    expect(res.json().code, res.body).toBe(200);
    return res.json().data.currentTerm?.nameEn as string | undefined;
  };

  it('is the second term from 00:00 in Hong Kong on its first day (16:00 UTC the day before)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2031-01-31T15:30:00Z')); // 23:30 on 31 January in Hong Kong
    // logged in on the clock of the test: the session's expiry counts from then
    const { tk } = await login(t.app, 'teacher01');
    expect(await currentTerm(tk)).toBe('First term');
    vi.setSystemTime(new Date('2031-01-31T16:30:00Z')); // 00:30 on 1 February in Hong Kong
    expect(await currentTerm(tk)).toBe('Second term');
  });
});
