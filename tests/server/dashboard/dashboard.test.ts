import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession } from '../../../src/server/auth/sessions.js';
import type { Dashboard } from '../../../src/shared/dashboard.js';
import { testApp, type TestApp } from '../harness.js';
import { caller } from '../master/helpers.js';
import { as, classId, classStudents, create, data, inMinutes, oneQuestion, processing, userId, type Caller } from '../questionnaires/helpers.js';
import { submitAs } from '../statistics/helpers.js';
import { newKey } from '../filling/helpers.js';

const inDays = (days: number) => inMinutes(days * 24 * 60);

/**
 * The home screen's one call (GET /v1/my/dashboard), as a student, a teacher and an
 * administrator: what is still to answer in end-date order, the running questionnaires whose
 * results one reads with their response counts (an anonymous one's as released, never the live
 * count), the school's figures and one's own latest imports — each card only for whom it serves.
 */
describe('the dashboard', () => {
  let t: TestApp;
  let teacher: Caller;
  let otherTeacher: Caller;
  let student: Caller;
  let studentId: number;
  let classmates: number[];
  const ids: Record<string, number> = {};

  const dashboard = async (call: Caller) => data<Dashboard>(await call('GET', '/v1/my/dashboard'));

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    teacher = await as(t, 'teacher01');
    otherTeacher = await as(t, 'teacher02');
    const target = [{ kind: 'CLASS' as const, ids: [await classId(t.db, '4A')] }];
    [studentId, ...classmates] = await classStudents(t.db, '4A');
    student = caller(t.app, await openSession(t.db, t.config, studentId));
    ids.tenDays = (await processing(teacher, target, { title: 'Ends in ten days', endDate: inDays(10) })).id;
    ids.threeDays = (await processing(teacher, target, { title: 'Ends in three days', endDate: inDays(3) })).id;
    ids.tomorrowOther = (await processing(otherTeacher, target, { title: "Another teacher's, ends tomorrow", endDate: inDays(1) })).id;
    ids.answered = (await processing(teacher, target, { title: 'Answered already', endDate: inDays(2) })).id;
    await submitAs(t, ids.answered, [studentId], () => ({ q1: 'done' }));
    const later = await create(teacher, { title: 'Opens next week', targets: target, definition: oneQuestion(), openDate: inDays(7), endDate: inDays(14) });
    ids.later = data(await teacher('POST', `/v1/questionnaires/${later.id}/ready`)).id;
    ids.anonymous = (await processing(teacher, target, { title: 'Anonymous, two replies waiting', type: 'ANONYMOUS', endDate: inDays(5) })).id;
    await submitAs(t, ids.anonymous, classmates.slice(0, 2), () => ({ q1: 'quiet' }));
    await submitAs(t, ids.threeDays, classmates.slice(0, 3), () => ({ q1: 'yes' }));
  });
  afterAll(async () => t?.close());

  it("lists a student's questionnaires still to answer, soonest end first; nothing else", async () => {
    const board = await dashboard(student);
    expect(board.running).toBeNull();
    expect(board.school).toBeNull();
    const listed = board.toAnswer!.list.map((q) => q.id);
    expect(listed).toEqual([ids.tomorrowOther, ids.threeDays, ids.anonymous, ids.tenDays]);
    expect(board.toAnswer!.total).toBe(4);
    expect(board.toAnswer!.list[0]).toMatchObject({ title: "Another teacher's, ends tomorrow", type: 'NAMED' });
    // submitting takes a questionnaire off the list at once
    data(await student('POST', `/v1/my/questionnaires/${ids.tomorrowOther}/replies`, { submissionKey: newKey(), answers: { q1: 'now' } }));
    expect((await dashboard(student)).toAnswer!.list.map((q) => q.id)).toEqual([ids.threeDays, ids.anonymous, ids.tenDays]);
  });

  it("shows a teacher their own running questionnaires with counts, not another teacher's; the anonymous one's submissions only as released", async () => {
    const board = await dashboard(teacher);
    expect(board.school).toBeNull();
    const running = board.running!.list;
    const mine = [ids.threeDays, ids.anonymous, ids.tenDays, ids.answered];
    expect(running.map((q) => q.id).filter((id) => mine.includes(id))).toEqual([ids.answered, ids.threeDays, ids.anonymous, ids.tenDays]);
    expect(running.map((q) => q.id)).not.toContain(ids.tomorrowOther);
    expect(running.map((q) => q.id)).not.toContain(ids.later);
    const size = (await classStudents(t.db, '4A')).length;
    const threeDays = running.find((q) => q.id === ids.threeDays)!;
    expect(threeDays).toMatchObject({ respondents: size, submitted: 3, mayRemind: true, type: 'NAMED' });
    // two anonymous replies wait for a batch of at least the minimum group: none shows yet
    expect(running.find((q) => q.id === ids.anonymous)).toMatchObject({ respondents: size, submitted: 0, type: 'ANONYMOUS' });
  });

  it("gives an administrator the school's running questionnaires in all, counted as the statistics count them, and their own latest imports", async () => {
    const admin = await as(t, 'admin');
    const board = await dashboard(admin);
    const running = await t.db.selectFrom('questionnaires').select(['id', 'type']).where('status', '=', 'PROCESSING').execute();
    expect(board.school!.openQuestionnaires).toBe(running.length);
    expect(board.running!.total).toBe(running.length);
    expect(board.running!.list.length).toBe(Math.min(10, running.length));
    const feedback = await t.db
      .selectFrom('feedback as f')
      .innerJoin('questionnaires as q', 'q.id', 'f.questionnaire_id')
      .select((eb) => [eb.fn.countAll().as('asked'), eb.fn.sum(sql<number>`case when f.status = 'SUBMITTED' and q.type = 'NAMED' then 1 else 0 end`).as('named')])
      .where('q.status', '=', 'PROCESSING')
      .executeTakeFirstOrThrow();
    const released = await t.db
      .selectFrom('replies as r')
      .innerJoin('questionnaires as q', 'q.id', 'r.questionnaire_id')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('q.status', '=', 'PROCESSING')
      .where('q.type', '=', 'ANONYMOUS')
      .where('r.released', '=', 1)
      .executeTakeFirstOrThrow();
    expect(board.school!.respondents).toBe(Number(feedback.asked));
    expect(board.school!.submitted).toBe(Number(feedback.named) + Number(released.n));
    // every teacher's questionnaire is among an administrator's, the reminder allowed
    expect(board.running!.list.find((q) => q.id === ids.tomorrowOther)).toMatchObject({ mayRemind: true });
    expect(board.school!.imports).toEqual([]);
  });

  it("lists only the caller's own imports, newest first, at most five", async () => {
    const admin = await userId(t.db, 'admin');
    const other = await userId(t.db, 'superadmin');
    const job = (user: number, at: number, status: 'done' | 'failed', added: number) => ({ resource: 'students', user_id: user, status, rows: added + 3, passwords: 0, hashed: 0, added, updated: 1, skipped: 2, errors: null, created_at: at, heartbeat_at: at, finished_at: at + 1000 });
    const base = Date.UTC(2026, 10, 20, 2, 0, 0);
    await t.db.insertInto('import_jobs').values([...[0, 1, 2, 3, 4, 5].map((i) => job(admin, base + i * 60_000, i === 5 ? 'failed' : 'done', 10 + i)), job(other, base + 10 * 60_000, 'done', 99)]).execute();
    const imports = (await dashboard(await as(t, 'admin'))).school!.imports;
    expect(imports.map((i) => i.createdAt)).toEqual([5, 4, 3, 2, 1].map((i) => new Date(base + i * 60_000).toISOString()));
    expect(imports[0]).toMatchObject({ resource: 'students', status: 'failed', rows: 18, added: 15, updated: 1, skipped: 2, finishedAt: new Date(base + 5 * 60_000 + 1000).toISOString() });
  });
});
