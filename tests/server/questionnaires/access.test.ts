import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldMessage } from '../../../src/shared/field-messages.js';
import type { Definition } from '../../../src/shared/questionnaire/definition.js';
import type { Questionnaire } from '../../../src/shared/questionnaire/types.js';
import { login, testApp, type TestApp } from '../harness.js';
import { multipart } from '../master/helpers.js';
import { as, classId, classStudents, create, data, expectError, gradeId, inMinutes, oneQuestion, userId, type Caller } from './helpers.js';

type Option = { id: number; code: string; nameHk: string; nameEn: string; count?: number };
type Page<T> = { list: T[]; total: number };

describe('who may do what with questionnaires', () => {
  let t: TestApp;
  let teacher01: Caller;
  let teacher02: Caller;
  let admin: Caller;
  let student: Caller;
  let mine: Questionnaire;

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    teacher01 = await as(t, 'teacher01');
    teacher02 = await as(t, 'teacher02');
    admin = await as(t, 'admin');
    student = await as(t, 'student001');
    mine = await create(teacher01, { title: 'Teacher one’s survey', definition: oneQuestion(), targets: [{ kind: 'CLASS', ids: [await classId(t.db, '1A')] }], openDate: inMinutes(60), endDate: inMinutes(120) });
  });
  afterAll(async () => t?.close());

  const list = async (call: Caller, query = '') => data<Page<Questionnaire>>(await call('GET', `/v1/questionnaires${query}`));

  it('refuses a student (no form.view) on every route', async () => {
    const id = mine.id;
    const calls: [method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown][] = [
      ['GET', '/v1/questionnaires'],
      ['GET', `/v1/questionnaires/${id}`],
      ['POST', '/v1/questionnaires', { title: 'Student survey' }],
      ['PUT', `/v1/questionnaires/${id}`, { title: 'Hacked' }],
      ['DELETE', `/v1/questionnaires/${id}`],
      ['POST', `/v1/questionnaires/${id}/ready`],
      ['POST', `/v1/questionnaires/${id}/cancel-ready`],
      ['POST', `/v1/questionnaires/${id}/close`],
      ['POST', `/v1/questionnaires/${id}/extend`, { endDate: inMinutes(600) }],
      ['POST', `/v1/questionnaires/${id}/copy`],
      ['POST', `/v1/questionnaires/${id}/notice`],
      ['POST', '/v1/questionnaires/audience-count', { targets: [{ kind: 'ALL_STUDENTS' }] }],
      ['GET', '/v1/audience-options?kind=STUDENT'],
      ['GET', '/v1/staff-options'],
    ];
    for (const [method, url, payload] of calls) expectError(await student(method, url, payload), 'PERMISSION_DENIED');
    const upload = multipart('a.png', Buffer.from('not read'), 'image/png');
    const { tk } = await login(t.app, 'student001');
    expectError(await t.app.inject({ method: 'POST', url: '/v1/questionnaires/images', headers: { ...upload.headers, authorization: `Bearer ${tk}`, 'accept-language': 'en' }, payload: upload.payload }), 'PERMISSION_DENIED');
    // nothing changed
    const stored = await t.db.selectFrom('questionnaires').select(['title', 'status']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(stored).toEqual({ title: 'Teacher one’s survey', status: 'PREPARING' });
    expect(await t.db.selectFrom('questionnaires').select('id').where('title', '=', 'Student survey').execute()).toEqual([]);
  });

  it('hides a questionnaire from an unrelated teacher: not listed, 404 to read or change it', async () => {
    expect((await list(teacher02)).list.map((q) => q.id)).not.toContain(mine.id);
    const id = mine.id;
    for (const [method, url, payload] of [
      ['GET', `/v1/questionnaires/${id}`],
      ['PUT', `/v1/questionnaires/${id}`, { title: 'Taken over' }],
      ['PUT', `/v1/questionnaires/${id}`, { assistantIds: [await userId(t.db, 'teacher02')] }],
      ['DELETE', `/v1/questionnaires/${id}`],
      ['POST', `/v1/questionnaires/${id}/ready`],
      ['POST', `/v1/questionnaires/${id}/cancel-ready`],
      ['POST', `/v1/questionnaires/${id}/close`],
      ['POST', `/v1/questionnaires/${id}/extend`, { endDate: inMinutes(600) }],
      ['POST', `/v1/questionnaires/${id}/copy`],
      ['POST', `/v1/questionnaires/${id}/notice`],
    ] as const) {
      const res = await teacher02(method, url, payload);
      expectError(res, 'RECORD_NOT_FOUND');
      expect(res.json().data, `${method} ${url}`).toBeNull();
    }
    // the same answer as for a questionnaire that does not exist
    expectError(await teacher02('GET', '/v1/questionnaires/999999'), 'RECORD_NOT_FOUND');
    const stored = await t.db.selectFrom('questionnaires').select(['title', 'status']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(stored).toEqual({ title: 'Teacher one’s survey', status: 'PREPARING' });
    expect(await t.db.selectFrom('questionnaire_assistants').selectAll().where('questionnaire_id', '=', id).execute()).toEqual([]);
  });

  it('lets an assistant read and edit, but not delete', async () => {
    const t02 = await userId(t.db, 'teacher02');
    expect(data(await teacher01('PUT', `/v1/questionnaires/${mine.id}`, { assistantIds: [t02] })).assistantIds).toEqual([t02]);
    expect((await list(teacher02)).list.map((q) => q.id)).toContain(mine.id);
    const seen = data(await teacher02('GET', `/v1/questionnaires/${mine.id}`));
    expect(seen).toMatchObject({ id: mine.id, mayEdit: true, inChargeId: await userId(t.db, 'teacher01') });
    expect(seen.definition).toEqual(oneQuestion());
    expect(data(await teacher02('PUT', `/v1/questionnaires/${mine.id}`, { title: 'Edited by the assistant' })).title).toBe('Edited by the assistant');
    expectError(await teacher02('DELETE', `/v1/questionnaires/${mine.id}`), 'PERMISSION_DENIED');
    expect(data(await teacher01('GET', `/v1/questionnaires/${mine.id}`)).title).toBe('Edited by the assistant');
  });

  it('refuses an assistant who is not staff (422)', async () => {
    const res = await teacher01('PUT', `/v1/questionnaires/${mine.id}`, { assistantIds: [await userId(t.db, 'student002')] });
    expect(res.statusCode).toBe(422);
    expect(res.json().data).toEqual({ assistantIds: fieldMessage('reference', 'en') });
  });

  describe('the list', () => {
    let others: Questionnaire[];
    let pastYear: number;

    beforeAll(async () => {
      ({ id: pastYear } = await t.db.insertInto('school_years').values({ name: '2020-2021', begin_date: '2020-09-01', end_date: '2021-08-31', year_status: '0' }).returning('id').executeTakeFirstOrThrow());
      const t03 = await as(t, 'teacher03');
      others = [
        await create(t03, { title: 'Library Hours' }),
        await create(t03, { title: 'Canteen menu' }),
        await create(admin, { title: 'Admin’s own survey' }),
        await create(t03, { title: 'Old library survey', schoolYearId: pastYear }),
      ];
      // one in PROCESSING
      const open = await create(teacher01, { title: 'Open library poll', definition: oneQuestion(), targets: [{ kind: 'ALL_TEACHERS' }], openDate: inMinutes(-1), endDate: inMinutes(60) });
      expect(data(await teacher01('POST', `/v1/questionnaires/${open.id}/ready`)).status).toBe('PROCESSING');
      others.push(open);
      // admin assists with one of teacher03's
      data(await t03('PUT', `/v1/questionnaires/${others[1].id}`, { assistantIds: [await userId(t.db, 'admin')] }));
    });

    it('shows an admin (form.management) every questionnaire, and filters by scope', async () => {
      const all = await list(admin, '?size=200');
      expect(all.total).toBe(6);
      expect(all.list.map((q) => q.id).sort((a, b) => a - b)).toEqual([mine.id, ...others.map((q) => q.id)].sort((a, b) => a - b));
      expect(all.list.every((q) => q.mayEdit)).toBe(true);
      expect(all.list.every((q) => q.definition === undefined)).toBe(true);
      expect((await list(admin, '?scope=mine')).list.map((q) => q.title)).toEqual(['Admin’s own survey']);
      expect((await list(admin, '?scope=assisting')).list.map((q) => q.title)).toEqual(['Canteen menu']);
      // admins read and change what they neither lead nor assist
      expect(data(await admin('PUT', `/v1/questionnaires/${others[0].id}`, { title: 'Library hours' })).title).toBe('Library hours');
    });

    it('shows a teacher only their own and those they assist, and filters by scope', async () => {
      const t02 = await list(teacher02);
      expect(t02.list.map((q) => q.id)).toEqual([mine.id]);
      expect(t02.total).toBe(1);
      expect((await list(teacher02, '?scope=mine')).total).toBe(0);
      expect((await list(teacher02, '?scope=assisting')).list.map((q) => q.id)).toEqual([mine.id]);
      const t01 = await list(teacher01, '?scope=mine');
      expect(t01.list.map((q) => q.title).sort()).toEqual(['Edited by the assistant', 'Open library poll']);
      // asking for all does not widen a teacher's view
      expect((await list(teacher02, '?scope=all')).total).toBe(1);
    });

    it('filters by status, school year and title text (any case), and pages', async () => {
      expect((await list(admin, '?status=PROCESSING')).list.map((q) => q.title)).toEqual(['Open library poll']);
      expect((await list(admin, '?status=FINISHED')).total).toBe(0);
      expect((await list(admin, `?schoolYearId=${pastYear}`)).list.map((q) => q.title)).toEqual(['Old library survey']);
      const library = await list(admin, '?q=library&sort=title&order=asc');
      expect(library.list.map((q) => q.title)).toEqual(['Library hours', 'Old library survey', 'Open library poll']);
      expect((await list(admin, '?q=%20LIBRARY%20&status=PREPARING')).total).toBe(2);
      // % and _ are text, not wildcards
      expect((await list(admin, '?q=%25')).total).toBe(0);
      expect((await list(admin, '?q=_')).total).toBe(0);
      expect((await list(admin, `?q=${encodeURIComponent('admin’s')}`)).total).toBe(1);

      const page1 = await list(admin, '?size=4&page=1&sort=title&order=asc');
      const page2 = await list(admin, '?size=4&page=2&sort=title&order=asc');
      expect(page1.total).toBe(6);
      expect(page2.total).toBe(6);
      expect(page1.list).toHaveLength(4);
      expect(page2.list).toHaveLength(2);
      const titles = [...page1.list, ...page2.list].map((q) => q.title);
      expect(titles).toEqual([...titles].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      expect(new Set(titles).size).toBe(6);
      // newest first by default
      const byDefault = (await list(admin)).list.map((q) => q.id);
      expect(byDefault[0]).toBe(others[4].id);
      const bad = await admin('GET', '/v1/questionnaires?status=OPEN');
      expect(bad.statusCode).toBe(422);
      expect(Object.keys(bad.json().data)).toEqual(['status']);
    });

    it('counts the audience and the replies in each row', async () => {
      const rows = (await list(admin, '?size=200')).list;
      const open = rows.find((q) => q.title === 'Open library poll')!;
      expect(open).toMatchObject({ status: 'PROCESSING', audienceCount: 20, respondentCount: 20, submittedCount: 0 });
      const first = rows.find((q) => q.id === mine.id)!;
      expect(first).toMatchObject({ audienceCount: (await classStudents(t.db, '1A')).length, respondentCount: 0 });
      expect(first.inCharge).toMatchObject({ id: await userId(t.db, 'teacher01') });
    });
  });

  describe('definition validation', () => {
    const question = (extra: Record<string, unknown>) => ({ id: 'q1', title: 'Pick one', required: true, ...extra });
    async function problems(definition: unknown, lang: 'en' | 'zh-hk' = 'en') {
      const call = lang === 'en' ? teacher01 : await as(t, 'teacher01', 'zh-hk');
      const res = await call('PUT', `/v1/questionnaires/${mine.id}`, { definition });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().code).toBe(422);
      return res.json().data as Record<string, string>;
    }

    it('names each problem by its place with the text of the field messages', async () => {
      expect(await problems({ version: 1, sections: [{ id: 's1', questions: [question({ type: 'RADIO' })] }] })).toEqual({
        'definition.sections.0.questions.0.options': fieldMessage('definition.tooFewChoices', 'en'),
      });
      expect(await problems({ version: 1, sections: [{ id: 's1', questions: [question({ type: 'RADIO', options: [] })] }] }, 'zh-hk')).toEqual({
        'definition.sections.0.questions.0.options': fieldMessage('definition.tooFewChoices', 'zh-hk'),
      });
      expect(await problems({ version: 1, sections: [{ id: 's1', questions: [question({ type: 'ESSAY' })] }] })).toEqual({
        'definition.sections.0.questions.0.type': fieldMessage('definition.unknownType', 'en'),
      });
      const backward: Definition = {
        version: 1,
        sections: [
          { id: 's1', questions: [{ id: 'q1', type: 'SHORT_TEXT', title: 'Name', required: false }] },
          { id: 's2', questions: [{ id: 'q2', type: 'RADIO', title: 'Again?', required: true, options: [{ id: 'o1', label: 'Yes', goTo: 's1' }, { id: 'o2', label: 'No', goTo: 'END' }] }] },
        ],
      };
      expect(await problems(backward)).toEqual({ 'definition.sections.1.questions.0.options.0.goTo': fieldMessage('definition.backwardJump', 'en') });
      expect(await problems({ version: 1, sections: [{ id: 's1', next: 'nowhere', questions: [question({ type: 'DROPDOWN', options: [{ id: 'a', label: ' ' }, { id: 'a', label: 'B' }] })] }] })).toEqual({
        'definition.sections.0.questions.0.options.0.label': fieldMessage('definition.required', 'en'),
        'definition.sections.0.questions.0.options.1.id': fieldMessage('definition.duplicateId', 'en'),
        'definition.sections.0.next': fieldMessage('definition.unknownSection', 'en'),
      });
      expect(await problems({ version: 1, sections: [{ id: 's1', questions: [question({ type: 'LINEAR_SCALE', scale: { min: 1, max: 11 } }), question({ type: 'CHECKBOX', options: [{ id: 'a', label: 'A' }], choiceRule: { kind: 'atLeast', count: 3 } })] }] })).toEqual({
        'definition.sections.0.questions.0.scale': fieldMessage('definition.badScale', 'en'),
        'definition.sections.0.questions.1.id': fieldMessage('definition.duplicateId', 'en'),
        'definition.sections.0.questions.1.choiceRule': fieldMessage('definition.badRule', 'en'),
      });
      // a scale's end labels, shown to every respondent: text of at most 500 characters
      const scale = (labels: Record<string, unknown>) => ({ version: 1, sections: [{ id: 's1', questions: [question({ type: 'LINEAR_SCALE', scale: { min: 1, max: 5, ...labels } })] }] });
      expect(await problems(scale({ minLabel: { text: 'Bad' } }))).toEqual({ 'definition.sections.0.questions.0.scale': fieldMessage('definition.invalid', 'en') });
      expect(await problems(scale({ maxLabel: 7 }), 'zh-hk')).toEqual({ 'definition.sections.0.questions.0.scale': fieldMessage('definition.invalid', 'zh-hk') });
      expect(await problems(scale({ maxLabel: 'x'.repeat(501) }))).toEqual({ 'definition.sections.0.questions.0.scale': fieldMessage('definition.tooLong', 'en') });
      expect(await problems({ sections: [] })).toEqual({ definition: fieldMessage('definition.notADefinition', 'en') });
      // the same check on creation; nothing was stored
      const created = await teacher01('POST', '/v1/questionnaires', { title: 'Bad', definition: { version: 1, sections: [] } });
      expect(created.statusCode).toBe(422);
      expect(created.json().data).toEqual({ 'definition.sections': fieldMessage('definition.noSection', 'en') });
      expect(data(await teacher01('GET', `/v1/questionnaires/${mine.id}`)).definition).toEqual(oneQuestion());
    });

    it('stores a sound definition of every question type', async () => {
      const choices = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `c${i}`, label: `Choice ${i}` }));
      const all: Definition = {
        version: 1,
        sections: [
          {
            id: 's1',
            title: 'About you',
            questions: [
              { id: 'q1', type: 'SHORT_TEXT', title: 'Age', required: true, textRule: { kind: 'number', min: 10, max: 20 } },
              { id: 'q2', type: 'PARAGRAPH', title: 'Comments', required: false },
              { id: 'q3', type: 'RADIO', title: 'Club?', required: true, options: [{ id: 'y', label: 'Yes', goTo: 's2' }, { id: 'n', label: 'No', goTo: 'END' }], other: true },
              { id: 'q4', type: 'CHECKBOX', title: 'Subjects', required: false, options: choices(4), choiceRule: { kind: 'atMost', count: 2 } },
              { id: 'q5', type: 'DROPDOWN', title: 'House', required: true, options: choices(3) },
            ],
          },
          {
            id: 's2',
            questions: [
              { id: 'q6', type: 'LINEAR_SCALE', title: 'Happy?', required: true, scale: { min: 1, max: 5, minLabel: 'No', maxLabel: 'Yes' } },
              { id: 'q7', type: 'GRID_RADIO', title: 'Rate', required: true, rows: choices(2), columns: choices(3), onePerColumn: true },
              { id: 'q8', type: 'GRID_CHECKBOX', title: 'When', required: false, rows: choices(2), columns: choices(3), choiceRule: { kind: 'exactly', count: 1 } },
              { id: 'q9', type: 'DATE', title: 'Birthday', required: false, image: 'questionnaires/abc.png' },
              { id: 'q10', type: 'TIME', title: 'Wake up', required: false },
            ],
          },
        ],
      };
      expect(data(await teacher01('PUT', `/v1/questionnaires/${mine.id}`, { definition: all })).definition).toEqual(all);
      expect(data(await teacher01('GET', `/v1/questionnaires/${mine.id}`)).definition).toEqual(all);
    });
  });

  describe('the pickers', () => {
    let group: number;

    beforeAll(async () => {
      ({ id: group } = await t.db.insertInto('teacher_groups').values({ code: 'SCI', name_hk: '科學組', name_en: 'Science panel' }).returning('id').executeTakeFirstOrThrow());
      const members = await Promise.all(['teacher01', 'teacher02', 'teacher03', 'teacher04'].map((u) => userId(t.db, u)));
      await t.db.insertInto('teacher_group_members').values(members.map((user_id) => ({ group_id: group, user_id }))).execute();
      // teacher04 is off the job: not a respondent, not offered
      await t.db.updateTable('users').set({ status: '0' }).where('username', '=', 'teacher04').execute();
    });

    it('counts the audience per choice and in all, each person once', async () => {
      const classA = await classId(t.db, '1A');
      const studentsA = await classStudents(t.db, '1A');
      const studentsB = await classStudents(t.db, '1B');
      const targets = [
        { kind: 'CLASS', ids: [classA] },
        { kind: 'GRADE', ids: [await gradeId(t.db, 'S1')] },
        { kind: 'USERS', ids: [studentsA[0], await userId(t.db, 'teacher05')] },
        { kind: 'TEACHER_GROUP', ids: [group] },
        { kind: 'ALL_TEACHERS' },
      ];
      const counted = data<{ targets: { kind: string; count: number }[]; total: number }>(await teacher02('POST', '/v1/questionnaires/audience-count', { targets }));
      expect(counted.targets).toEqual(targets.map((target, i) => ({ ...target, count: [studentsA.length, studentsA.length + studentsB.length, 2, 3, 19][i] })));
      expect(counted.total).toBe(studentsA.length + studentsB.length + 19);
      const everyone = data<{ total: number }>(await teacher02('POST', '/v1/questionnaires/audience-count', { targets: [{ kind: 'ALL_STUDENTS' }, { kind: 'ALL_TEACHERS' }, { kind: 'GRADE', ids: [await gradeId(t.db, 'S2')] }] }));
      expect(everyone.total).toBe(200 + 19);
      expect(data<{ total: number }>(await teacher02('POST', '/v1/questionnaires/audience-count', { targets: [] })).total).toBe(0);
      const bad = await teacher02('POST', '/v1/questionnaires/audience-count', { targets: [{ kind: 'EVERYONE' }] });
      expect(bad.statusCode).toBe(422);
    });

    it('offers grades, classes and teacher groups with the number of people each covers', async () => {
      const grades = data<Page<Option>>(await teacher02('GET', '/v1/audience-options?kind=GRADE'));
      expect(grades.total).toBe(6);
      expect(grades.list.map((g) => g.code)).toEqual(['S1', 'S2', 'S3', 'S4', 'S5', 'S6']);
      for (const g of grades.list) {
        const n = g.code.slice(1);
        expect(g.count, g.code).toBe((await classStudents(t.db, `${n}A`)).length + (await classStudents(t.db, `${n}B`)).length);
      }
      expect(grades.list.reduce((n, g) => n + g.count!, 0)).toBe(200);

      const classes = data<Page<Option>>(await teacher02('GET', '/v1/audience-options?kind=CLASS'));
      expect(classes.total).toBe(12);
      expect(classes.list.map((c) => c.code)).toEqual(['1A', '1B', '2A', '2B', '3A', '3B', '4A', '4B', '5A', '5B', '6A', '6B']);
      for (const c of classes.list) expect(c.count, c.code).toBe((await classStudents(t.db, c.code)).length);
      expect(classes.list[0]).toMatchObject({ nameEn: '1A', nameHk: '中一A班' });

      const [S3] = grades.list.filter((g) => g.code === 'S3');
      const byId = data<Page<Option>>(await teacher02('GET', `/v1/audience-options?kind=GRADE&id=${S3.id}`));
      expect(byId.list).toEqual([S3]);
      expect(data<Page<Option>>(await teacher02('GET', `/v1/audience-options?kind=CLASS&q=${encodeURIComponent('中二')}`)).list.map((c) => c.code)).toEqual(['2A', '2B']);
      expect(data<Page<Option>>(await teacher02('GET', '/v1/audience-options?kind=CLASS&q=3a')).list.map((c) => c.code)).toEqual(['3A']);

      const groups = data<Page<Option>>(await teacher02('GET', '/v1/audience-options?kind=TEACHER_GROUP'));
      expect(groups).toEqual({ total: 1, list: [{ id: group, code: 'SCI', nameHk: '科學組', nameEn: 'Science panel', count: 3 }] });
      expect(data<Page<Option>>(await teacher02('GET', '/v1/audience-options?kind=TEACHER_GROUP&q=science')).total).toBe(1);
      expect(data<Page<Option>>(await teacher02('GET', '/v1/audience-options?kind=TEACHER_GROUP&q=arts')).total).toBe(0);
    });

    it('offers teachers and students, one person each, found by code, name or id, in pages', async () => {
      const teachers = data<Page<Option>>(await teacher02('GET', '/v1/audience-options?kind=TEACHER'));
      expect(teachers.total).toBe(19);
      expect(teachers.list.every((p) => p.count === 1)).toBe(true);
      expect(teachers.list.map((p) => p.code)).not.toContain('T004');
      const t05 = await userId(t.db, 'teacher05');
      const t06 = await userId(t.db, 'teacher06');
      expect(data<Page<Option>>(await teacher02('GET', `/v1/audience-options?kind=TEACHER&id=${t05}&id=${t06}`)).list.map((p) => p.code)).toEqual(['T005', 'T006']);
      expect(data<Page<Option>>(await teacher02('GET', `/v1/audience-options?kind=TEACHER&id=${t05}`)).list.map((p) => p.id)).toEqual([t05]);
      const t07 = await t.db.selectFrom('users').select(['name_en', 'name_hk']).where('username', '=', 'teacher07').executeTakeFirstOrThrow();
      expect(data<Page<Option>>(await teacher02('GET', `/v1/audience-options?kind=TEACHER&q=${encodeURIComponent(t07.name_en.toLowerCase())}`)).list.map((p) => p.code)).toContain('T007');
      expect(data<Page<Option>>(await teacher02('GET', `/v1/audience-options?kind=TEACHER&q=${encodeURIComponent(t07.name_hk)}`)).list.map((p) => p.code)).toContain('T007');

      const students = data<Page<Option>>(await teacher02('GET', '/v1/audience-options?kind=STUDENT&size=30&page=2'));
      expect(students.total).toBe(200);
      expect(students.list).toHaveLength(30);
      const first = data<Page<Option>>(await teacher02('GET', '/v1/audience-options?kind=STUDENT&size=30&page=1'));
      expect(new Set([...first.list, ...students.list].map((p) => p.id)).size).toBe(60);
      const last = data<Page<Option>>(await teacher02('GET', '/v1/audience-options?kind=STUDENT&size=30&page=7'));
      expect(last.list).toHaveLength(20);
      expect(data<Page<Option>>(await teacher02('GET', '/v1/audience-options?kind=STUDENT&q=student007')).list.map((p) => p.id)).toEqual([await userId(t.db, 'student007')]);
      expect((await teacher02('GET', '/v1/audience-options')).statusCode).toBe(422);
    });

    it('offers admins and teachers as assistants', async () => {
      const staff = data<Page<Option>>(await teacher02('GET', '/v1/staff-options?size=200'));
      expect(staff.total).toBe(1 + 19);
      expect(staff.list[0]).toMatchObject({ code: 'A001', nameEn: 'School Administrator' });
      expect(staff.list.map((p) => p.code)).not.toContain('T004');
      expect(staff.list.every((p) => /^(A|T)\d+$/.test(p.code))).toBe(true);
      expect(data<Page<Option>>(await teacher02('GET', '/v1/staff-options?q=T01')).list.map((p) => p.code)).toEqual(['T010', 'T011', 'T012', 'T013', 'T014', 'T015', 'T016', 'T017', 'T018', 'T019']);
      const admin = await userId(t.db, 'admin');
      expect(data<Page<Option>>(await teacher02('GET', `/v1/staff-options?id=${admin}`)).list.map((p) => p.id)).toEqual([admin]);
      const paged = data<Page<Option>>(await teacher02('GET', '/v1/staff-options?size=5&page=4'));
      expect(paged).toMatchObject({ total: 20 });
      expect(paged.list).toHaveLength(5);
    });
  });
});
