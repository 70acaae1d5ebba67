import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { YearCopy } from '../../../src/shared/calls/questionnaires.js';
import type { RolloverPreview } from '../../../src/server/school/rollover.js';
import { testApp, type TestApp } from '../harness.js';
import { as, classId, classStudents, data, expectError, userId, type Caller } from './helpers.js';
import { opened } from '../filling/helpers.js';

/**
 * Last year's questionnaire again, after the roll-over of the demo school (1A → 2A … 5B → 6B, 6A
 * and 6B graduate): by grade the copy means this year's pupils of the same classes; by people the
 * same pupils wherever they are now, the graduates and those who left dropped and counted.
 */
describe('copy for this year', () => {
  let t: TestApp;
  let teacher: Caller;
  let lastYearsId: number;
  let lastYear: number;
  let pupils1A: number[];
  let pupils6A: number[];
  let leaver: number;
  let colleague: number;

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    teacher = await as(t, 'teacher01');
    pupils1A = await classStudents(t.db, '1A');
    pupils6A = await classStudents(t.db, '6A');
    colleague = await userId(t.db, 'teacher05');
    const q = await opened(teacher, [{ kind: 'CLASS', ids: [await classId(t.db, '1A'), await classId(t.db, '6A')] }, { kind: 'USERS', ids: [colleague] }, { kind: 'ALL_TEACHERS' }], { title: 'Lesson feedback' });
    lastYearsId = q.id;
    lastYear = (await t.db.selectFrom('school_years').select('id').where('year_status', '=', '1').executeTakeFirstOrThrow()).id;
    const admin = await as(t, 'admin');
    data<RolloverPreview>(await admin('POST', '/v1/school-years/rollover', { switchDate: null }), 201);
    // one pupil of last year's 1A has left the school since
    leaver = pupils1A[0];
    await t.db.updateTable('users').set({ status: '2' }).where('id', '=', leaver).execute();
  });
  afterAll(async () => t?.close());

  const thisYear = async () => (await t.db.selectFrom('school_years').select('id').where('year_status', '=', '1').executeTakeFirstOrThrow()).id;
  const teachers = async () => (await t.db.selectFrom('users').select('id').where('user_type', '=', 'TEACHER').where('active', '=', 1).where('status', '=', '1').execute()).map((r) => r.id);
  const audienceOf = async (id: number, yearId: number) => {
    const q = await t.db.selectFrom('questionnaires').select('targets').where('id', '=', id).executeTakeFirstOrThrow();
    return data<{ total: number }>(await teacher('POST', '/v1/questionnaires/audience-count', { targets: JSON.parse(q.targets), schoolYearId: yearId })).total;
  };

  it('by grade: a draft of this year, the same classes meaning this year’s pupils, no dates, the type chosen again', async () => {
    const { questionnaire, remap } = data<YearCopy>(await teacher('POST', `/v1/questionnaires/${lastYearsId}/copy-for-year`, { audience: 'GRADE', type: 'ANONYMOUS' }), 201);
    expect(questionnaire).toMatchObject({ status: 'PREPARING', type: 'ANONYMOUS', schoolYearId: await thisYear(), openDate: null, endDate: null, title: 'Lesson feedback' });
    expect(questionnaire.targets.map((x) => x.kind).sort()).toEqual(['ALL_TEACHERS', 'CLASS', 'USERS']);
    // 1A this year: last year's S1 intake is gone up to 2A; the new 1A is empty in the demo roll-over, 6A holds last year's 5A
    const now1A = (await classStudents(t.db, '1A')).length;
    const now6A = (await classStudents(t.db, '6A')).length;
    const allTeachers = (await teachers()).length;
    expect(remap).toMatchObject({ audience: 'GRADE', fromSchoolYearId: lastYear, toSchoolYearId: await thisYear(), dropped: 0 });
    expect(remap.before).toBe(pupils1A.length + pupils6A.length + allTeachers);
    expect(remap.after).toBe(now1A + now6A + allTeachers);
    expect(await audienceOf(questionnaire.id, await thisYear())).toBe(remap.after);
  });

  it('by people: the same pupils in their classes now, graduates and leavers dropped and counted', async () => {
    const { questionnaire, remap } = data<YearCopy>(await teacher('POST', `/v1/questionnaires/${lastYearsId}/copy-for-year`, { audience: 'PEOPLE', type: 'NAMED' }), 201);
    const users = questionnaire.targets.find((x) => x.kind === 'USERS')!.ids!;
    const stayed = pupils1A.filter((p) => p !== leaver);
    expect([...users].sort((a, b) => a - b)).toEqual([...stayed, colleague].sort((a, b) => a - b));
    expect(questionnaire.targets.some((x) => x.kind === 'CLASS' || x.kind === 'GRADE')).toBe(false);
    // the 6A graduates and the leaver are dropped
    expect(remap).toMatchObject({ audience: 'PEOPLE', dropped: pupils6A.length + 1 });
    expect(remap.after).toBe(stayed.length + (await teachers()).length);
    // they are asked in their classes now: 2A
    const now2A = await classStudents(t.db, '2A');
    for (const p of stayed) expect(now2A).toContain(p);
  });

  it('is refused to whom may not see the questionnaire, and a bad body is refused', async () => {
    const other = await as(t, 'teacher09');
    expectError(await other('POST', `/v1/questionnaires/${lastYearsId}/copy-for-year`, { audience: 'GRADE', type: 'NAMED' }), 'RECORD_NOT_FOUND');
    const bad = await teacher('POST', `/v1/questionnaires/${lastYearsId}/copy-for-year`, { audience: 'EVERYONE', type: 'NAMED' });
    expect(bad.statusCode).toBe(422);
    const student = await as(t, 'student050');
    const refused = await student('POST', `/v1/questionnaires/${lastYearsId}/copy-for-year`, { audience: 'GRADE', type: 'NAMED' });
    expect(refused.statusCode).toBeGreaterThanOrEqual(400);
  });
});
