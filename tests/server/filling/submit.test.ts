import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession } from '../../../src/server/auth/sessions.js';
import { DEFAULT_TIME_ZONE, schoolDate } from '../../../src/shared/school-clock.js';
import { testApp, type TestApp } from '../harness.js';
import { caller } from '../master/helpers.js';
import type { Definition } from '../../../src/shared/questionnaire/definition.js';
import { as, classId, classStudents, create, data, expectError, inMinutes, oneQuestion, userId, type Caller } from '../questionnaires/helpers.js';
import { everyType, goodAnswers, newKey, opened, storedReplies } from './helpers.js';

interface Mine {
  id: number;
  title: string;
  status: string;
  type: string;
  openDate: string | null;
  endDate: string | null;
  schoolYearId: number | null;
  inCharge: { nameHk: string; nameEn: string };
  feedbackStatus: string;
  submittedAt: string | null;
  designatedCode: string;
  definition?: unknown;
  answers?: unknown;
}

// The respondent's side: my list, one questionnaire, and the submission (docs/architecture.md#a-submission).
describe('filling in a questionnaire', () => {
  let t: TestApp;
  let teacher: Caller;

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    teacher = await as(t, 'teacher01');
  });
  afterAll(async () => t?.close());

  /** A caller as one user, through a session of their own (no password check: quicker than logging in). */
  async function asUser(id: number, lang: 'en' | 'zh-hk' = 'en'): Promise<Caller> {
    return caller(t.app, await openSession(t.db, t.config, id), lang);
  }
  const cls = async (code: string) => [{ kind: 'CLASS' as const, ids: [await classId(t.db, code)] }];
  const submit = (call: Caller, id: number, answers: unknown, submissionKey = newKey()) => call('POST', `/v1/my/questionnaires/${id}/replies`, { submissionKey, answers });
  const myList = async (call: Caller, query = '') => data<{ list: Mine[]; total: number }>(await call('GET', `/v1/my/questionnaires${query}`));
  const feedbackOf = (questionnaireId: number, user: number) =>
    t.db.selectFrom('feedback').selectAll().where('questionnaire_id', '=', questionnaireId).where('user_id', '=', user).executeTakeFirstOrThrow();
  const repliesOf = (questionnaireId: number) => t.db.selectFrom('replies').selectAll().where('questionnaire_id', '=', questionnaireId).execute();

  describe('my questionnaires', () => {
    it('lists only those that target me, those in progress first, and filters them', async () => {
      const [me, other] = await classStudents(t.db, '6B');
      const [outsider] = await classStudents(t.db, '6A');
      const mine = [{ kind: 'USERS' as const, ids: [me, other] }];
      // finished first, with the earliest end: still listed after the ones in progress
      const closed = await opened(teacher, mine, { title: 'Closed early', definition: oneQuestion(), endDate: inMinutes(90) });
      data(await teacher('POST', `/v1/questionnaires/${closed.id}/close`));
      const later = await opened(teacher, mine, { title: 'Ends later', definition: oneQuestion(), endDate: inMinutes(60 * 48) });
      const sooner = await opened(teacher, mine, { title: 'Ends sooner', definition: oneQuestion(), endDate: inMinutes(60 * 24), type: 'ANONYMOUS' });
      // not for me, and not open yet (no feedback records): neither is listed
      await opened(teacher, [{ kind: 'USERS', ids: [outsider] }], { title: 'Someone else’s', definition: oneQuestion() });
      await opened(teacher, mine, { title: 'Opens tomorrow', definition: oneQuestion(), openDate: inMinutes(60 * 24), endDate: inMinutes(60 * 72) });

      const student = await asUser(me);
      const all = await myList(student);
      expect(all.total).toBe(3);
      expect(all.list.map((q) => q.title)).toEqual(['Ends sooner', 'Ends later', 'Closed early']);
      const teacherRow = await t.db.selectFrom('users').select(['name_hk', 'name_en']).where('username', '=', 'teacher01').executeTakeFirstOrThrow();
      const code = (await feedbackOf(sooner.id, me)).designated_code;
      expect(all.list[0]).toEqual({
        id: sooner.id,
        title: 'Ends sooner',
        titleTranslation: null,
        languages: ['zh-hk'],
        status: 'PROCESSING',
        type: 'ANONYMOUS',
        openDate: sooner.openDate,
        endDate: sooner.endDate,
        schoolYearId: sooner.schoolYearId,
        inCharge: { nameHk: teacherRow.name_hk, nameEn: teacherRow.name_en },
        feedbackStatus: 'NOT_SUBMITTED',
        submittedAt: null,
        designatedCode: code,
      });
      expect(all.list[2]).toMatchObject({ id: closed.id, status: 'FINISHED', feedbackStatus: 'NOT_SUBMITTED' });

      const { submittedAt } = data<{ submittedAt: string }>(await submit(student, later.id, { q1: 'Music' }));
      expect((await myList(student)).list[1]).toMatchObject({ id: later.id, feedbackStatus: 'SUBMITTED', submittedAt });

      expect((await myList(student, '?status=FINISHED')).list.map((q) => q.id)).toEqual([closed.id]);
      expect((await myList(student, '?status=PROCESSING')).list.map((q) => q.id)).toEqual([sooner.id, later.id]);
      expect((await myList(student, '?feedbackStatus=SUBMITTED')).list.map((q) => q.id)).toEqual([later.id]);
      expect((await myList(student, '?feedbackStatus=NOT_SUBMITTED')).list.map((q) => q.id)).toEqual([sooner.id, closed.id]);
      expect((await myList(student, `?schoolYearId=${later.schoolYearId}`)).total).toBe(3);
      expect(await myList(student, `?schoolYearId=${later.schoolYearId! + 1000}`)).toEqual({ list: [], total: 0 });
      // paging keeps the order and the total
      expect(await myList(student, '?page=2&size=1')).toMatchObject({ total: 3, list: [{ id: later.id }] });
      // someone else's submission is not mine
      expect((await myList(await asUser(other))).list.map((q) => [q.id, q.feedbackStatus])).toEqual([
        [sooner.id, 'NOT_SUBMITTED'],
        [later.id, 'NOT_SUBMITTED'],
        [closed.id, 'NOT_SUBMITTED'],
      ]);
      // a student asked nothing has an empty list
      expect(await myList(await asUser((await classStudents(t.db, '5B'))[0]))).toEqual({ list: [], total: 0 });
    });

    it('shows one that targets me with its questions, and 404 for one that does not', async () => {
      const [me] = await classStudents(t.db, '5A');
      const [outsider] = await classStudents(t.db, '5B');
      const q = await opened(teacher, await cls('5A'));
      const student = await asUser(me);
      const one = data<Mine>(await student('GET', `/v1/my/questionnaires/${q.id}`));
      expect(one).toMatchObject({ id: q.id, title: 'Every type', status: 'PROCESSING', feedbackStatus: 'NOT_SUBMITTED', submittedAt: null, answers: null });
      expect(one.definition).toEqual(everyType());
      expect(one.designatedCode).toBe((await feedbackOf(q.id, me)).designated_code);
      expectError(await (await asUser(outsider))('GET', `/v1/my/questionnaires/${q.id}`), 'RECORD_NOT_FOUND');
      expectError(await student('GET', '/v1/my/questionnaires/999999'), 'RECORD_NOT_FOUND');
      // the person in charge is not a respondent either
      expectError(await teacher('GET', `/v1/my/questionnaires/${q.id}`), 'RECORD_NOT_FOUND');
    });
  });

  describe('submitting', () => {
    it('stores a valid reply in one piece, marks me as submitted, and shows my answers back', async () => {
      const [me, other] = await classStudents(t.db, '1A');
      const q = await opened(teacher, await cls('1A'));
      const student = await asUser(me);
      const key = newKey();
      const res = await submit(student, q.id, goodAnswers(), key);
      const { submittedAt } = data<{ submittedAt: string }>(res);
      expect(Math.abs(Date.now() - Date.parse(submittedAt))).toBeLessThan(60_000);

      const feedback = await feedbackOf(q.id, me);
      expect(feedback).toMatchObject({ status: 'SUBMITTED', submitted_at: submittedAt, submission_key: key });
      const replies = await repliesOf(q.id);
      expect(replies).toHaveLength(1);
      // the school's day (Hong Kong), not the UTC date
      expect(replies[0]).toMatchObject({ feedback_id: feedback.id, submitted_on: schoolDate(submittedAt, DEFAULT_TIME_ZONE) });
      expect(JSON.parse(replies[0].answers)).toEqual(goodAnswers());

      const one = data<Mine>(await student('GET', `/v1/my/questionnaires/${q.id}`));
      expect(one).toMatchObject({ feedbackStatus: 'SUBMITTED', submittedAt, answers: goodAnswers() });
      // a classmate who has not submitted: no answers
      expect(data<Mine>(await (await asUser(other))('GET', `/v1/my/questionnaires/${q.id}`))).toMatchObject({ feedbackStatus: 'NOT_SUBMITTED', answers: null });
      expect((await feedbackOf(q.id, other)).status).toBe('NOT_SUBMITTED');
    });

    it('checks each reply against the definition stored now: one changed behind the server’s back (a restore, another instance) is read anew', async () => {
      const [first, second] = (await classStudents(t.db, '6A')).slice(-2);
      const q = await opened(teacher, [{ kind: 'USERS', ids: [first, second] }], { definition: oneQuestion() });
      data(await submit(await asUser(first), q.id, { q1: 'Music' }));
      // the definition the first reply was checked against is now kept in memory; the row changes, with its updated_at
      const changed: Definition = { version: 1, sections: [{ id: 's1', questions: [...oneQuestion().sections[0].questions, { id: 'q2', type: 'SHORT_TEXT', title: 'And why?', required: true }] }] };
      await t.db.updateTable('questionnaires').set({ definition: JSON.stringify(changed), updated_at: new Date(Date.now() + 1000).toISOString() }).where('id', '=', q.id).execute();
      const student = await asUser(second);
      const refused = await submit(student, q.id, { q1: 'Art' });
      expect(refused.statusCode).toBe(422);
      expect(Object.keys(refused.json().data)).toEqual(['q2']);
      data(await submit(student, q.id, { q1: 'Art', q2: 'Colours' }));
      expect((await repliesOf(q.id)).map((r) => JSON.parse(r.answers)).sort((a, b) => a.q1.localeCompare(b.q1))).toEqual([{ q1: 'Art', q2: 'Colours' }, { q1: 'Music' }]);
    });

    it('drops the answers of a section the way skipped, and leaves out unanswered optional questions', async () => {
      const [me] = await classStudents(t.db, '1B');
      const q = await opened(teacher, await cls('1B'));
      const student = await asUser(me);
      // "No" goes to the end: the second section's required question need not be answered, and what it holds is not kept
      const { why: _why, story: _story, ...rest } = goodAnswers();
      const answers = { ...rest, more: { choice: 'no' }, why: 'typed before changing my mind', story: '   ' };
      data(await submit(student, q.id, answers));
      const [reply] = await repliesOf(q.id);
      const { why: _dropped, story: _blank, ...kept } = answers;
      expect(JSON.parse(reply.answers)).toEqual(kept);
      expect(data<Mine>(await student('GET', `/v1/my/questionnaires/${q.id}`)).answers).toEqual(kept);
    });

    it('answers 422 with a message per question, in zh-hk and in en, and stores nothing', async () => {
      const [me] = await classStudents(t.db, '2A');
      const q = await opened(teacher, await cls('2A'));
      const bad = {
        nope: 'a question that does not exist',
        name: 'Abcdefg',
        age: 'abc',
        code: '9Z',
        sports: { choices: ['run'] },
        club: { choices: ['art', 'music'] },
        house: { choice: 'green' },
        mood: 4,
        rank: { r1: 'c1', r2: 'c1' },
        slots: { am: ['mon'] },
        birthday: '2023-02-29',
        wake: '25:00',
        more: { choice: 'yes' },
      };
      const expected = {
        en: {
          nope: 'This answer is not valid',
          name: 'The answer must be 2 to 5 characters',
          age: 'Please enter a number',
          code: 'Like 3A',
          sports: 'Choose at least 2 options',
          club: 'Choose at most one option',
          house: 'This answer is not valid',
          rank: 'Music: Each column can be chosen in one row only',
          slots: 'This question requires an answer in every row (“Afternoon” has none)',
          birthday: 'This answer is not valid',
          wake: 'This answer is not valid',
          why: 'This question requires an answer',
        },
        'zh-hk': {
          nope: '答案無效',
          name: '答案須為 2 至 5 個字',
          age: '請輸入數字',
          code: 'Like 3A',
          sports: '最少選擇 2 項',
          club: '最多選擇 1 項',
          house: '答案無效',
          rank: 'Music：每一欄只可在一列中選擇',
          slots: '此問題每一列都必須回答（「Afternoon」未回答）',
          birthday: '答案無效',
          wake: '答案無效',
          why: '此問題必須回答',
        },
      } as const;
      for (const lang of ['en', 'zh-hk'] as const) {
        const res = await submit(await asUser(me, lang), q.id, bad);
        expect(res.statusCode, res.body).toBe(422);
        expect(res.json()).toEqual({ code: 422, msg: Object.values(expected[lang]).join('; '), data: expected[lang] });
      }

      // one rule at a time, each on its own
      const student = await asUser(me);
      const problem = async (change: Record<string, unknown>) => {
        const res = await submit(student, q.id, { ...goodAnswers(), ...change });
        expect(res.statusCode, res.body).toBe(422);
        return res.json().data as Record<string, string>;
      };
      expect(await problem({ name: undefined })).toEqual({ name: 'This question requires an answer' });
      expect(await problem({ name: 'K' })).toEqual({ name: 'The answer must be 2 to 5 characters' });
      expect(await problem({ age: '25' })).toEqual({ age: 'Please enter a number from 10 to 20' });
      expect(await problem({ code: '3a' })).toEqual({ code: 'Like 3A' });
      expect(await problem({ sports: { choices: ['run', 'fly'] } })).toEqual({ sports: 'This answer is not valid' });
      expect(await problem({ sports: { choices: ['run', '__other__'] } })).toEqual({ sports: 'Please fill in “Other”' });
      expect(await problem({ club: { choices: ['art', 'music', 'chess'] } })).toEqual({ club: 'Choose at most one option' });
      expect(await problem({ house: { choice: '__other__', otherText: 'Green' } })).toEqual({ house: 'This answer is not valid' });
      expect(await problem({ mood: 6 })).toEqual({ mood: 'This answer is not valid' });
      expect(await problem({ rank: { r1: 'c3', r2: 'c2' } })).toEqual({ rank: 'This answer is not valid' });
      expect(await problem({ rank: { r1: 'c1', r9: 'c2' } })).toEqual({ rank: 'This answer is not valid' });
      expect(await problem({ rank: { r1: 'c1' } })).toEqual({ rank: 'This question requires an answer in every row (“Music” has none)' });
      expect(await problem({ slots: { am: ['mon', 'mon'], pm: ['tue'] } })).toEqual({ slots: 'This answer is not valid' });
      expect(await problem({ birthday: '29/02/2012' })).toEqual({ birthday: 'This answer is not valid' });
      expect(await problem({ wake: '7:30' })).toEqual({ wake: 'This answer is not valid' });
      expect(await problem({ more: { choice: 'maybe' } })).toEqual({ more: 'This answer is not valid' });
      expect(await problem({ why: '' })).toEqual({ why: 'This question requires an answer' });
      // the body itself: answers must be an object, the key of the client's kind
      for (const body of [{ submissionKey: newKey(), answers: 'all good' }, { submissionKey: 'short', answers: {} }, { answers: {} }]) {
        const res = await student('POST', `/v1/my/questionnaires/${q.id}/replies`, body);
        expect(res.statusCode, res.body).toBe(422);
      }

      expect((await feedbackOf(q.id, me)).status).toBe('NOT_SUBMITTED');
      expect(await repliesOf(q.id)).toEqual([]);
      // and once it is right, it goes in
      data(await submit(student, q.id, goodAnswers()));
      expect(await repliesOf(q.id)).toHaveLength(1);
    });

    it('answers a repeat with the same submission key with the first result, and stores one reply', async () => {
      const [me] = await classStudents(t.db, '2B');
      const q = await opened(teacher, await cls('2B'));
      const student = await asUser(me);
      const key = newKey();
      const first = data<{ submittedAt: string }>(await submit(student, q.id, goodAnswers(), key));
      await new Promise((r) => setTimeout(r, 10));
      const again = data<{ submittedAt: string }>(await submit(student, q.id, goodAnswers(), key));
      expect(again).toEqual(first);
      // a retry whose answers differ (edited after a lost answer) still answers the first result and changes nothing
      const changed = data<{ submittedAt: string }>(await submit(student, q.id, { ...goodAnswers(), name: 'Other' }, key));
      expect(changed).toEqual(first);
      const replies = await repliesOf(q.id);
      expect(replies).toHaveLength(1);
      expect(JSON.parse(replies[0].answers).name).toBe('Kit');
    });

    it('refuses a second submission once submitted (709), in en and zh-hk', async () => {
      const [me] = await classStudents(t.db, '3A');
      const q = await opened(teacher, await cls('3A'));
      data(await submit(await asUser(me), q.id, goodAnswers()));
      const submittedAt = (await feedbackOf(q.id, me)).submitted_at;
      expectError(await submit(await asUser(me), q.id, { ...goodAnswers(), name: 'Again' }), 'ALREADY_SUBMITTED');
      expectError(await submit(await asUser(me, 'zh-hk'), q.id, goodAnswers()), 'ALREADY_SUBMITTED', 'zh-hk');
      // even an invalid one: the answer is "already submitted", not a form to correct
      expectError(await submit(await asUser(me), q.id, {}), 'ALREADY_SUBMITTED');
      expect((await feedbackOf(q.id, me)).submitted_at).toBe(submittedAt);
      const replies = await repliesOf(q.id);
      expect(replies).toHaveLength(1);
      expect(JSON.parse(replies[0].answers).name).toBe('Kit');
    });

    it('refuses a submission before the questionnaire opens (709)', async () => {
      const [me] = await classStudents(t.db, '3B');
      const [outsider] = await classStudents(t.db, '4A');
      const q = await opened(teacher, await cls('3B'), { openDate: inMinutes(60), endDate: inMinutes(60 * 24) });
      expect(q.status).toBe('NOT_OPEN');
      expectError(await submit(await asUser(me), q.id, goodAnswers()), 'NOT_OPEN_YET');
      expectError(await submit(await asUser(me, 'zh-hk'), q.id, goodAnswers()), 'NOT_OPEN_YET', 'zh-hk');
      // someone it will not target hears that they are not asked
      expectError(await submit(await asUser(outsider), q.id, goodAnswers()), 'NOT_A_RESPONDENT');
      expect(await repliesOf(q.id)).toEqual([]);
      expect(await t.db.selectFrom('feedback').select('id').where('questionnaire_id', '=', q.id).execute()).toEqual([]);
    });

    it('refuses a submission after the end: closed by staff, or the end date passed before the scheduler noticed (709)', async () => {
      const [first, second] = await classStudents(t.db, '4A');
      const closed = await opened(teacher, await cls('4A'));
      data(await teacher('POST', `/v1/questionnaires/${closed.id}/close`));
      expectError(await submit(await asUser(first), closed.id, goodAnswers()), 'QUESTIONNAIRE_CLOSED');
      expectError(await submit(await asUser(first, 'zh-hk'), closed.id, goodAnswers()), 'QUESTIONNAIRE_CLOSED', 'zh-hk');

      const ended = await opened(teacher, await cls('4A'));
      // time passes: the end date is now behind us while the status still says PROCESSING
      await t.db.updateTable('questionnaires').set({ end_date: inMinutes(-1) }).where('id', '=', ended.id).execute();
      expectError(await submit(await asUser(second), ended.id, goodAnswers()), 'QUESTIONNAIRE_CLOSED');
      for (const id of [closed.id, ended.id]) {
        expect(await repliesOf(id)).toEqual([]);
        expect((await t.db.selectFrom('feedback').select('status').where('questionnaire_id', '=', id).execute()).every((f) => f.status === 'NOT_SUBMITTED')).toBe(true);
      }
    });

    it('refuses someone outside the audience (405), and a questionnaire that does not exist (404)', async () => {
      const [outsider] = await classStudents(t.db, '4B');
      const q = await opened(teacher, await cls('5A'));
      expectError(await submit(await asUser(outsider), q.id, goodAnswers()), 'NOT_A_RESPONDENT');
      expectError(await submit(await asUser(outsider, 'zh-hk'), q.id, goodAnswers()), 'NOT_A_RESPONDENT', 'zh-hk');
      expectError(await submit(teacher, q.id, goodAnswers()), 'NOT_A_RESPONDENT');
      expectError(await submit(await asUser(outsider), 999999, goodAnswers()), 'RECORD_NOT_FOUND');
      expect(await repliesOf(q.id)).toEqual([]);
    });

    it('refuses a staff member without form-input.view (403), though the questionnaire targets them', async () => {
      const t05 = await userId(t.db, 'teacher05');
      const q = await opened(teacher, [{ kind: 'USERS', ids: [t05] }], { definition: oneQuestion() });
      // teacher05's role loses "fill in questionnaires": a role of their own with everything else a teacher has
      const teacherRole = await t.db.selectFrom('roles').select('id').where('role_code', '=', 'TEACHER').executeTakeFirstOrThrow();
      const { id: role } = await t.db
        .insertInto('roles')
        .values({ system: 'QE', user_type: 'TEACHER', role_code: 'NO_FORMS', name_hk: '不填問卷', name_en: 'No forms', remark: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      const formInput = await t.db
        .selectFrom('actions as a')
        .innerJoin('menus as m', 'm.id', 'a.menu_id')
        .select('a.id')
        .where('m.code', '=', 'form-input')
        .where('a.code', '=', 'view')
        .executeTakeFirstOrThrow();
      const actions = await t.db.selectFrom('role_actions').select('action_id').where('role_id', '=', teacherRole.id).where('action_id', '!=', formInput.id).execute();
      await t.db.insertInto('role_actions').values(actions.map((a) => ({ role_id: role, action_id: a.action_id }))).execute();
      await t.db.updateTable('user_roles').set({ role_id: role }).where('user_id', '=', t05).execute();

      const staff = await asUser(t05);
      const res = await submit(staff, q.id, { q1: 'Music' });
      expectError(res, 'PERMISSION_DENIED');
      expect(res.statusCode).toBe(403);
      expectError(await submit(await asUser(t05, 'zh-hk'), q.id, { q1: 'Music' }), 'PERMISSION_DENIED', 'zh-hk');
      expectError(await staff('GET', '/v1/my/questionnaires'), 'PERMISSION_DENIED');
      expectError(await staff('GET', `/v1/my/questionnaires/${q.id}`), 'PERMISSION_DENIED');
      // the rest of a teacher's work still goes
      expect((await staff('GET', '/v1/questionnaires')).json().code).toBe(200);
      expect((await feedbackOf(q.id, t05)).status).toBe('NOT_SUBMITTED');
      expect(await repliesOf(q.id)).toEqual([]);
    });

    it('shows no answers back for an anonymous questionnaire, only that it was submitted', async () => {
      const [me] = await classStudents(t.db, '6A');
      const q = await opened(teacher, await cls('6A'), { type: 'ANONYMOUS' });
      const student = await asUser(me);
      const { submittedAt } = data<{ submittedAt: string }>(await submit(student, q.id, goodAnswers()));
      const one = data<Mine>(await student('GET', `/v1/my/questionnaires/${q.id}`));
      expect(one).toMatchObject({ type: 'ANONYMOUS', feedbackStatus: 'SUBMITTED', submittedAt, answers: null });
      const [reply] = await storedReplies(t.db, q.id);
      expect(reply.feedback_id).toBeNull();
      expect(JSON.parse(reply.answers)).toEqual(goodAnswers());
    });
  });

  // Answer patterns run on RE2, in linear time (src/shared/questionnaire/pattern.ts)
  describe('answer patterns', () => {
    const withPattern = (pattern: string): Definition => ({
      version: 1,
      sections: [{ id: 's1', questions: [{ id: 'code', type: 'SHORT_TEXT', title: 'Code', required: true, textRule: { kind: 'pattern', pattern } }] }],
    });
    const field = 'definition.sections.0.questions.0.textRule';
    const unsupported = {
      en: 'This pattern cannot be used: check how it is written. Back-references (such as \\1), look-ahead and look-behind (such as (?=…), (?!…), (?<=…), (?<!…)) are not supported, and a repeat is at most 1000',
      'zh-hk': '此格式無法使用：請檢查寫法。不支援反向參照（例如 \\1）及前瞻或後顧（例如 (?=…)、(?!…)、(?<=…)、(?<!…)），重複次數最多 1000',
    };
    const tooComplex = {
      en: 'This pattern is too complex (alone or with the other patterns of the questionnaire) to check answers quickly: use fewer or smaller repeats (such as {1,20} instead of {1,1000})',
      'zh-hk': '此格式太複雜（或連同問卷其他格式太複雜），未能快速檢查答案：請減少或縮小重複次數（例如以 {1,20} 代替 {1,1000}）',
    };

    it('refuses on save a pattern RE2 cannot run (lookaround, back-reference) or that costs too much: 422 on the rule, in en and zh-hk', async () => {
      const callers = { en: teacher, 'zh-hk': await as(t, 'teacher01', 'zh-hk') };
      for (const lang of ['en', 'zh-hk'] as const) {
        for (const [pattern, message] of [
          ['(?=x)x', unsupported[lang]],
          ['(a)\\1', unsupported[lang]],
          ['(?:(?:a|aa|aaa){1,1000})+b', tooComplex[lang]],
        ]) {
          const res = await callers[lang]('POST', '/v1/questionnaires', { title: 'Patterns', definition: withPattern(pattern) });
          expect(res.statusCode, res.body).toBe(422);
          expect(res.json()).toMatchObject({ code: 422, data: { [field]: message } });
          expect(Object.keys(res.json().data)).toEqual([field]);
        }
      }
      // an existing questionnaire keeps its pattern when the new one is refused
      const q = await create(teacher, { title: 'Patterns', definition: withPattern('[0-9]{8}') });
      const res = await teacher('PUT', `/v1/questionnaires/${q.id}`, { definition: withPattern('(?<!a)b') });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().data).toEqual({ [field]: unsupported.en });
      const stored = await t.db.selectFrom('questionnaires').select('definition').where('id', '=', q.id).executeTakeFirstOrThrow();
      expect(JSON.parse(stored.definition).sections[0].questions[0].textRule).toEqual({ kind: 'pattern', pattern: '[0-9]{8}' });
      // patterns RE2 runs are saved, JavaScript's \u escapes and named groups included
      const saved = data(await teacher('PUT', `/v1/questionnaires/${q.id}`, { definition: withPattern('(?<surname>[\\u4e00-\\u9fff])[\\u4e00-\\u9fff]{1,3}') }));
      expect(saved.definition?.sections[0].questions[0].textRule?.pattern).toBe('(?<surname>[\\u4e00-\\u9fff])[\\u4e00-\\u9fff]{1,3}');
    });

    it('answers a submission against (a+)+b at once, with the pattern problem, for the longest answer a short text takes', async () => {
      const [me, other] = await classStudents(t.db, '3B');
      const q = await opened(teacher, [{ kind: 'USERS', ids: [me, other] }], { title: 'Catastrophic pattern', definition: withPattern('(a+)+b') });
      // JavaScript's RegExp took 24.5 s for 32 characters, ×2.3 for each one more: 1,000 would never end
      for (const [lang, message] of [
        ['en', 'The answer is not in the required format'],
        ['zh-hk', '答案格式不正確'],
      ] as const) {
        const student = await asUser(me, lang);
        for (const answer of ['a'.repeat(32), 'a'.repeat(1000)]) {
          const res = await submit(student, q.id, { code: answer });
          expect(res.statusCode, res.body.slice(0, 200)).toBe(422);
          expect(res.json()).toEqual({ code: 422, msg: message, data: { code: message } });
        }
      }
      // longer than a short text takes: refused before any pattern runs
      const res = await submit(await asUser(me), q.id, { code: 'a'.repeat(5000) });
      expect(res.json()).toEqual({ code: 422, msg: 'The answer must be at most 1000 characters', data: { code: 'The answer must be at most 1000 characters' } });
      expect(await repliesOf(q.id)).toEqual([]);
      // the server is still answering, and a matching answer goes in
      data(await submit(await asUser(me), q.id, { code: `${'a'.repeat(999)}b` }));
      expect((await feedbackOf(q.id, me)).status).toBe('SUBMITTED');
      expect((await feedbackOf(q.id, other)).status).toBe('NOT_SUBMITTED');
    });

    it('does not apply a pattern stored before RE2 that RE2 refuses: the respondent can still answer', async () => {
      const [me, other] = await classStudents(t.db, '3B');
      const q = await opened(teacher, [{ kind: 'USERS', ids: [me, other] }], { title: 'Stored before RE2', definition: withPattern('[0-9]{8}') });
      // as a definition saved before this check held it: a back-reference (RegExp ran it; RE2 cannot)
      await t.db.updateTable('questionnaires').set({ definition: JSON.stringify(withPattern('(\\d)\\1{7}')) }).where('id', '=', q.id).execute();
      data(await submit(await asUser(me), q.id, { code: 'not eight digits' }));
      expect(JSON.parse((await repliesOf(q.id))[0].answers)).toEqual({ code: 'not eight digits' });
      // its other rules still hold: required, and the length limit
      expect((await submit(await asUser(other), q.id, { code: ' ' })).json().data).toEqual({ code: 'This question requires an answer' });
      expect((await submit(await asUser(other), q.id, { code: 'x'.repeat(1001) })).json().data).toEqual({ code: 'The answer must be at most 1000 characters' });
    });
  });
});
