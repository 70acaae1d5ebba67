import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openQuestionnaire, runDueWork } from '../../../src/server/questionnaires/lifecycle.js';
import { fieldMessage } from '../../../src/shared/field-messages.js';
import type { Questionnaire } from '../../../src/shared/questionnaire/types.js';
import { testApp, type TestApp } from '../harness.js';
import { as, classId, classStudents, create, data, expectError, feedbackRows, gradeId, inMinutes, oneQuestion, processing, userId, type Caller } from './helpers.js';

describe('questionnaire lifecycle', () => {
  let t: TestApp;
  let teacher: Caller;
  let teacherHk: Caller;

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    teacher = await as(t, 'teacher01');
    teacherHk = await as(t, 'teacher01', 'zh-hk');
  });
  afterAll(async () => t?.close());

  /** 709 with its catalogue text, in English and in zh-hk. */
  async function illegal(method: 'PUT' | 'POST' | 'DELETE', url: string, payload?: unknown) {
    expectError(await teacher(method, url, payload), 'ILLEGAL_TRANSITION', 'en');
    expectError(await teacherHk(method, url, payload), 'ILLEGAL_TRANSITION', 'zh-hk');
  }

  describe('creating', () => {
    it('creates a questionnaire in PREPARING with the caller in charge', async () => {
      const res = await teacher('POST', '/v1/questionnaires', { title: '  Subject survey  ' });
      const q = data(res, 201);
      expect(q).toMatchObject({ title: 'Subject survey', status: 'PREPARING', type: 'NAMED', inChargeId: await userId(t.db, 'teacher01'), targets: [], assistantIds: [], audienceCount: 0, respondentCount: 0, mayEdit: true });
      expect(q.definition).toEqual({ version: 1, sections: [{ id: 's1', questions: [] }] });
      const year = await t.db.selectFrom('school_years').select('id').where('year_status', '=', '1').executeTakeFirstOrThrow();
      expect(q.schoolYearId).toBe(year.id);
      expect(Date.now() - Date.parse(q.createDate)).toBeLessThan(60_000);
      // stored: it reads back the same
      expect(data(await teacher('GET', `/v1/questionnaires/${q.id}`))).toEqual(q);
    });

    it('creates for a teacher without a Google account while the school does not require one (the default)', async () => {
      const t12 = await as(t, 'teacher12');
      expect((await t.db.selectFrom('users').select('google_mail').where('username', '=', 'teacher12').executeTakeFirstOrThrow()).google_mail).toBeNull();
      expect(await create(t12, { title: 'No Google needed' })).toMatchObject({ status: 'PREPARING', inChargeId: await userId(t.db, 'teacher12') });
    });

    it('refuses a creator without a Google account (710) when the school requires one, and accepts them once one is set', async () => {
      await t.db.updateTable('school').set({ google_required: 1 }).execute();
      const t11 = await as(t, 'teacher11');
      expectError(await t11('POST', '/v1/questionnaires', { title: 'No Google' }), 'GOOGLE_ACCOUNT_REQUIRED');
      const hk = await as(t, 'teacher11', 'zh-hk');
      expectError(await hk('POST', '/v1/questionnaires', { title: 'No Google' }), 'GOOGLE_ACCOUNT_REQUIRED', 'zh-hk');
      expect(await t.db.selectFrom('questionnaires').select('id').where('title', '=', 'No Google').execute()).toEqual([]);

      await t.db.updateTable('users').set({ google_mail: 'teacher11@demo-qe-school.example' }).where('username', '=', 'teacher11').execute();
      const q = await create(t11, { title: 'With Google' });
      expect(q).toMatchObject({ status: 'PREPARING', inChargeId: await userId(t.db, 'teacher11') });
      await t.db.updateTable('school').set({ google_required: 0 }).execute();
    });

    it('answers 422 to a missing title and to an end date before the open date', async () => {
      const noTitle = await teacher('POST', '/v1/questionnaires', { type: 'NAMED' });
      expect(noTitle.statusCode).toBe(422);
      expect(noTitle.json().data).toEqual({ title: fieldMessage('required', 'en') });
      const backwards = await teacher('POST', '/v1/questionnaires', { title: 'Backwards', openDate: inMinutes(60), endDate: inMinutes(30) });
      expect(backwards.statusCode).toBe(422);
      expect(backwards.json().data).toEqual({ endDate: fieldMessage('dateRange', 'en') });
    });

    it('answers 422 to a school year that does not exist, on creation and on change', async () => {
      const res = await teacher('POST', '/v1/questionnaires', { title: 'Nowhen', schoolYearId: 99999 });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().data).toEqual({ schoolYearId: fieldMessage('reference', 'en') });
      const q = await create(teacher, { title: 'Somewhen' });
      const changed = await teacher('PUT', `/v1/questionnaires/${q.id}`, { schoolYearId: 99999 });
      expect(changed.statusCode, changed.body).toBe(422);
      expect(data(await teacher('GET', `/v1/questionnaires/${q.id}`)).schoolYearId).toBe(q.schoolYearId);
    });
  });

  describe('design complete (ready)', () => {
    it('needs a question (714), an audience (715) and both dates (422)', async () => {
      const classA = await classId(t.db, '1A');
      const empty = await create(teacher, { targets: [{ kind: 'CLASS', ids: [classA] }], openDate: inMinutes(60), endDate: inMinutes(120) });
      expectError(await teacher('POST', `/v1/questionnaires/${empty.id}/ready`), 'NO_QUESTIONS');
      expectError(await teacherHk('POST', `/v1/questionnaires/${empty.id}/ready`), 'NO_QUESTIONS', 'zh-hk');

      const nobody = await create(teacher, { definition: oneQuestion(), openDate: inMinutes(60), endDate: inMinutes(120) });
      expectError(await teacher('POST', `/v1/questionnaires/${nobody.id}/ready`), 'NO_AUDIENCE');
      // a choice that covers nobody is no audience either
      data(await teacher('PUT', `/v1/questionnaires/${nobody.id}`, { targets: [{ kind: 'USERS', ids: [] }] }));
      expectError(await teacher('POST', `/v1/questionnaires/${nobody.id}/ready`), 'NO_AUDIENCE');

      const undated = await create(teacher, { definition: oneQuestion(), targets: [{ kind: 'CLASS', ids: [classA] }] });
      const res = await teacher('POST', `/v1/questionnaires/${undated.id}/ready`);
      expect(res.statusCode).toBe(422);
      expect(res.json().data).toEqual({ openDate: fieldMessage('required', 'en'), endDate: fieldMessage('required', 'en') });
      const onlyOpen = await teacher('PUT', `/v1/questionnaires/${undated.id}`, { openDate: inMinutes(10) });
      data(onlyOpen);
      expect((await teacher('POST', `/v1/questionnaires/${undated.id}/ready`)).json().data).toEqual({ endDate: fieldMessage('required', 'en') });

      // none of them moved
      for (const q of [empty, nobody, undated]) expect(data(await teacher('GET', `/v1/questionnaires/${q.id}`)).status).toBe('PREPARING');
    });

    it('refuses an end date that has passed', async () => {
      const q = await create(teacher, { definition: oneQuestion(), targets: [{ kind: 'ALL_TEACHERS' }], openDate: inMinutes(-120), endDate: inMinutes(-60) });
      const res = await teacher('POST', `/v1/questionnaires/${q.id}/ready`);
      expect(res.statusCode).toBe(422);
      expect(res.json().data).toEqual({ endDate: fieldMessage('endInPast', 'en') });
    });

    it('with a future open date waits in NOT_OPEN, and opens at the open date with one feedback record per distinct respondent', async () => {
      const classA = await classId(t.db, '1A');
      const gradeS1 = await gradeId(t.db, 'S1');
      const studentsA = await classStudents(t.db, '1A');
      const studentsB = await classStudents(t.db, '1B');
      const teacher05 = await userId(t.db, 'teacher05');
      const openDate = inMinutes(60);
      // a class, its grade and a chosen student of the class, all teachers and one teacher chosen again
      const targets = [
        { kind: 'CLASS' as const, ids: [classA] },
        { kind: 'GRADE' as const, ids: [gradeS1] },
        { kind: 'USERS' as const, ids: [studentsA[0], teacher05] },
        { kind: 'ALL_TEACHERS' as const },
      ];
      const q = await create(teacher, { title: 'Opens later', definition: oneQuestion(), targets, openDate, endDate: inMinutes(24 * 60) });
      const expected = studentsA.length + studentsB.length + 20;
      expect(q.audienceCount).toBe(expected);

      const ready = data(await teacher('POST', `/v1/questionnaires/${q.id}/ready`));
      expect(ready).toMatchObject({ status: 'NOT_OPEN', respondentCount: 0, audienceCount: expected });
      expect(await feedbackRows(t.db, q.id)).toEqual([]);

      // nothing is due before the open date
      expect((await runDueWork(t.db, inMinutes(30))).opened).not.toContain(q.id);
      expect(data(await teacher('GET', `/v1/questionnaires/${q.id}`)).status).toBe('NOT_OPEN');

      const due = await runDueWork(t.db, openDate);
      expect(due.opened).toContain(q.id);
      const opened = data(await teacher('GET', `/v1/questionnaires/${q.id}`));
      expect(opened).toMatchObject({ status: 'PROCESSING', respondentCount: expected, submittedCount: 0, hasReplies: false });

      const rows = await feedbackRows(t.db, q.id);
      expect(rows).toHaveLength(expected);
      expect(new Set(rows.map((r) => r.user_id)).size).toBe(expected);
      const teachers = new Set((await t.db.selectFrom('users').select('id').where('user_type', '=', 'TEACHER').execute()).map((u) => u.id));
      for (const r of rows) {
        expect(r.status).toBe('NOT_SUBMITTED');
        expect(r.designated_code).toMatch(/^\S{4,}$/);
        expect(r.respondent_role).toBe(teachers.has(r.user_id) ? 'TEACHER' : 'STUDENT');
        expect(r.submitted_at).toBeNull();
        expect(r.notified_at).toBeNull();
      }
      expect(rows.filter((r) => r.respondent_role === 'TEACHER')).toHaveLength(20);
      expect(rows.filter((r) => r.respondent_role === 'STUDENT').map((r) => r.user_id).sort((a, b) => a - b)).toEqual([...studentsA, ...studentsB].sort((a, b) => a - b));
      expect(new Set(rows.map((r) => r.designated_code)).size).toBe(expected);

      // running again changes nothing
      expect((await runDueWork(t.db, openDate)).opened).not.toContain(q.id);
      expect(await feedbackRows(t.db, q.id)).toHaveLength(expected);
    });

    it('with an open date of now goes to PROCESSING at once', async () => {
      const students = await classStudents(t.db, '2A');
      const q = await create(teacher, { definition: oneQuestion(), targets: [{ kind: 'CLASS', ids: [await classId(t.db, '2A')] }], openDate: new Date().toISOString(), endDate: inMinutes(60) });
      const ready = data(await teacher('POST', `/v1/questionnaires/${q.id}/ready`));
      expect(ready).toMatchObject({ status: 'PROCESSING', respondentCount: students.length });
      expect((await feedbackRows(t.db, q.id)).map((r) => r.user_id)).toEqual(students);
    });
  });

  describe('transitions', () => {
    let prep: Questionnaire;
    let notOpen: Questionnaire;
    let open: Questionnaire;

    beforeAll(async () => {
      const ids = (await classStudents(t.db, '3A')).slice(0, 3);
      prep = await create(teacher, { title: 'Prep', definition: oneQuestion(), targets: [{ kind: 'USERS', ids }], openDate: inMinutes(60), endDate: inMinutes(120) });
      notOpen = await create(teacher, { title: 'Not open', definition: oneQuestion(), targets: [{ kind: 'USERS', ids }], openDate: inMinutes(60), endDate: inMinutes(120) });
      expect(data(await teacher('POST', `/v1/questionnaires/${notOpen.id}/ready`)).status).toBe('NOT_OPEN');
      open = await processing(teacher, [{ kind: 'USERS', ids }]);
    });

    it('cancels ready only from NOT_OPEN', async () => {
      await illegal('POST', `/v1/questionnaires/${prep.id}/cancel-ready`);
      await illegal('POST', `/v1/questionnaires/${open.id}/cancel-ready`);
      const back = data(await teacher('POST', `/v1/questionnaires/${notOpen.id}/cancel-ready`));
      expect(back.status).toBe('PREPARING');
      // and it can be made ready again; ready twice is illegal
      expect(data(await teacher('POST', `/v1/questionnaires/${notOpen.id}/ready`)).status).toBe('NOT_OPEN');
      await illegal('POST', `/v1/questionnaires/${notOpen.id}/ready`);
      await illegal('POST', `/v1/questionnaires/${open.id}/ready`);
    });

    it('closes only from PROCESSING', async () => {
      await illegal('POST', `/v1/questionnaires/${prep.id}/close`);
      await illegal('POST', `/v1/questionnaires/${notOpen.id}/close`);
      const q = await processing(teacher, [{ kind: 'ALL_TEACHERS' }], { title: 'Closed early' });
      expect(data(await teacher('POST', `/v1/questionnaires/${q.id}/close`)).status).toBe('FINISHED');
      await illegal('POST', `/v1/questionnaires/${q.id}/close`);
    });

    it('extends only in PROCESSING, and only to a later end date', async () => {
      const later = new Date(Date.parse(open.endDate!) + 3_600_000).toISOString();
      await illegal('POST', `/v1/questionnaires/${prep.id}/extend`, { endDate: later });
      await illegal('POST', `/v1/questionnaires/${notOpen.id}/extend`, { endDate: later });
      for (const endDate of [open.endDate!, new Date(Date.parse(open.endDate!) - 60_000).toISOString(), inMinutes(-5)]) {
        const res = await teacher('POST', `/v1/questionnaires/${open.id}/extend`, { endDate });
        expect(res.statusCode, endDate).toBe(422);
        expect(res.json().data).toEqual({ endDate: fieldMessage('laterEnd', 'en') });
      }
      expect(data(await teacher('GET', `/v1/questionnaires/${open.id}`)).endDate).toBe(open.endDate);
      const extended = data(await teacher('POST', `/v1/questionnaires/${open.id}/extend`, { endDate: later }));
      expect(extended).toMatchObject({ status: 'PROCESSING', endDate: later });
      open = extended;
    });

    it('finishes at the end date without anyone clicking', async () => {
      const q = await processing(teacher, [{ kind: 'ALL_TEACHERS' }], { title: 'Ends soon', endDate: inMinutes(30) });
      expect((await runDueWork(t.db, inMinutes(10))).finished).not.toContain(q.id);
      const due = await runDueWork(t.db, inMinutes(31));
      expect(due.finished).toContain(q.id);
      expect(data(await teacher('GET', `/v1/questionnaires/${q.id}`)).status).toBe('FINISHED');
      // the records of who had to answer stay
      expect(await feedbackRows(t.db, q.id)).toHaveLength(20);
    });

    it('refuses every change the status forbids with 709', async () => {
      const definition = oneQuestion();
      definition.sections[0].questions[0].title = 'Changed';
      // definition and audience only in PREPARING
      for (const q of [notOpen, open]) {
        await illegal('PUT', `/v1/questionnaires/${q.id}`, { definition });
        await illegal('PUT', `/v1/questionnaires/${q.id}`, { targets: [{ kind: 'ALL_STUDENTS' }] });
      }
      // the open date cannot move once open (sending it unchanged is fine)
      await illegal('PUT', `/v1/questionnaires/${open.id}`, { openDate: inMinutes(5) });
      expect(data(await teacher('PUT', `/v1/questionnaires/${open.id}`, { openDate: open.openDate, title: 'Open survey, renamed' })).title).toBe('Open survey, renamed');
      // before it opens the open date may move, and the title may change while it runs
      const moved = inMinutes(90);
      expect(data(await teacher('PUT', `/v1/questionnaires/${notOpen.id}`, { openDate: moved })).openDate).toBe(moved);
      // deleting once it has opened
      await illegal('DELETE', `/v1/questionnaires/${open.id}`);
      expect(data(await teacher('GET', `/v1/questionnaires/${open.id}`)).status).toBe('PROCESSING');
      const stored = await t.db.selectFrom('questionnaires').select(['definition', 'targets']).where('id', '=', open.id).executeTakeFirstOrThrow();
      expect(JSON.parse(stored.definition)).toEqual(oneQuestion());
      expect(JSON.parse(stored.targets)).toEqual(open.targets);
    });

    it('freezes named or anonymous from the moment it opens, replies or not', async () => {
      // ready but not open yet: the type may still change
      const notYet = await create(teacher, { title: 'Type before opening', targets: [{ kind: 'ALL_TEACHERS' }], definition: oneQuestion(), openDate: inMinutes(60), endDate: inMinutes(600) });
      data(await teacher('POST', `/v1/questionnaires/${notYet.id}/ready`));
      expect(data(await teacher('PUT', `/v1/questionnaires/${notYet.id}`, { type: 'ANONYMOUS' })).type).toBe('ANONYMOUS');
      // open, and nobody has answered yet: someone may have opened it as named, so it stays named
      const q = await processing(teacher, [{ kind: 'ALL_TEACHERS' }], { title: 'Type frozen' });
      expect(q.hasReplies).toBe(false);
      await illegal('PUT', `/v1/questionnaires/${q.id}`, { type: 'ANONYMOUS' });
      expect(data(await teacher('GET', `/v1/questionnaires/${q.id}`)).type).toBe('NAMED');
      const [first] = await feedbackRows(t.db, q.id);
      await t.db.updateTable('feedback').set({ status: 'SUBMITTED', submitted_at: new Date().toISOString() }).where('id', '=', first.id).execute();
      expect(data(await teacher('GET', `/v1/questionnaires/${q.id}`))).toMatchObject({ hasReplies: true, submittedCount: 1 });
      await illegal('PUT', `/v1/questionnaires/${q.id}`, { type: 'ANONYMOUS' });
      // the same type again is no change
      expect(data(await teacher('PUT', `/v1/questionnaires/${q.id}`, { type: 'NAMED', title: 'Type frozen still' })).type).toBe('NAMED');
    });

    it('refuses anything in FINISHED', async () => {
      const q = await processing(teacher, [{ kind: 'ALL_TEACHERS' }], { title: 'Finished' });
      data(await teacher('POST', `/v1/questionnaires/${q.id}/close`));
      await illegal('PUT', `/v1/questionnaires/${q.id}`, { title: 'New title' });
      await illegal('PUT', `/v1/questionnaires/${q.id}`, { endDate: inMinutes(600) });
      await illegal('PUT', `/v1/questionnaires/${q.id}`, { assistantIds: [await userId(t.db, 'teacher02')] });
      await illegal('POST', `/v1/questionnaires/${q.id}/extend`, { endDate: inMinutes(600) });
      await illegal('POST', `/v1/questionnaires/${q.id}/ready`);
      await illegal('POST', `/v1/questionnaires/${q.id}/cancel-ready`);
      await illegal('POST', `/v1/questionnaires/${q.id}/close`);
      await illegal('POST', `/v1/questionnaires/${q.id}/notice`);
      await illegal('DELETE', `/v1/questionnaires/${q.id}`);
      expect(data(await teacher('GET', `/v1/questionnaires/${q.id}`))).toMatchObject({ status: 'FINISHED', title: 'Finished' });
    });

    it('keeps the dates of a questionnaire that has been made ready: they may move, not go (422)', async () => {
      for (const [q, payload, field, rule] of [
        [notOpen, { openDate: null }, 'openDate', 'required'],
        [notOpen, { endDate: null }, 'endDate', 'required'],
        [open, { endDate: null }, 'endDate', 'required'],
        [open, { endDate: inMinutes(-1) }, 'endDate', 'runningEnd'],
        [notOpen, { endDate: inMinutes(-1) }, 'endDate', 'endInPast'],
      ] as const) {
        const res = await teacher('PUT', `/v1/questionnaires/${q.id}`, payload);
        expect(res.statusCode, res.body).toBe(422);
        expect(res.json().data).toEqual({ [field]: fieldMessage(rule, 'en') });
      }
      const a = data(await teacher('GET', `/v1/questionnaires/${notOpen.id}`));
      const b = data(await teacher('GET', `/v1/questionnaires/${open.id}`));
      expect([a.openDate, a.endDate, b.endDate]).not.toContain(null);
      expect(b.endDate).toBe(open.endDate);
      // a PREPARING one may still lose them
      expect(data(await teacher('PUT', `/v1/questionnaires/${prep.id}`, { openDate: null, endDate: null }))).toMatchObject({ openDate: null, endDate: null });
    });

    it('moves a running questionnaire\'s end date only later through an ordinary edit, as extend does (422, in both languages)', async () => {
      const running = await processing(teacher, [{ kind: 'ALL_TEACHERS' }], { title: 'Running', endDate: inMinutes(600) });
      const earlierButFuture = inMinutes(300);
      const aSecondEarlier = new Date(Date.parse(running.endDate!) - 1000).toISOString();
      for (const endDate of [inMinutes(-60), inMinutes(-1), earlierButFuture, aSecondEarlier]) {
        const res = await teacher('PUT', `/v1/questionnaires/${running.id}`, { endDate });
        expect(res.statusCode, endDate).toBe(422);
        expect(res.json().data).toEqual({ endDate: fieldMessage('runningEnd', 'en') });
      }
      const hk = await teacherHk('PUT', `/v1/questionnaires/${running.id}`, { endDate: inMinutes(-1) });
      expect(hk.json().data).toEqual({ endDate: fieldMessage('runningEnd', 'zh-hk') });
      // still running, with its end date; the scheduler does not finish it
      expect(data(await teacher('GET', `/v1/questionnaires/${running.id}`))).toMatchObject({ status: 'PROCESSING', endDate: running.endDate });
      expect((await runDueWork(t.db, inMinutes(1))).finished).not.toContain(running.id);
      // the same end date sent back with a title change is fine, and a later one moves it
      expect(data(await teacher('PUT', `/v1/questionnaires/${running.id}`, { title: 'Running, renamed', endDate: running.endDate }))).toMatchObject({ title: 'Running, renamed', endDate: running.endDate });
      const later = inMinutes(900);
      expect(data(await teacher('PUT', `/v1/questionnaires/${running.id}`, { endDate: later }))).toMatchObject({ status: 'PROCESSING', endDate: later });
      // before it opens the end date may still come earlier (not into the past)
      const waiting = await create(teacher, { title: 'Waiting', definition: oneQuestion(), targets: [{ kind: 'ALL_TEACHERS' }], openDate: inMinutes(60), endDate: inMinutes(600) });
      data(await teacher('POST', `/v1/questionnaires/${waiting.id}/ready`));
      expect(data(await teacher('PUT', `/v1/questionnaires/${waiting.id}`, { endDate: inMinutes(120) })).status).toBe('NOT_OPEN');
    });

    it('deletes a questionnaire that has not opened', async () => {
      const a = await create(teacher, { title: 'To delete' });
      expect((await teacher('DELETE', `/v1/questionnaires/${a.id}`)).json()).toEqual({ code: 200, msg: 'success', data: null });
      expectError(await teacher('GET', `/v1/questionnaires/${a.id}`), 'RECORD_NOT_FOUND');
      expect(data(await teacher('DELETE', `/v1/questionnaires/${notOpen.id}`), 200)).toBeNull();
      expect(await t.db.selectFrom('questionnaires').select('id').where('id', 'in', [a.id, notOpen.id]).execute()).toEqual([]);
    });
  });

  it('copies a questionnaire as a new one in PREPARING with the caller in charge', async () => {
    const teacher02 = await userId(t.db, 'teacher02');
    const teacher03 = await userId(t.db, 'teacher03');
    const original = await processing(teacher, [{ kind: 'CLASS', ids: [await classId(t.db, '4A')] }], { title: 'To copy', type: 'ANONYMOUS' });
    data(await teacher('PUT', `/v1/questionnaires/${original.id}`, { assistantIds: [teacher02, teacher03] }));
    // an assistant copies it: they are in charge of the copy, the others stay assistants
    const t02 = await as(t, 'teacher02');
    const copy = data(await t02('POST', `/v1/questionnaires/${original.id}/copy`), 201);
    expect(copy.id).not.toBe(original.id);
    expect(copy).toMatchObject({ title: 'To copy', status: 'PREPARING', type: 'ANONYMOUS', inChargeId: teacher02, targets: original.targets, openDate: null, endDate: null, lastNoticeTime: null, respondentCount: 0, hasReplies: false, mayEdit: true });
    expect(copy.assistantIds).toEqual([teacher03]);
    expect(copy.definition).toEqual(oneQuestion());
    expect(await feedbackRows(t.db, copy.id)).toEqual([]);
    // the original is untouched
    expect(data(await teacher('GET', `/v1/questionnaires/${original.id}`))).toMatchObject({ status: 'PROCESSING', inChargeId: await userId(t.db, 'teacher01') });
  });

  describe('on one instance only', () => {
    it('opens a questionnaire once when two openings race', async () => {
      const ids = await classStudents(t.db, '5A');
      const q = await create(teacher, { title: 'Race', definition: oneQuestion(), targets: [{ kind: 'CLASS', ids: [await classId(t.db, '5A')] }, { kind: 'ALL_TEACHERS' }], openDate: inMinutes(30), endDate: inMinutes(120) });
      data(await teacher('POST', `/v1/questionnaires/${q.id}/ready`));
      const results = await Promise.all([openQuestionnaire(t.db, q.id), openQuestionnaire(t.db, q.id)]);
      expect(results.filter(Boolean)).toHaveLength(1);
      const rows = await feedbackRows(t.db, q.id);
      expect(rows).toHaveLength(ids.length + 20);
      expect(new Set(rows.map((r) => r.user_id)).size).toBe(rows.length);
      expect(data(await teacher('GET', `/v1/questionnaires/${q.id}`)).status).toBe('PROCESSING');
    });

    it('opens and finishes once when two scheduler rounds race', async () => {
      const ids = await classStudents(t.db, '5B');
      const openDate = inMinutes(30);
      const qs: Questionnaire[] = [];
      for (const title of ['Race 1', 'Race 2', 'Race 3']) {
        const q = await create(teacher, { title, definition: oneQuestion(), targets: [{ kind: 'CLASS', ids: [await classId(t.db, '5B')] }], openDate, endDate: inMinutes(120) });
        data(await teacher('POST', `/v1/questionnaires/${q.id}/ready`));
        qs.push(q);
      }
      const rounds = await Promise.all([runDueWork(t.db, openDate), runDueWork(t.db, openDate), runDueWork(t.db, openDate)]);
      for (const q of qs) {
        expect(rounds.filter((r) => r.opened.includes(q.id)), q.title).toHaveLength(1);
        expect(await feedbackRows(t.db, q.id)).toHaveLength(ids.length);
      }
      const end = inMinutes(121);
      const finishing = await Promise.all([runDueWork(t.db, end), runDueWork(t.db, end)]);
      for (const q of qs) {
        expect(finishing.filter((r) => r.finished.includes(q.id))).toHaveLength(1);
        expect(data(await teacher('GET', `/v1/questionnaires/${q.id}`)).status).toBe('FINISHED');
      }
    });
  });
});
