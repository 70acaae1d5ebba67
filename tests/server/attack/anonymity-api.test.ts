import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession } from '../../../src/server/auth/sessions.js';
import { mixAnonymousReplies } from '../../../src/server/filling/mixing.js';
import type { Questionnaire } from '../../../src/shared/questionnaire/types.js';
import type { RespondentPage, StatisticsDetail, StatisticsRow, TextPage } from '../../../src/shared/statistics/types.js';
import { testApp, type TestApp } from '../harness.js';
import { caller } from '../master/helpers.js';
import { as, classId, classStudents, data, expectError, userId, type Caller } from '../questionnaires/helpers.js';
import { goodAnswers, newKey, opened, storedReplies } from '../filling/helpers.js';

/**
 * The teacher in charge of an anonymous questionnaire tries to pair replies with respondents
 * through the API: poll everything they may read — results, per-role, per-grade and per-class
 * submitted counts, the numbered replies, the lists — while pupils submit one at a time, and
 * look for the one new reply that appears as one pupil turns "submitted".
 */
describe('anonymous replies through the API', () => {
  let t: TestApp;
  let teacher: Caller;
  const MIN = 5;

  beforeAll(async () => {
    // the shipped minimum group (5); the mixing job is driven by hand here, round by round
    t = await testApp({ demo: true, config: { schedulerSeconds: 0, anonymousMinGroup: MIN } });
    teacher = await as(t, 'teacher01');
  });
  afterAll(async () => t?.close());

  const submit = async (questionnaireId: number, student: number, story: string) => {
    const pupil = caller(t.app, await openSession(t.db, t.config, student));
    return data<{ submittedAt: string }>(await pupil('POST', `/v1/my/questionnaires/${questionnaireId}/replies`, { submissionKey: newKey(), answers: { ...goodAnswers(), story } }));
  };

  /** Everything the teacher can see of the questionnaire, by filter, as one comparable picture. */
  async function everythingVisible(id: number, classIds: number[], gradeId: number) {
    const filters = ['', '?role=STUDENT', '?role=TEACHER', `?gradeId=${gradeId}`, ...classIds.map((c) => `?classId=${c}`)];
    const picture: Record<string, unknown> = {};
    for (const f of filters) {
      const d = data<StatisticsDetail>(await teacher('GET', `/v1/statistics/${id}${f}`));
      picture[`detail${f}`] = { groups: d.groups, replyCount: d.replyCount, submittedNum: d.submittedNum, withheld: d.withheld, questions: d.questions.map((q) => [q.id, q.answered, q.summary]) };
      const people = data<RespondentPage>(await teacher('GET', `/v1/statistics/${id}/respondents${f}${f ? '&' : '?'}size=200`));
      picture[`respondents${f}`] = people;
      picture[`texts${f}`] = data<TextPage>(await teacher('GET', `/v1/statistics/${id}/texts${f}${f ? '&' : '?'}questionId=story&size=200`));
    }
    const row = data<{ list: StatisticsRow[] }>(await teacher('GET', '/v1/statistics?size=200')).list.find((r) => r.id === id)!;
    picture.listRow = { submittedNum: row.submittedNum, responseRate: row.responseRate };
    const q = data<Questionnaire>(await teacher('GET', `/v1/questionnaires/${id}`));
    picture.questionnaire = { submittedCount: q.submittedCount, hasReplies: q.hasReplies };
    const listed = data<{ list: Questionnaire[] }>(await teacher('GET', '/v1/questionnaires?size=200')).list.find((r) => r.id === id)!;
    picture.questionnaireRow = { submittedCount: listed.submittedCount, hasReplies: listed.hasReplies };
    return picture;
  }

  it('shows nothing new until a batch of at least the minimum has arrived, then the whole batch at once, and the rest at the end', async () => {
    const classes = [await classId(t.db, '2A'), await classId(t.db, '2B')];
    const grade = (await t.db.selectFrom('classes').select('grade_id').where('id', '=', classes[0]).executeTakeFirstOrThrow()).grade_id;
    const pupils = [...(await classStudents(t.db, '2A')), ...(await classStudents(t.db, '2B'))];
    const q = await opened(teacher, [{ kind: 'CLASS', ids: classes }], { type: 'ANONYMOUS', title: 'Polled anonymous survey' });
    const round = () => mixAnonymousReplies(t.db, MIN);

    const before = await everythingVisible(q.id, classes, grade);
    // pupils submit one at a time; after each, a mixing round runs and the teacher polls everything
    for (let i = 0; i < MIN - 1; i++) {
      await submit(q.id, pupils[i], `story ${i}`);
      expect((await round()).released, `after ${i + 1} submissions`).toBe(0);
      expect(await everythingVisible(q.id, classes, grade), `after ${i + 1} submissions`).toEqual(before);
    }
    // the minimum reached: the batch enters everything together
    await submit(q.id, pupils[MIN - 1], `story ${MIN - 1}`);
    expect((await round()).released).toBe(MIN);
    const batch = await everythingVisible(q.id, classes, grade);
    const all = batch.detail as { replyCount: number; submittedNum: number };
    expect(all.replyCount).toBe(MIN);
    expect(all.submittedNum).toBe(MIN);
    expect((batch.respondents as RespondentPage).total).toBe(MIN);
    expect(batch.listRow).toMatchObject({ submittedNum: MIN });
    expect(batch.questionnaire).toEqual({ submittedCount: MIN, hasReplies: true });

    // one more: nothing moves
    await submit(q.id, pupils[MIN], `story ${MIN}`);
    await round();
    expect(await everythingVisible(q.id, classes, grade)).toEqual(batch);

    // at the end the rest is released, however few
    data(await teacher('POST', `/v1/questionnaires/${q.id}/close`));
    expect((await round()).released).toBe(1);
    const end = data<StatisticsDetail>(await teacher('GET', `/v1/statistics/${q.id}`));
    expect(end.replyCount).toBe(MIN + 1);
    expect(end.releaseBatch).toBe(MIN);
  });

  it('withholds the results of a questionnaire with fewer replies than the minimum in all, also once it has finished', async () => {
    const few = [await userId(t.db, 'teacher11'), await userId(t.db, 'teacher12'), await userId(t.db, 'teacher13')];
    const q = await opened(teacher, [{ kind: 'USERS', ids: few }], { type: 'ANONYMOUS', title: 'Three teachers' });
    for (const [i, who] of few.entries()) await submit(q.id, who, `staff story ${i}`);
    data(await teacher('POST', `/v1/questionnaires/${q.id}/close`));
    expect((await mixAnonymousReplies(t.db, MIN)).released).toBe(3);
    const detail = data<StatisticsDetail>(await teacher('GET', `/v1/statistics/${q.id}`));
    expect(detail.withheld).toEqual({ minGroupSize: MIN, reason: 'total' });
    expect(detail.questions.every((question) => question.summary === null)).toBe(true);
    expect(data<TextPage>(await teacher('GET', `/v1/statistics/${q.id}/texts?questionId=story`))).toEqual({ list: [], total: 0, withheld: { minGroupSize: MIN, reason: 'total' }, mayMark: true });
    expect(data<RespondentPage>(await teacher('GET', `/v1/statistics/${q.id}/respondents`))).toMatchObject({ anonymous: true, list: [], total: 0 });
    // nor is a reply read whole by its id
    const stored = await t.db.selectFrom('replies').select('id').where('questionnaire_id', '=', q.id).execute();
    for (const r of stored) expectError(await teacher('GET', `/v1/statistics/${q.id}/replies/${r.id}`), 'RECORD_NOT_FOUND');
    // the admin, who sees every questionnaire, sees no more
    const admin = await as(t, 'admin');
    expect(data<StatisticsDetail>(await admin('GET', `/v1/statistics/${q.id}`)).withheld).toEqual({ minGroupSize: MIN, reason: 'total' });
  });

  it('freezes named or anonymous from the moment it opens, before anyone has answered', async () => {
    const q = await opened(teacher, [{ kind: 'CLASS', ids: [await classId(t.db, '5A')] }], { type: 'ANONYMOUS', title: 'Frozen anonymous' });
    expect(q.hasReplies).toBe(false);
    expectError(await teacher('PUT', `/v1/questionnaires/${q.id}`, { type: 'NAMED' }), 'ILLEGAL_TRANSITION');
    const admin = await as(t, 'admin');
    expectError(await admin('PUT', `/v1/questionnaires/${q.id}`, { type: 'NAMED' }), 'ILLEGAL_TRANSITION');
    const stored = await t.db.selectFrom('questionnaires').select('type').where('id', '=', q.id).executeTakeFirstOrThrow();
    expect(stored.type).toBe('ANONYMOUS');
    // a pupil's reply is stored as anonymous
    const [pupil] = await classStudents(t.db, '5A');
    await submit(q.id, pupil, 'still anonymous');
    const [reply] = await storedReplies(t.db, q.id);
    expect(reply.feedback_id).toBeNull();
  });

});
