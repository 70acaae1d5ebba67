import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPostgres } from '../../../src/server/db/connect.js';
import { LOGIN_COLUMNS } from '../../../src/server/db/migrations/0021_row_versions.js';
import { SIGN_IN_COLUMNS } from '../../../src/server/db/migrations/0030_sign_in_stamps.js';
import { login, testApp, type TestApp } from '../harness.js';
import { caller, type Method } from './helpers.js';

/**
 * A list's total and a screen's page are kept while the row counters of the tables it counts stay where they were
 * (src/server/master/kept-by-tables.ts, migration 0021). Whoever changes the rows — the API, another
 * instance, a script writing SQL — the next page answers the new total; a login changes nothing
 * a list counts and leaves the totals kept.
 */
describe('list totals and pages kept while the rows stay the same', () => {
  let t: TestApp;
  let call: (method: Method, url: string, payload?: unknown) => ReturnType<ReturnType<typeof caller>>;
  let seq = 0;

  beforeAll(async () => {
    t = await testApp({ demo: true });
    const { tk } = await login(t.app, 'admin');
    call = caller(t.app, tk, 'en');
  });
  afterAll(async () => t?.close());

  const total = async (url: string) => {
    const res = await call('GET', url);
    expect(res.json().code, res.body).toBe(200);
    // a full first page: the total is counted, not read off the page
    expect(res.json().data.list.length).toBe(2);
    return res.json().data.total as number;
  };
  const counter = async (table: string) => Number((await t.db.selectFrom('cache_versions').select('version').where('name', '=', `rows:${table}`).executeTakeFirstOrThrow()).version);
  const insertStudent = async (username: string, status = '1') =>
    (await t.db.insertInto('users').values({ username, password_hash: 'x', user_type: 'STUDENT', user_no: `S9${String(++seq).padStart(5, '0')}`, name_hk: '測試', name_en: `Count ${username}`, active: 1, status, seq: 0, created_at: '2026-01-01', updated_at: '2026-01-01' }).returning('id').executeTakeFirstOrThrow()).id;

  it('follows writes made outside the API: an insert, an update of a filtered column, a delete', async () => {
    const url = '/v1/students?size=2&q=countme&status=1';
    await insertStudent('countme1');
    await insertStudent('countme2');
    expect(await total(url)).toBe(2);
    expect(await total(url)).toBe(2);
    const third = await insertStudent('countme3');
    expect(await total(url)).toBe(3);
    await t.db.updateTable('users').set({ status: '2' }).where('id', '=', third).execute();
    expect(await total(url)).toBe(2);
    expect(await total('/v1/students?size=2&q=countme')).toBe(3);
    await t.db.deleteFrom('users').where('id', '=', third).execute();
    expect(await total('/v1/students?size=2&q=countme')).toBe(2);
  });

  it("follows a student's class (the per-year table) when the class is filtered", async () => {
    const classes = (await call('GET', '/v1/classes?size=1000')).json().data.list as { id: number }[];
    const [a, b] = classes.map((c) => c.id);
    const inA = await total(`/v1/students?size=2&classId=${a}`);
    const inB = await total(`/v1/students?size=2&classId=${b}`);
    const moved = await t.db.selectFrom('student_classes').select(['id']).where('class_id', '=', a).executeTakeFirstOrThrow();
    await t.db.updateTable('student_classes').set({ class_id: b, student_number: 900 }).where('id', '=', moved.id).execute();
    expect(await total(`/v1/students?size=2&classId=${a}`)).toBe(inA - 1);
    expect(await total(`/v1/students?size=2&classId=${b}`)).toBe(inB + 1);
  });

  it('follows a student added and edited through the API', async () => {
    const url = '/v1/students?size=2&q=viaapi';
    await insertStudent('viaapi1');
    await insertStudent('viaapi2');
    expect(await total(url)).toBe(2);
    const classId = ((await call('GET', '/v1/classes?size=1')).json().data.list as { id: number }[])[0].id;
    const created = await call('POST', '/v1/students', { code: 'S977001', username: 'viaapi3', nameHk: '新生', nameEn: 'Via Api', password: 'Passw0rd!', classId, studentNumber: 99, status: '1' });
    expect(created.json().code, created.body).toBe(201);
    expect(await total(url)).toBe(3);
    const edited = await call('PUT', `/v1/students/${created.json().data.id}`, { username: 'renamed3' });
    expect(edited.json().code, edited.body).toBe(200);
    expect(await total(url)).toBe(2);
  });

  it('a login moves no counter a list reads', async () => {
    const before = await counter('users');
    await login(t.app, 'student001');
    await login(t.app, 'teacher01');
    expect(await counter('users')).toBe(before);
  });

  it('every column of users but those a login or a password change writes moves the counter', async () => {
    const columns = isPostgres(t.db)
      ? (await sql<{ name: string }>`select column_name as name from information_schema.columns where table_schema = current_schema() and table_name = 'users'`.execute(t.db)).rows
      : (await sql<{ name: string }>`select name from pragma_table_info('users')`.execute(t.db)).rows;
    const id = await insertStudent('everycolumn');
    const unwatched: string[] = [];
    for (const { name } of columns) {
      if (name === 'id' || LOGIN_COLUMNS.includes(name) || SIGN_IN_COLUMNS.includes(name)) continue;
      const before = await counter('users');
      await sql`update users set ${sql.id(name)} = ${sql.id(name)} where id = ${id}`.execute(t.db);
      if ((await counter('users')) === before) unwatched.push(name);
    }
    expect(unwatched, 'add these columns to the users trigger in a migration (see 0021_row_versions.ts)').toEqual([]);
  });

  it("a page read again follows a name, a student's class and a group's members changed in SQL", async () => {
    const id = await insertStudent('pagekept');
    const page = async (url: string) => {
      const res = await call('GET', url);
      expect(res.json().code, res.body).toBe(200);
      return res.json().data.list as Record<string, unknown>[];
    };
    const url = '/v1/students?size=20&q=pagekept';
    expect((await page(url)).map((r) => r.nameEn)).toEqual(['Count pagekept']);
    await t.db.updateTable('users').set({ name_en: 'Count pagekept renamed' }).where('id', '=', id).execute();
    expect((await page(url)).map((r) => r.nameEn)).toEqual(['Count pagekept renamed']);

    const year = await t.db.selectFrom('school_years').select('id').where('year_status', '=', '1').executeTakeFirstOrThrow();
    const [a, b] = ((await page('/v1/classes?size=2')) as { id: number }[]).map((c) => c.id);
    await t.db.insertInto('student_classes').values({ user_id: id, school_year_id: year.id, class_id: a, student_number: 801 }).execute();
    expect((await page(url))[0]).toMatchObject({ classId: a, studentNumber: 801 });
    await t.db.updateTable('student_classes').set({ class_id: b }).where('user_id', '=', id).execute();
    expect((await page(url))[0]).toMatchObject({ classId: b, studentNumber: 801 });

    const { id: groupId } = await t.db.insertInto('teacher_groups').values({ code: 'KEPT', name_hk: '保留組', name_en: 'Kept group' }).returning('id').executeTakeFirstOrThrow();
    const group = async () => (await page('/v1/teacher-groups?size=20&q=KEPT')).find((g) => g.id === groupId) as { memberCount: number; memberIds: number[] };
    expect(await group()).toMatchObject({ memberCount: 0, memberIds: [] });
    const teacher = await t.db.selectFrom('users').select('id').where('user_type', '=', 'TEACHER').executeTakeFirstOrThrow();
    await t.db.insertInto('teacher_group_members').values({ group_id: groupId, user_id: teacher.id }).execute();
    expect(await group()).toMatchObject({ memberCount: 1, memberIds: [teacher.id] });
  });
});
