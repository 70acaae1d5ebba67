import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoExtras } from '../../../src/server/demo/extras.js';
import { resolveAudience } from '../../../src/server/questionnaires/audience.js';
import { testApp, type TestApp } from '../harness.js';
import { as, data, type Caller } from '../questionnaires/helpers.js';

/** What `npm run demo` adds to the demo school: teacher groups, pupils who have left, a mail setting. */
describe('the demo extras', () => {
  let t: TestApp;
  let admin: Caller;
  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    await seedDemoExtras(t.db);
    admin = await as(t, 'admin');
  });
  afterAll(async () => t?.close());

  it('has teacher groups with their members', async () => {
    const groups = data<{ list: { code: string; nameEn: string }[]; total: number }>(await admin('GET', '/v1/teacher-groups'));
    expect(groups.list.map((g) => g.code).sort()).toEqual(['CHI', 'ENG', 'FORM', 'MATH']);
    const members = await t.db.selectFrom('teacher_group_members as m').innerJoin('teacher_groups as g', 'g.id', 'm.group_id').select('g.code').execute();
    expect(members.filter((m) => m.code === 'FORM')).toHaveLength(6);
  });

  it('has pupils who left and one who graduated: listed by status, in their classes, unable to log in, left out of new audiences', async () => {
    expect(data<{ total: number }>(await admin('GET', '/v1/students?status=2')).total).toBe(5);
    expect(data<{ total: number }>(await admin('GET', '/v1/students?status=3')).total).toBe(1);
    expect(data<{ total: number }>(await admin('GET', '/v1/students?status=1')).total).toBe(200);
    const left = await t.db.selectFrom('users').select(['id', 'leave_date']).where('status', 'in', ['2', '3']).execute();
    expect(left.every((u) => /^\d{4}-09-1\d$/.test(u.leave_date ?? ''))).toBe(true);
    const placed = await t.db.selectFrom('student_classes').select('user_id').where('user_id', 'in', left.map((u) => u.id)).execute();
    expect(placed).toHaveLength(6);
    const res = await t.app.inject({ method: 'POST', url: '/v1/login', payload: { username: 'student201', password: 'Passw0rd!' }, headers: { 'accept-language': 'en' } });
    expect(res.json().code).not.toBe(200);
    const year = await t.db.selectFrom('school_years').select('id').where('year_status', '=', '1').executeTakeFirstOrThrow();
    const { respondents } = await resolveAudience(t.db, [{ kind: 'ALL_STUDENTS' }], year.id);
    expect(respondents.some((r) => left.some((u) => u.id === r.userId))).toBe(false);
  });

  it('has a mail setting, so reminders can be tried at once', async () => {
    const setting = data<{ fromAddress: string; reminderSubject: string }>(await admin('GET', '/v1/mail-settings'));
    expect(setting.fromAddress).toBe('qe@demo.qe.school');
    expect(setting.reminderSubject).toContain('{title}');
  });
});
