import { DEFAULT_TIME_ZONE, schoolDate } from '../../../src/shared/school-clock.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RolloverPreview } from '../../../src/server/school/rollover.js';
import { switchDueYears, yearOn } from '../../../src/server/school/rollover.js';
import { seedPermissionModel } from '../../../src/server/developer/seed.js';
import { bearer, login, testApp, type TestApp } from '../harness.js';
import { as, classId, classStudents, data, expectError, gradeId, processing } from '../questionnaires/helpers.js';
import { submitAs } from '../statistics/helpers.js';

/**
 * The "new school year" roll-over on the demo school: 6 grades (S1–S6) of two
 * classes (1A, 1B … 6B); 200 students, 17 a class in order, so 6B has 13.
 */
const CODES = ['1A', '1B', '2A', '2B', '3A', '3B', '4A', '4B', '5A', '5B', '6A', '6B'];
const BEFORE = [17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 13];

// the school's day, as the roll-over takes it (Hong Kong)
const tomorrow = () => schoolDate(new Date(Date.now() + 86_400_000), DEFAULT_TIME_ZONE);
const today = () => schoolDate(new Date(), DEFAULT_TIME_ZONE);

/** Students per class code in one school year. */
async function perClass(t: TestApp, yearId: number): Promise<Record<string, number>> {
  const rows = await t.db
    .selectFrom('student_classes as sc')
    .innerJoin('classes as c', 'c.id', 'sc.class_id')
    .where('sc.school_year_id', '=', yearId)
    .select(['c.code', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('c.code')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.code, Number(r.n)]));
}

async function snapshot(t: TestApp) {
  return {
    years: await t.db.selectFrom('school_years').selectAll().orderBy('id').execute(),
    terms: await t.db.selectFrom('terms').selectAll().orderBy('id').execute(),
    classes: await t.db.selectFrom('classes').selectAll().orderBy('id').execute(),
    placed: await t.db.selectFrom('student_classes').selectAll().orderBy('id').execute(),
    students: await t.db.selectFrom('users').select(['id', 'status', 'leave_date']).where('user_type', '=', 'STUDENT').orderBy('id').execute(),
  };
}

const currentYear = async (t: TestApp) => t.db.selectFrom('school_years').selectAll().where('year_status', '=', '1').executeTakeFirstOrThrow();

describe('new school year', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await testApp({ demo: true });
  });
  afterEach(async () => t.close());

  it('previews the counts per class and the graduates, and writes nothing', async () => {
    const admin = await as(t, 'admin');
    const before = await snapshot(t);
    const p = data<RolloverPreview>(await admin('POST', '/v1/school-years/rollover/preview', {}));
    const year = await currentYear(t);
    expect(p.fromYear).toEqual({ id: year.id, name: year.name });
    expect(p.nextYear).toMatchObject({ id: null, beginDate: yearOn(year.begin_date), endDate: yearOn(year.end_date) });
    expect(p.nextYear.name).toBe(year.name.replace(/\d{4}/g, (y) => String(Number(y) + 1)));
    // the school names no graduating grade: the highest one graduates
    expect(p.graduateGradeId).toBe(await gradeId(t.db, 'S6'));
    expect(p.graduates).toBe(30);
    expect(p.promoted).toBe(170);
    expect(p.missingClasses).toEqual([]);
    const moves = Object.fromEntries(p.moves.map((m) => [m.fromCode, [m.students, m.graduates ? 'leaves' : m.toCode]]));
    expect(moves).toEqual({ '1A': [17, '2A'], '1B': [17, '2B'], '2A': [17, '3A'], '2B': [17, '3B'], '3A': [17, '4A'], '3B': [17, '4B'], '4A': [17, '5A'], '4B': [17, '5B'], '5A': [17, '6A'], '5B': [17, '6B'], '6A': [17, 'leaves'], '6B': [13, 'leaves'] });
    expect(Object.fromEntries(p.after.map((a) => [a.code, a.students]))).toEqual({ '2A': 17, '2B': 17, '3A': 17, '3B': 17, '4A': 17, '4B': 17, '5A': 17, '5B': 17, '6A': 17, '6B': 17 });

    // another graduating grade and a changed mapping: 1A and 1B both go to 2A
    const other = data<RolloverPreview>(await admin('POST', '/v1/school-years/rollover/preview', { graduateGradeId: await gradeId(t.db, 'S5'), mapping: [{ fromClassId: await classId(t.db, '1B'), toClassId: await classId(t.db, '2A') }] }));
    expect(other.graduates).toBe(34);
    expect(other.after.find((a) => a.code === '2A')!.students).toBe(34);
    expect(other.after.find((a) => a.code === '2B')).toBeUndefined();
    expect(await snapshot(t)).toEqual(before);
  });

  it('rolls the demo school over at once: next year, its terms, promoted classes, graduates left; last year unchanged', async () => {
    const old = await currentYear(t);
    const before = await perClass(t, old.id);
    expect(CODES.map((c) => before[c])).toEqual(BEFORE);
    const graduates = [...(await classStudents(t.db, '6A')), ...(await classStudents(t.db, '6B'))];
    const firstOf1A = (await classStudents(t.db, '1A'))[0];

    // a questionnaire of this year for 1A, answered by three students
    const teacher = await as(t, 'teacher01');
    const q = await processing(teacher, [{ kind: 'CLASS', ids: [await classId(t.db, '1A')] }]);
    await submitAs(t, q.id, (await classStudents(t.db, '1A')).slice(0, 3), () => ({ q1: 'Maths' }));
    const statsBefore = data(await teacher('GET', `/v1/statistics/${q.id}?classId=${await classId(t.db, '1A')}`));
    const feedbackBefore = await t.db.selectFrom('feedback').select(['user_id', 'grade_id', 'class_id', 'status']).where('questionnaire_id', '=', q.id).orderBy('user_id').execute();

    const admin = await as(t, 'admin');
    const done = data<RolloverPreview>(await admin('POST', '/v1/school-years/rollover', { switchDate: null }), 201);
    expect(done.promoted).toBe(170);

    const now = await currentYear(t);
    expect(now.id).toBe(done.nextYear.id);
    expect(now).toMatchObject({ begin_date: yearOn(old.begin_date), end_date: yearOn(old.end_date), switch_date: null });
    expect((await t.db.selectFrom('school_years').select('year_status').where('id', '=', old.id).executeTakeFirstOrThrow()).year_status).toBe('0');
    const oldTerms = await t.db.selectFrom('terms').selectAll().where('school_year_id', '=', old.id).orderBy('seq').execute();
    const newTerms = await t.db.selectFrom('terms').selectAll().where('school_year_id', '=', now.id).orderBy('seq').execute();
    expect(newTerms.map((x) => [x.name_hk, x.name_en, x.begin_date, x.end_date])).toEqual(oldTerms.map((x) => [x.name_hk, x.name_en, yearOn(x.begin_date), yearOn(x.end_date)]));

    // last year as it was; next year one grade up with numbers 1..17
    expect(await perClass(t, old.id)).toEqual(before);
    expect(await perClass(t, now.id)).toEqual({ '2A': 17, '2B': 17, '3A': 17, '3B': 17, '4A': 17, '4B': 17, '5A': 17, '5B': 17, '6A': 17, '6B': 17 });
    expect(await classStudents(t.db, '2A')).toContain(firstOf1A);
    const numbers = await t.db.selectFrom('student_classes').select('student_number').where('school_year_id', '=', now.id).where('class_id', '=', await classId(t.db, '2A')).orderBy('student_number').execute();
    expect(numbers.map((n) => n.student_number)).toEqual(Array.from({ length: 17 }, (_, i) => i + 1));

    const left = await t.db.selectFrom('users').select(['id', 'status', 'leave_date']).where('user_type', '=', 'STUDENT').where('status', '=', '2').orderBy('id').execute();
    expect(left.map((u) => u.id)).toEqual([...graduates].sort((a, b) => a - b));
    expect(new Set(left.map((u) => u.leave_date))).toEqual(new Set([today()]));
    expect(await t.db.selectFrom('users').select('id').where('user_type', '=', 'STUDENT').where('status', '=', '1').execute()).toHaveLength(170);

    // the questionnaire of last year keeps each respondent's class then, and its statistics
    expect(await t.db.selectFrom('feedback').select(['user_id', 'grade_id', 'class_id', 'status']).where('questionnaire_id', '=', q.id).orderBy('user_id').execute()).toEqual(feedbackBefore);
    expect(data(await teacher('GET', `/v1/statistics/${q.id}?classId=${await classId(t.db, '1A')}`))).toEqual(statsBefore);
  });

  it('is all or nothing: a missing class refuses the whole roll-over until it is created', async () => {
    // 3B is gone (its students first): 2B has nowhere to go
    const threeB = await classId(t.db, '3B');
    await t.db.deleteFrom('student_classes').where('class_id', '=', threeB).execute();
    await t.db.deleteFrom('classes').where('id', '=', threeB).execute();
    const admin = await as(t, 'admin');
    const p = data<RolloverPreview>(await admin('POST', '/v1/school-years/rollover/preview', {}));
    expect(p.missingClasses).toEqual([{ gradeId: await gradeId(t.db, 'S3'), code: '3B', nameHk: '中三B班', nameEn: '3B' }]);
    expect(p.moves.find((m) => m.fromCode === '2B')).toMatchObject({ toClassId: null, toCode: '3B', missing: true, students: 17 });

    const before = await snapshot(t);
    const refused = await admin('POST', '/v1/school-years/rollover', { switchDate: null });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 726, msg: 'These classes are missing for next year: 3B. Create them or change the class mapping' });
    expect(await snapshot(t)).toEqual(before);

    const done = data<RolloverPreview>(await admin('POST', '/v1/school-years/rollover', { createMissingClasses: true, switchDate: null }), 201);
    const created = await t.db.selectFrom('classes').selectAll().where('code', '=', '3B').executeTakeFirstOrThrow();
    expect(created).toMatchObject({ grade_id: await gradeId(t.db, 'S3'), name_hk: '中三B班', name_en: '3B' });
    expect((await perClass(t, done.nextYear.id!))['3B']).toBe(17);
  });

  it('switches on the chosen date, refuses a second roll-over into the same year', async () => {
    const old = await currentYear(t);
    const graduate = (await classStudents(t.db, '6B'))[0];
    const admin = await as(t, 'admin');
    const switchDate = tomorrow();
    const done = data<RolloverPreview>(await admin('POST', '/v1/school-years/rollover', { switchDate }), 201);
    expect(done.switchDate).toBe(switchDate);
    expect((await currentYear(t)).id).toBe(old.id);
    const next = await t.db.selectFrom('school_years').selectAll().where('id', '=', done.nextYear.id!).executeTakeFirstOrThrow();
    expect(next).toMatchObject({ year_status: '0', switch_date: switchDate });
    expect((await t.db.selectFrom('users').select('status').where('id', '=', graduate).executeTakeFirstOrThrow()).status).toBe('1');

    const twice = `The school year "${next.name}" was already filled by a roll-over; it cannot be run again`;
    for (const url of ['/v1/school-years/rollover', '/v1/school-years/rollover/preview']) {
      const again = await admin('POST', url, { switchDate: null });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ code: 725, msg: twice });
    }

    expect(await switchDueYears(t.db, today())).toEqual([]);
    // two instances at the date: one switches
    const runs = await Promise.all([switchDueYears(t.db, switchDate), switchDueYears(t.db, switchDate)]);
    expect(runs.flat()).toEqual([next.id]);
    expect((await currentYear(t)).id).toBe(next.id);
    expect(await t.db.selectFrom('users').select(['status', 'leave_date']).where('id', '=', graduate).executeTakeFirstOrThrow()).toEqual({ status: '2', leave_date: switchDate });
    expect(await switchDueYears(t.db, switchDate)).toEqual([]);
  });

  it('refuses a switch date after next year ends, a call without a body, and callers without the permission', async () => {
    const admin = await as(t, 'admin');
    const none = await t.app.inject({ method: 'POST', url: '/v1/school-years/rollover', headers: bearer((await login(t.app, 'admin')).tk) });
    expect(none.json().code).toBe(422);
    expect(await t.db.selectFrom('school_years').select('id').execute()).toHaveLength(1);
    // a year far ahead is not next year: the roll-over still makes the one after this
    await t.db.insertInto('school_years').values({ name: 'Far ahead', begin_date: '2090-09-01', end_date: '2091-08-31', year_status: '0' }).execute();
    expect(data<RolloverPreview>(await admin('POST', '/v1/school-years/rollover/preview', {})).nextYear.id).toBeNull();
    expectError(await admin('POST', '/v1/school-years/rollover', { switchDate: '2999-01-01' }), 'ROLLOVER_SWITCH_DATE');
    const teacher = await as(t, 'teacher01');
    const before = await snapshot(t);
    expectError(await teacher('POST', '/v1/school-years/rollover', { switchDate: null }), 'PERMISSION_DENIED');
    expectError(await teacher('POST', '/v1/school-years/rollover/preview', {}), 'PERMISSION_DENIED');
    expect(await snapshot(t)).toEqual(before);
    // the permission is its own: an administrator without it is refused too
    await t.db.deleteFrom('role_actions').where('action_id', 'in', (eb) => eb.selectFrom('actions as a').innerJoin('menus as m', 'm.id', 'a.menu_id').where('m.code', '=', 'school-year').where('a.code', '=', 'management').select('a.id')).execute();
    const again = await as(t, 'admin');
    expectError(await again('POST', '/v1/school-years/rollover', { switchDate: null }), 'PERMISSION_DENIED');
  });
});

describe('the school-year.management permission on an existing install', () => {
  it('is added at start and given to the administrator roles that hold it by default', async () => {
    const t = await testApp();
    try {
      const held = () => t.db
        .selectFrom('role_actions as ra')
        .innerJoin('roles as r', 'r.id', 'ra.role_id')
        .innerJoin('actions as a', 'a.id', 'ra.action_id')
        .innerJoin('menus as m', 'm.id', 'a.menu_id')
        .where('m.code', '=', 'school-year')
        .where('a.code', '=', 'management')
        .select('r.role_code')
        .orderBy('r.role_code')
        .execute();
      expect((await held()).map((r) => r.role_code)).toEqual(['ADMIN', 'SUPER_ADMIN']);
      // an install from before this version: the action is not there
      const action = t.db.selectFrom('actions as a').innerJoin('menus as m', 'm.id', 'a.menu_id').where('m.code', '=', 'school-year').where('a.code', '=', 'management').select('a.id');
      await t.db.deleteFrom('role_actions').where('action_id', 'in', action).execute();
      await t.db.deleteFrom('actions').where('id', 'in', (await action.execute()).map((a) => a.id)).execute();
      // …which never seeded its code (a seeded code that is deleted stays deleted)
      await t.db.deleteFrom('seeded_codes').where('code', '=', 'school-year.management').execute();
      expect(await held()).toEqual([]);
      await seedPermissionModel(t.db);
      expect((await held()).map((r) => r.role_code)).toEqual(['ADMIN', 'SUPER_ADMIN']);
      // a second start changes nothing
      await seedPermissionModel(t.db);
      expect(await held()).toHaveLength(2);
    } finally {
      await t.close();
    }
  });
});
