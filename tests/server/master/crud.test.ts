import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorText } from '../../../src/shared/errors.js';
import { fieldMessage } from '../../../src/shared/field-messages.js';
import { login, testApp, type TestApp } from '../harness.js';
import { answers, caller, type Method } from './helpers.js';

/**
 * The master-data API of every entity (docs/conventions.md#calls): list with paging, sort, search and
 * filters; one; add; partial edit; delete and its refusals; field errors; accounts.
 */
describe('master data CRUD', () => {
  let t: TestApp;
  let call: (method: Method, url: string, payload?: unknown) => ReturnType<ReturnType<typeof caller>>;
  let callHk: typeof call;
  const passwords = new Set(['Passw0rd!']);

  beforeAll(async () => {
    t = await testApp({ demo: true });
    const { tk } = await login(t.app, 'admin');
    call = caller(t.app, tk, 'en');
    callHk = caller(t.app, tk, 'zh-hk');
  });
  afterAll(async () => t?.close());

  const data = async (method: Method, url: string, payload?: unknown, code = method === 'POST' ? 201 : 200) => {
    const res = await call(method, url, payload);
    expect(res.json(), `${method} ${url}: ${res.body}`).toMatchObject({ code });
    return res.json().data;
  };
  const fields = async (method: Method, url: string, payload: unknown) => {
    const res = await call(method, url, payload);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().code).toBe(422);
    return res.json().data as Record<string, string>;
  };
  const refusal = async (method: Method, url: string) => {
    const res = await call(method, url);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().code).toBe(708);
    expect(res.json().msg).toBe(errorText('IN_USE', 'en'));
    return res.json().data as { cascade: boolean; dependents: { label: string; count: number }[] };
  };
  const idOf = async (resource: string, q: string) => {
    const page = await data('GET', `/v1/${resource}?q=${encodeURIComponent(q)}`);
    expect(page.total, `${resource} ${q}`).toBe(1);
    return page.list[0].id as number;
  };
  const en = (rule: string, params?: Record<string, string | number>) => fieldMessage(rule, 'en', params);
  const loginCode = async (username: string, password = 'Passw0rd!') =>
    (await t.app.inject({ method: 'POST', url: '/v1/login', payload: { username, password } })).json().code as number;
  const meCode = async (tk: string) => (await caller(t.app, tk)('GET', '/v1/my/user-info')).json().code as number;

  describe('school years', () => {
    it('lists the demo year as the current one, and filters by year status', async () => {
      const page = await data('GET', '/v1/school-years');
      expect(page).toMatchObject({ total: 1, list: [{ name: '2026-2027', beginDate: '2026-09-01', endDate: '2027-08-31', yearStatus: '1' }] });
      expect((await data('GET', '/v1/school-years?yearStatus=0')).total).toBe(0);
      expect((await data('GET', '/v1/school-years?yearStatus=1')).total).toBe(1);
    });

    it('gets one with its terms', async () => {
      const id = await idOf('school-years', '2026-2027');
      const year = await data('GET', `/v1/school-years/${id}`);
      expect(year.terms).toHaveLength(2);
      expect(year.terms[0]).toMatchObject({ nameEn: 'First term', beginDate: '2026-09-01', endDate: '2027-01-31' });
    });

    it('adds a year with terms, edits it partially, sorts, and deletes it', async () => {
      const added = await data('POST', '/v1/school-years', {
        name: '2027-2028',
        beginDate: '2027-09-01',
        endDate: '2028-08-31',
        terms: [{ nameHk: '上學期', nameEn: 'First term', beginDate: '2027-09-01', endDate: '2028-01-31' }],
      });
      expect(added).toMatchObject({ name: '2027-2028', yearStatus: '0', terms: [{ nameEn: 'First term' }] });
      const edited = await data('PUT', `/v1/school-years/${added.id}`, { name: '2027-28' });
      expect(edited).toMatchObject({ name: '2027-28', beginDate: '2027-09-01', endDate: '2028-08-31', yearStatus: '0' });
      expect(edited.terms).toHaveLength(1);

      const desc = await data('GET', '/v1/school-years');
      expect(desc.list.map((y: { name: string }) => y.name)).toEqual(['2027-28', '2026-2027']);
      const asc = await data('GET', '/v1/school-years?sort=beginDate&order=asc');
      expect(asc.list.map((y: { name: string }) => y.name)).toEqual(['2026-2027', '2027-28']);
      expect((await data('GET', '/v1/school-years?q=27-28')).total).toBe(1);

      await data('DELETE', `/v1/school-years/${added.id}`);
      expect((await call('GET', `/v1/school-years/${added.id}`)).statusCode).toBe(404);
    });

    it('refuses an end date before the start date, on add and on a partial edit', async () => {
      expect(await fields('POST', '/v1/school-years', { name: 'bad', beginDate: '2030-09-01', endDate: '2030-08-31' })).toEqual({ endDate: en('dateRange') });
      const id = await idOf('school-years', '2026-2027');
      // the terms no longer fit in the year either
      expect(await fields('PUT', `/v1/school-years/${id}`, { endDate: '2026-01-01' })).toMatchObject({ endDate: en('dateRange') });
      expect((await data('GET', `/v1/school-years/${id}`)).endDate).toBe('2027-08-31');
    });

    it('refuses a duplicate name, naming it', async () => {
      const errors = await fields('POST', '/v1/school-years', { name: '2026-2027', beginDate: '2030-09-01', endDate: '2031-08-31' });
      expect(errors).toEqual({ name: en('duplicate', { value: '2026-2027' }) });
      expect(errors.name).toContain('2026-2027');
    });

    it('keeps exactly one current year: marking another unmarks the first, which cannot be unmarked or deleted', async () => {
      const first = await idOf('school-years', '2026-2027');
      expect((await refusal('DELETE', `/v1/school-years/${first}`)).cascade).toBe(false);
      expect(await fields('PUT', `/v1/school-years/${first}`, { yearStatus: '0' })).toEqual({ yearStatus: en('currentYear') });

      const second = (await data('POST', '/v1/school-years', { name: '2028-2029', beginDate: '2028-09-01', endDate: '2029-08-31', yearStatus: '1' })).id;
      try {
        const current = await data('GET', '/v1/school-years?yearStatus=1');
        expect(current.list.map((y: { id: number }) => y.id)).toEqual([second]);
        expect((await data('GET', `/v1/school-years/${first}`)).yearStatus).toBe('0');
        expect((await refusal('DELETE', `/v1/school-years/${second}`)).cascade).toBe(false);
        // the first year still holds the students' classes: deleting it takes them too, after the stronger confirmation
        const used = await refusal('DELETE', `/v1/school-years/${first}`);
        expect(used).toEqual({ cascade: true, dependents: [{ label: 'qe.master.dependents.studentClasses', count: 200 }] });
      } finally {
        await data('PUT', `/v1/school-years/${first}`, { yearStatus: '1' });
      }
      const current = await data('GET', '/v1/school-years?yearStatus=1');
      expect(current.list.map((y: { id: number }) => y.id)).toEqual([first]);
      await data('DELETE', `/v1/school-years/${second}`);
    });
  });

  describe('grades and classes', () => {
    it('lists the six grades in order with their class counts, and searches', async () => {
      const page = await data('GET', '/v1/grade-classes');
      expect(page.total).toBe(6);
      expect(page.list.map((g: { code: string }) => g.code)).toEqual(['S1', 'S2', 'S3', 'S4', 'S5', 'S6']);
      expect(page.list.every((g: { classCount: number }) => g.classCount === 2)).toBe(true);
      const found = await data('GET', '/v1/grade-classes?q=secondary%203');
      expect(found.list.map((g: { code: string }) => g.code)).toEqual(['S3']);
      const desc = await data('GET', '/v1/grade-classes?sort=code&order=desc&size=2');
      expect(desc.list.map((g: { code: string }) => g.code)).toEqual(['S6', 'S5']);
    });

    it('adds a grade with classes, drops an unused class, and deletes the grade', async () => {
      const added = await data('POST', '/v1/grade-classes', {
        code: 'S7',
        nameHk: '中七',
        nameEn: 'Secondary 7',
        seq: 7,
        classes: [{ code: '7A', nameHk: '中七A班', nameEn: '7A' }, { code: '7B', nameHk: '中七B班', nameEn: '7B' }],
      });
      expect(added).toMatchObject({ code: 'S7', classCount: 2, classes: [{ code: '7A' }, { code: '7B' }] });
      const kept = added.classes[0];
      const edited = await data('PUT', `/v1/grade-classes/${added.id}`, { classes: [{ ...kept, nameEn: '7 Alpha' }] });
      expect(edited).toMatchObject({ code: 'S7', nameEn: 'Secondary 7', classCount: 1, classes: [{ id: kept.id, code: '7A', nameEn: '7 Alpha' }] });
      const renamed = await data('PUT', `/v1/grade-classes/${added.id}`, { nameEn: 'Form 7' });
      expect(renamed).toMatchObject({ nameEn: 'Form 7', classCount: 1 });
      await data('DELETE', `/v1/grade-classes/${added.id}`);
      expect((await data('GET', '/v1/grade-classes')).total).toBe(6);
    });

    it('keeps class codes unique across grades and within one', async () => {
      const other = await fields('POST', '/v1/grade-classes', { code: 'S8', nameHk: '中八', nameEn: 'Secondary 8', classes: [{ code: '1A', nameHk: 'x', nameEn: 'x' }] });
      expect(other).toEqual({ 'classes.0.code': en('duplicate', { value: '1A' }) });
      const same = await fields('POST', '/v1/grade-classes', {
        code: 'S8',
        nameHk: '中八',
        nameEn: 'Secondary 8',
        classes: [{ code: '8A', nameHk: 'x', nameEn: 'x' }, { code: '8A', nameHk: 'y', nameEn: 'y' }],
      });
      expect(same).toEqual({ 'classes.1.code': en('duplicate', { value: '8A' }) });
      expect(await fields('POST', '/v1/grade-classes', { code: 'S1', nameHk: '中一', nameEn: 'Secondary 1' })).toEqual({ code: en('duplicate', { value: 'S1' }) });
      expect((await data('GET', '/v1/grade-classes')).total).toBe(6);
    });

    it('refuses to drop a class that has students, or to delete its grade (708)', async () => {
      const id = await idOf('grade-classes', 'Secondary 1');
      const grade = await data('GET', `/v1/grade-classes/${id}`);
      const res = await call('PUT', `/v1/grade-classes/${id}`, { classes: [grade.classes[0]] });
      expect(res.json()).toMatchObject({ code: 708, data: { cascade: false, dependents: [{ label: 'qe.master.dependents.studentClasses', count: 17 }] } });
      expect((await refusal('DELETE', `/v1/grade-classes/${id}`)).cascade).toBe(false);
      expect((await refusal('DELETE', `/v1/grade-classes/${id}?cascade=1`)).cascade).toBe(false);
      expect((await data('GET', `/v1/grade-classes/${id}`)).classes).toHaveLength(2);
    });
  });

  describe('positions', () => {
    it('lists the demo positions with their teacher counts, sorted and searched', async () => {
      const page = await data('GET', '/v1/positions');
      expect(page.list.map((p: { code: string; teacherCount: number }) => [p.code, p.teacherCount])).toEqual([['P', 1], ['VP', 1], ['PH', 4], ['T', 14]]);
      const byCount = await data('GET', '/v1/positions?sort=teacherCount&order=desc&size=1');
      expect(byCount).toMatchObject({ total: 4, list: [{ code: 'T' }] });
      expect((await data('GET', '/v1/positions?q=principal')).total).toBe(2);
    });

    it('adds, edits partially and deletes one; refuses a duplicate code, naming it', async () => {
      const added = await data('POST', '/v1/positions', { code: 'LIB', nameHk: '圖書館主任', nameEn: 'Librarian', seq: 9 });
      expect(added).toEqual({ id: added.id, code: 'LIB', nameHk: '圖書館主任', nameEn: 'Librarian', seq: 9, teacherCount: 0 });
      expect(await data('PUT', `/v1/positions/${added.id}`, { nameEn: 'Teacher librarian' })).toMatchObject({ code: 'LIB', nameHk: '圖書館主任', nameEn: 'Teacher librarian', seq: 9 });
      expect(await fields('PUT', `/v1/positions/${added.id}`, { code: 'VP' })).toEqual({ code: en('duplicate', { value: 'VP' }) });
      const hk = await callHk('POST', '/v1/positions', { code: 'LIB', nameHk: 'x', nameEn: 'x' });
      expect(hk.json().data).toEqual({ code: fieldMessage('duplicate', 'zh-hk', { value: 'LIB' }) });
      // strings are trimmed before they are checked and stored
      const trimmed = await data('POST', '/v1/positions', { code: '  LIB2 ', nameHk: ' 副主任', nameEn: 'Deputy librarian  ' });
      expect(trimmed).toMatchObject({ code: 'LIB2', nameHk: '副主任', nameEn: 'Deputy librarian' });
      await data('DELETE', `/v1/positions/${trimmed.id}`);
      await data('DELETE', `/v1/positions/${added.id}`);
      expect((await call('GET', `/v1/positions/${added.id}`)).statusCode).toBe(404);
    });

    it('refuses to delete a position teachers hold (708, naming the dependents), even with cascade', async () => {
      const id = await idOf('positions', 'Vice principal');
      const used = await refusal('DELETE', `/v1/positions/${id}`);
      expect(used).toEqual({ cascade: false, dependents: [{ label: 'qe.master.dependents.teachers', count: 1 }] });
      expect(await refusal('DELETE', `/v1/positions/${id}?cascade=1`)).toEqual(used);
      expect((await data('GET', `/v1/positions/${id}`)).teacherCount).toBe(1);
    });
  });

  describe('teacher groups', () => {
    it('saves members and counts them; refuses a member who is not a teacher', async () => {
      const t1 = await idOf('teachers', 'teacher11');
      const t2 = await idOf('teachers', 'teacher12');
      const t3 = await idOf('teachers', 'teacher13');
      const group = await data('POST', '/v1/teacher-groups', { code: 'MATH', nameHk: '數學科', nameEn: 'Mathematics', seq: 1, memberIds: [t1, t2] });
      expect(group).toMatchObject({ code: 'MATH', memberCount: 2 });
      expect([...group.memberIds].sort()).toEqual([t1, t2].sort());
      const other = await data('POST', '/v1/teacher-groups', { code: 'ENG', nameHk: '英文科', nameEn: 'English', seq: 2 });
      expect(other).toMatchObject({ memberIds: [], memberCount: 0 });

      expect(await data('PUT', `/v1/teacher-groups/${group.id}`, { memberIds: [t3] })).toMatchObject({ memberIds: [t3], memberCount: 1, nameEn: 'Mathematics' });
      expect(await data('PUT', `/v1/teacher-groups/${group.id}`, { nameEn: 'Maths' })).toMatchObject({ memberIds: [t3], memberCount: 1, nameEn: 'Maths' });

      const page = await data('GET', '/v1/teacher-groups?sort=memberCount&order=desc');
      expect(page).toMatchObject({ total: 2, list: [{ code: 'MATH', memberCount: 1, memberIds: [t3] }, { code: 'ENG', memberCount: 0 }] });
      expect((await data('GET', '/v1/teacher-groups?q=eng')).list.map((g: { code: string }) => g.code)).toEqual(['ENG']);

      const student = await idOf('students', 'student001');
      expect(await fields('PUT', `/v1/teacher-groups/${group.id}`, { memberIds: [t1, student] })).toEqual({ memberIds: en('reference') });
      expect(await fields('POST', '/v1/teacher-groups', { code: 'ENG', nameHk: 'x', nameEn: 'x' })).toEqual({ code: en('duplicate', { value: 'ENG' }) });

      await data('DELETE', `/v1/teacher-groups/${other.id}`);
      expect((await data('GET', '/v1/teacher-groups')).total).toBe(1);
    });
  });

  describe('teachers', () => {
    it('lists by seq, searches, filters by status and position, sorts', async () => {
      const page = await data('GET', '/v1/teachers?size=3');
      expect(page.total).toBe(20);
      expect(page.list.map((x: { username: string }) => x.username)).toEqual(['teacher01', 'teacher02', 'teacher03']);
      expect((await data('GET', '/v1/teachers?q=TEACHER05')).list.map((x: { username: string }) => x.username)).toEqual(['teacher05']);
      const ph = await idOf('positions', 'Panel head');
      const heads = await data('GET', `/v1/teachers?positionId=${ph}`);
      expect(heads.list.map((x: { username: string }) => x.username)).toEqual(['teacher03', 'teacher04', 'teacher05', 'teacher06']);
      expect((await data('GET', '/v1/teachers?status=1')).total).toBe(20);
      expect((await data('GET', '/v1/teachers?status=0')).total).toBe(0);
      const desc = await data('GET', '/v1/teachers?sort=code&order=desc&size=2');
      expect(desc.list.map((x: { code: string }) => x.code)).toEqual(['T020', 'T019']);
      expect((await call('GET', '/v1/teachers?status=9')).statusCode).toBe(422);
      // the search box is trimmed and its wildcards are plain characters
      expect((await data('GET', '/v1/teachers?q=%20%20teacher05%20')).total).toBe(1);
      expect((await data('GET', '/v1/teachers?q=%25')).total).toBe(0);
      expect((await data('GET', '/v1/teachers?q=_')).total).toBe(0);
      // several by id (what a reference picker asks for)
      const picked = await data('GET', `/v1/teachers?id=999999&id=${page.list[1].id}&id=${page.list[2].id}`);
      expect(picked.list.map((x: { username: string }) => x.username)).toEqual(['teacher02', 'teacher03']);
    });

    it('adds a teacher who can log in, edits partially, and deletes', async () => {
      const position = await idOf('positions', 'Panel head');
      const added = await data('POST', '/v1/teachers', { code: 'T900', username: 'newteacher', password: 'abc12345', nameHk: '新老師', nameEn: 'New Teacher', abbr: 'NT', positionId: position, email: '' });
      passwords.add('abc12345');
      expect(added).toMatchObject({ code: 'T900', username: 'newteacher', status: '1', positionId: position, email: null, seq: 0 });
      expect(added).not.toHaveProperty('password');
      const { tk } = await login(t.app, 'newteacher', 'abc12345');
      expect(await meCode(tk)).toBe(200);

      const edited = await data('PUT', `/v1/teachers/${added.id}`, { nameEn: 'Newer Teacher', email: 'nt@school.edu.hk' });
      expect(edited).toMatchObject({ code: 'T900', username: 'newteacher', nameHk: '新老師', nameEn: 'Newer Teacher', abbr: 'NT', positionId: position, email: 'nt@school.edu.hk' });
      expect((await data('GET', `/v1/teachers/${added.id}`)).nameEn).toBe('Newer Teacher');
      expect(await fields('PUT', `/v1/teachers/${added.id}`, { positionId: 999999 })).toEqual({ positionId: en('reference') });

      await data('DELETE', `/v1/teachers/${added.id}`);
      expect((await call('GET', `/v1/teachers/${added.id}`)).statusCode).toBe(404);
      expect(await loginCode('newteacher', 'abc12345')).toBe(700);
    });

    it('answers field errors with the rule texts: email, password, required, duplicate account', async () => {
      const base = { code: 'T901', username: 'teacher901', password: 'abc12345', nameHk: '甲', nameEn: 'A' };
      expect(await fields('POST', '/v1/teachers', { ...base, email: 'not-an-email' })).toEqual({ email: en('email') });
      expect(await fields('POST', '/v1/teachers', { ...base, email: 'a@b.c' })).toEqual({ email: en('email') });
      expect(await fields('POST', '/v1/teachers', { ...base, password: '12345' })).toEqual({ password: en('password') });
      expect(await fields('POST', '/v1/teachers', { ...base, password: '1234567890123456' })).toEqual({ password: en('password') });
      expect(await fields('POST', '/v1/teachers', { ...base, nameEn: undefined })).toEqual({ nameEn: en('required') });
      const dup = await fields('POST', '/v1/teachers', { ...base, username: 'teacher01' });
      expect(dup).toEqual({ username: en('duplicate', { value: 'teacher01' }) });
      expect(dup.username).toContain('teacher01');
      expect(await fields('POST', '/v1/teachers', { ...base, code: 'T001' })).toEqual({ code: en('duplicate', { value: 'T001' }) });
      const hk = await callHk('POST', '/v1/teachers', { ...base, email: 'x@y', password: '123' });
      expect(hk.json().data).toEqual({ email: fieldMessage('email', 'zh-hk'), password: fieldMessage('password', 'zh-hk') });
      expect((await data('GET', '/v1/teachers?q=T901')).total).toBe(0);
    });

    it('locks out a teacher set off the job: no login (701) and the open session ends (444)', async () => {
      const { tk, userId } = await login(t.app, 'teacher07');
      expect(await meCode(tk)).toBe(200);
      expect(await data('PUT', `/v1/teachers/${userId}`, { status: '0' })).toMatchObject({ status: '0', username: 'teacher07' });
      expect(await meCode(tk)).toBe(444);
      expect(await loginCode('teacher07')).toBe(701);
      expect((await data('GET', '/v1/teachers?status=0')).list.map((x: { username: string }) => x.username)).toEqual(['teacher07']);
      await data('PUT', `/v1/teachers/${userId}`, { status: '1' });
      expect(await loginCode('teacher07')).toBe(200);
    });

    it('resets a password: the new one logs in, the old one and the old sessions end', async () => {
      const { tk, userId } = await login(t.app, 'teacher08');
      expect(await fields('PUT', `/v1/teachers/${userId}/password`, { password: '12345' })).toEqual({ password: en('password') });
      expect(await meCode(tk)).toBe(200);
      expect(await data('PUT', `/v1/teachers/${userId}/password`, { password: 'N3wSecret' })).toBeNull();
      passwords.add('N3wSecret');
      expect(await meCode(tk)).toBe(444);
      expect(await loginCode('teacher08')).toBe(700);
      expect(await loginCode('teacher08', 'N3wSecret')).toBe(200);
      expect((await call('PUT', '/v1/teachers/999999/password', { password: 'N3wSecret' })).statusCode).toBe(404);
      // an account of another kind is not reached through this resource
      const student = await idOf('students', 'student002');
      expect((await call('PUT', `/v1/teachers/${student}/password`, { password: 'N3wSecret' })).statusCode).toBe(404);
      expect(await loginCode('student002')).toBe(200);
    });

    it('refuses to delete a teacher in a group (708, cascade offered), then deletes with cascade=1', async () => {
      const teacher = await data('POST', '/v1/teachers', { code: 'T902', username: 'teacher902', password: 'abc12345', nameHk: '乙', nameEn: 'B' });
      const other = await idOf('teachers', 'teacher14');
      const group = await data('POST', '/v1/teacher-groups', { code: 'PE', nameHk: '體育科', nameEn: 'PE', memberIds: [teacher.id, other] });
      const used = await refusal('DELETE', `/v1/teachers/${teacher.id}`);
      expect(used).toEqual({ cascade: true, dependents: [{ label: 'qe.master.dependents.teacherGroups', count: 1 }] });
      expect((await data('GET', `/v1/teachers/${teacher.id}`)).username).toBe('teacher902');
      await data('DELETE', `/v1/teachers/${teacher.id}?cascade=1`);
      expect((await call('GET', `/v1/teachers/${teacher.id}`)).statusCode).toBe(404);
      expect(await data('GET', `/v1/teacher-groups/${group.id}`)).toMatchObject({ memberIds: [other], memberCount: 1 });
    });
  });

  describe('students', () => {
    it('lists 200, searches, filters by class and status, sorts', async () => {
      const page = await data('GET', '/v1/students?size=50&page=4');
      expect(page.total).toBe(200);
      expect(page.list).toHaveLength(50);
      expect(page.list[0].code).toBe('S2026151');
      const classes = (await data('GET', '/v1/classes')).list as { id: number; code: string }[];
      const c1a = classes.find((c) => c.code === '1A')!.id;
      const inClass = await data('GET', `/v1/students?classId=${c1a}&size=100&sort=studentNumber`);
      expect(inClass.total).toBe(17);
      expect(inClass.list.every((s: { classId: number }) => s.classId === c1a)).toBe(true);
      expect(inClass.list.map((s: { studentNumber: number }) => s.studentNumber)).toEqual(Array.from({ length: 17 }, (_, i) => i + 1));
      const c6b = classes.find((c) => c.code === '6B')!.id;
      expect((await data('GET', `/v1/students?classId=${c6b}`)).total).toBe(13);
      expect((await data('GET', `/v1/students?classId=${c6b}&q=student200`)).total).toBe(1);
      expect((await data('GET', `/v1/students?classId=${c1a}&q=student200`)).total).toBe(0);
      const desc = await data('GET', '/v1/students?sort=username&order=desc&size=1');
      expect(desc.list[0].username).toBe('student200');
      expect((await data('GET', '/v1/students?status=1')).total).toBe(200);
    });

    it('adds a student with a class and number for the current year, edits partially and deletes', async () => {
      const classes = (await data('GET', '/v1/classes')).list as { id: number; code: string }[];
      const c2a = classes.find((c) => c.code === '2A')!.id;
      const c2b = classes.find((c) => c.code === '2B')!.id;
      const added = await data('POST', '/v1/students', { code: 'S9001', username: 'stu9001', password: 'abc12345', nameHk: '學生甲', nameEn: 'Student A', classId: c2a, studentNumber: 40, email: 'a@school.edu.hk' });
      expect(added).toMatchObject({ code: 'S9001', classId: c2a, studentNumber: 40, status: '1', leaveDate: null });
      expect((await data('GET', `/v1/students?classId=${c2a}`)).total).toBe(18);
      await login(t.app, 'stu9001', 'abc12345');

      const moved = await data('PUT', `/v1/students/${added.id}`, { classId: c2b });
      expect(moved).toMatchObject({ classId: c2b, studentNumber: 40, nameEn: 'Student A', email: 'a@school.edu.hk' });
      expect((await data('GET', `/v1/students?classId=${c2a}`)).total).toBe(17);
      expect(await data('PUT', `/v1/students/${added.id}`, { email: '' })).toMatchObject({ email: null, classId: c2b });

      await data('DELETE', `/v1/students/${added.id}`);
      expect((await call('GET', `/v1/students/${added.id}`)).statusCode).toBe(404);
      expect((await data('GET', `/v1/students?classId=${c2b}`)).total).toBe(17);
    });

    it('answers field errors: code not beginning with S, half a placement, duplicate account', async () => {
      const base = { code: 'S9002', username: 'stu9002', password: 'abc12345', nameHk: '學生乙', nameEn: 'Student B' };
      expect(await fields('POST', '/v1/students', { ...base, code: 'X9002' })).toEqual({ code: en('studentCode') });
      expect(await fields('POST', '/v1/students', { ...base, code: 's9002' })).toEqual({ code: en('studentCode') });
      expect(await fields('POST', '/v1/students', { ...base, email: 'bad@' })).toEqual({ email: en('email') });
      const classes = (await data('GET', '/v1/classes')).list as { id: number; code: string }[];
      expect(await fields('POST', '/v1/students', { ...base, classId: classes[0].id })).toEqual({ studentNumber: en('required') });
      expect(await fields('POST', '/v1/students', { ...base, classId: 999999, studentNumber: 1 })).toEqual({ classId: en('reference') });
      expect(await fields('POST', '/v1/students', { ...base, username: 'student001' })).toEqual({ username: en('duplicate', { value: 'student001' }) });
      expect(await fields('POST', '/v1/students', { ...base, status: '2' })).toEqual({ leaveDate: en('leaveDate') });
      expect((await data('GET', '/v1/students?q=S9002')).total).toBe(0);
      expect(await loginCode('stu9002', 'abc12345')).toBe(700);
    });

    it('locks out a student who left: no login (701) and the open session ends (444)', async () => {
      const { tk, userId } = await login(t.app, 'student003');
      expect(await fields('PUT', `/v1/students/${userId}`, { status: '2' })).toEqual({ leaveDate: en('leaveDate') });
      expect(await meCode(tk)).toBe(200);
      expect(await data('PUT', `/v1/students/${userId}`, { status: '2', leaveDate: '2026-11-01' })).toMatchObject({ status: '2', leaveDate: '2026-11-01' });
      expect(await meCode(tk)).toBe(444);
      expect(await loginCode('student003')).toBe(701);
      expect((await data('GET', '/v1/students?status=2')).list.map((s: { username: string }) => s.username)).toEqual(['student003']);
      // back in school: the leave date goes, the login comes back
      expect(await data('PUT', `/v1/students/${userId}`, { status: '1' })).toMatchObject({ status: '1', leaveDate: null });
      expect(await loginCode('student003')).toBe(200);
    });

    it('resets a student password', async () => {
      const { tk, userId } = await login(t.app, 'student004');
      await data('PUT', `/v1/students/${userId}/password`, { password: 'Stud3nt!' });
      passwords.add('Stud3nt!');
      expect(await meCode(tk)).toBe(444);
      expect(await loginCode('student004', 'Stud3nt!')).toBe(200);
    });

    it('keeps a class number one student\'s in a class and year: 422 on add and on edit, fine in another class or year', async () => {
      const classes = (await data('GET', '/v1/classes')).list as { id: number; code: string }[];
      const [c1a, c1b] = ['1A', '1B'].map((code) => classes.find((c) => c.code === code)!.id);
      const base = { password: 'abc12345', nameHk: '學生', nameEn: 'Numbered Pupil' };
      // the demo gives 1A the numbers 1 to 17
      expect(await fields('POST', '/v1/students', { ...base, code: 'S9101', username: 'num9101', classId: c1a, studentNumber: 5 })).toEqual({ studentNumber: en('classNumberTaken') });
      const hk = await callHk('POST', '/v1/students', { ...base, code: 'S9101', username: 'num9101', classId: c1a, studentNumber: 5 });
      expect(hk.json().data).toEqual({ studentNumber: fieldMessage('classNumberTaken', 'zh-hk') });
      expect((await data('GET', '/v1/students?q=num91')).total).toBe(0);

      const first = await data('POST', '/v1/students', { ...base, code: 'S9101', username: 'num9101', classId: c1a, studentNumber: 50 });
      // the same number in another class
      const second = await data('POST', '/v1/students', { ...base, code: 'S9102', username: 'num9102', classId: c1b, studentNumber: 50 });
      // moved into a class where the number is held, or given a held number in its own class
      expect(await fields('PUT', `/v1/students/${second.id}`, { classId: c1a })).toEqual({ studentNumber: en('classNumberTaken') });
      expect(await fields('PUT', `/v1/students/${first.id}`, { studentNumber: 17 })).toEqual({ studentNumber: en('classNumberTaken') });
      expect(await data('GET', `/v1/students/${second.id}`)).toMatchObject({ classId: c1b, studentNumber: 50 });
      // keeping one's own number, or changing something else, is no clash
      expect(await data('PUT', `/v1/students/${first.id}`, { classId: c1a, studentNumber: 50, nameEn: 'Renamed Pupil' })).toMatchObject({ studentNumber: 50, nameEn: 'Renamed Pupil' });
      expect(await data('PUT', `/v1/students/${first.id}`, { studentNumber: 51 })).toMatchObject({ classId: c1a, studentNumber: 51 });

      // another year: the number held in this year is free there, and then held there too
      const year = await data('POST', '/v1/school-years', { name: '2029-2030', beginDate: '2029-09-01', endDate: '2030-08-31' });
      expect(await data('PUT', `/v1/students/${second.id}?schoolYearId=${year.id}`, { classId: c1a, studentNumber: 51 })).toMatchObject({ classId: c1a, studentNumber: 51 });
      expect(await fields('PUT', `/v1/students/${first.id}?schoolYearId=${year.id}`, { classId: c1a, studentNumber: 51 })).toEqual({ studentNumber: en('classNumberTaken') });
      await data('DELETE', `/v1/school-years/${year.id}?cascade=1`);

      // eight students of 1B given one free number at the same moment, and two new ones added with
      // another: one of each is stored, the others refused — never two, never a 500
      const eight = ((await data('GET', `/v1/students?classId=${c1b}&size=8&sort=studentNumber`)).list as { id: number }[]).map((s) => s.id);
      const moves = await Promise.all(eight.map((id) => call('PUT', `/v1/students/${id}`, { studentNumber: 77 })));
      expect(moves.map((r) => r.json().code).sort()).toEqual([200, 422, 422, 422, 422, 422, 422, 422]);
      const adds = await Promise.all([9103, 9104].map((n) => call('POST', '/v1/students', { ...base, code: `S${n}`, username: `num${n}`, classId: c1b, studentNumber: 78 })));
      expect(adds.map((r) => r.json().code).sort()).toEqual([201, 422]);
      const numbers = ((await data('GET', `/v1/students?classId=${c1b}&size=100`)).list as { studentNumber: number }[]).map((s) => s.studentNumber);
      expect([numbers.filter((n) => n === 77).length, numbers.filter((n) => n === 78).length]).toEqual([1, 1]);
      for (const id of [first.id, second.id]) await data('DELETE', `/v1/students/${id}`);
    });

    it('keeps the class and number per school year', async () => {
      const year = await data('POST', '/v1/school-years', { name: '2027-2028', beginDate: '2027-09-01', endDate: '2028-08-31' });
      const classes = (await data('GET', '/v1/classes')).list as { id: number; code: string }[];
      const c3a = classes.find((c) => c.code === '3A')!.id;
      const c4a = classes.find((c) => c.code === '4A')!.id;
      const student = await idOf('students', 'student070');
      const now = await data('GET', `/v1/students/${student}`);
      expect(now.classId).toBe(c3a);

      expect((await data('GET', `/v1/students/${student}?schoolYearId=${year.id}`)).classId).toBeNull();
      const next = await data('PUT', `/v1/students/${student}?schoolYearId=${year.id}`, { classId: c4a, studentNumber: 7 });
      expect(next).toMatchObject({ classId: c4a, studentNumber: 7 });
      expect(await data('GET', `/v1/students/${student}`)).toMatchObject({ classId: c3a, studentNumber: now.studentNumber });
      expect((await data('GET', `/v1/students?schoolYearId=${year.id}&classId=${c4a}`)).list.map((s: { id: number }) => s.id)).toEqual([student]);
      expect((await data('GET', `/v1/students?classId=${c4a}`)).list.some((s: { id: number }) => s.id === student)).toBe(false);

      // a pupil joining next year is added with next year's class and number; this year they have none
      const joiner = await data('POST', `/v1/students?schoolYearId=${year.id}`, { code: 'S9070', username: 'join9070', password: 'abc12345', nameHk: '新生', nameEn: 'Joiner', classId: c4a, studentNumber: 8 });
      passwords.add('abc12345');
      expect(joiner).toMatchObject({ classId: c4a, studentNumber: 8 });
      expect(await data('GET', `/v1/students/${joiner.id}`)).toMatchObject({ classId: null, studentNumber: null });
      expect((await data('GET', `/v1/students?schoolYearId=${year.id}&classId=${c4a}&sort=studentNumber`)).list.map((s: { id: number }) => s.id)).toEqual([student, joiner.id]);
      await data('DELETE', `/v1/students/${joiner.id}`);

      // a year that does not exist is not found, on read and on write
      for (const [method, payload] of [['GET', undefined], ['PUT', { classId: c4a, studentNumber: 8 }]] as const) {
        const res = await call(method, `/v1/students/${student}?schoolYearId=999999`, payload);
        expect(res.statusCode, res.body).toBe(404);
        expect(res.json().code).toBe(404);
      }
      expect((await call('GET', '/v1/students?schoolYearId=999999')).json().code).toBe(404);

      // the year holds a student's class now: deleting it asks for the stronger confirmation
      expect(await refusal('DELETE', `/v1/school-years/${year.id}`)).toEqual({ cascade: true, dependents: [{ label: 'qe.master.dependents.studentClasses', count: 1 }] });
      await data('DELETE', `/v1/school-years/${year.id}?cascade=1`);
      expect(await data('GET', `/v1/students/${student}`)).toMatchObject({ classId: c3a });
    });
  });

  describe('admins', () => {
    it('lists, adds, edits, resets the password of and deletes an admin', async () => {
      const page = await data('GET', '/v1/admins');
      // the demo's super administrator is one of them (code SUPERADMIN, as first run gives it)
      expect(page).toMatchObject({ total: 2, list: [{ username: 'admin', code: 'A001' }, { username: 'superadmin', code: 'SUPERADMIN' }] });
      const added = await data('POST', '/v1/admins', { code: 'A002', username: 'admin2', password: 'Adm1nPass', nameHk: '管理員二', nameEn: 'Admin Two', email: 'admin2@school.edu.hk' });
      passwords.add('Adm1nPass');
      expect(added).toMatchObject({ code: 'A002', username: 'admin2', googleMail: null });
      const { tk } = await login(t.app, 'admin2', 'Adm1nPass');
      expect((await caller(t.app, tk)('GET', '/v1/teachers?size=1')).json().code).toBe(200);

      expect(await data('PUT', `/v1/admins/${added.id}`, { nameEn: 'Second admin' })).toMatchObject({ code: 'A002', nameHk: '管理員二', nameEn: 'Second admin' });
      expect(await fields('PUT', `/v1/admins/${added.id}`, { code: 'A001' })).toEqual({ code: en('duplicate', { value: 'A001' }) });
      expect(await fields('PUT', `/v1/admins/${added.id}`, { password: 'whatever1' })).toHaveProperty('password');
      expect((await data('GET', '/v1/admins?q=second')).list.map((a: { code: string }) => a.code)).toEqual(['A002']);
      expect((await data('GET', '/v1/admins?sort=code&order=desc')).list.map((a: { code: string }) => a.code)).toEqual(['SUPERADMIN', 'A002', 'A001']);

      await data('PUT', `/v1/admins/${added.id}/password`, { password: 'Adm1nPass2' });
      passwords.add('Adm1nPass2');
      expect(await meCode(tk)).toBe(444);
      expect(await loginCode('admin2', 'Adm1nPass2')).toBe(200);

      await data('DELETE', `/v1/admins/${added.id}`);
      expect((await data('GET', '/v1/admins')).total).toBe(2);
      expect(await loginCode('admin2', 'Adm1nPass2')).toBe(700);
    });

    it('does not reach a teacher through /v1/admins', async () => {
      const teacher = await idOf('teachers', 'teacher15');
      expect((await call('GET', `/v1/admins/${teacher}`)).statusCode).toBe(404);
      expect((await call('PUT', `/v1/admins/${teacher}`, { nameEn: 'x' })).statusCode).toBe(404);
      expect((await call('DELETE', `/v1/admins/${teacher}`)).statusCode).toBe(404);
      expect((await data('GET', `/v1/teachers/${teacher}`)).username).toBe('teacher15');
    });
  });

  describe('mail settings (one record)', () => {
    it('answers null before the first save, then the saved record without its password', async () => {
      expect(await data('GET', '/v1/mail-settings')).toBeNull();
      const setting = { host: 'smtp.school.edu.hk', port: 587, secure: false, username: 'mailer', password: 'SmtpS3cret', fromAddress: 'qe@school.edu.hk', fromName: 'QE', reminderSubject: 'Reminder: {title}', reminderContent: 'Dear {name}, please reply to {title} by {deadline}.' };
      passwords.add('SmtpS3cret');
      const saved = await data('PUT', '/v1/mail-settings', setting);
      const { password: _password, ...shown } = setting;
      // no English reminder template: English readers get the Chinese one (src/server/questionnaires/notice.ts)
      expect(saved).toEqual({ id: saved.id, ...shown, allowUntrustedCertificate: false, reminderSubjectEn: null, reminderContentEn: null });
      expect(await data('GET', '/v1/mail-settings')).toEqual(saved);
      const again = await data('PUT', '/v1/mail-settings', { ...setting, port: 25, password: '' });
      expect(again).toEqual({ ...saved, port: 25 });
      expect(await fields('PUT', '/v1/mail-settings', { ...setting, fromAddress: 'nobody' })).toEqual({ fromAddress: en('email') });
      expect(await fields('PUT', '/v1/mail-settings', { ...setting, host: undefined, port: 70000 })).toEqual({ host: en('required'), port: en('maximum', { limit: 65535 }) });
      expect((await data('GET', '/v1/mail-settings')).port).toBe(25);
    });
  });

  describe.each([
    ['school-years'],
    ['grade-classes'],
    ['admins'],
    ['teachers'],
    ['students'],
    ['positions'],
    ['teacher-groups'],
  ])('%s', (resource) => {
    it('answers the 404 envelope for an id that does not exist, on get, edit and delete', async () => {
      for (const method of ['GET', 'PUT', 'DELETE'] as const) {
        const res = await call(method, `/v1/${resource}/999999`, method === 'PUT' ? {} : undefined);
        expect(res.statusCode, `${method} ${res.body}`).toBe(404);
        expect(res.json()).toEqual({ code: 404, msg: errorText('RECORD_NOT_FOUND', 'en'), data: null });
      }
      expect((await callHk('GET', `/v1/${resource}/999999`)).json().msg).toBe(errorText('RECORD_NOT_FOUND', 'zh-hk'));
    });

    it('answers {list, total} pages of the size asked, without overlap', async () => {
      const all = await data('GET', `/v1/${resource}?size=1000`);
      expect(all.total).toBe(all.list.length);
      expect(all.total).toBeGreaterThan(0);
      const first = await data('GET', `/v1/${resource}?size=2&page=1`);
      const second = await data('GET', `/v1/${resource}?size=2&page=2`);
      expect(first.total).toBe(all.total);
      expect(first.list.length).toBe(Math.min(2, all.total));
      expect(first.list.map((r: { id: number }) => r.id)).toEqual(all.list.slice(0, 2).map((r: { id: number }) => r.id));
      expect(second.list.map((r: { id: number }) => r.id)).toEqual(all.list.slice(2, 4).map((r: { id: number }) => r.id));
    });

    it('refuses an unknown field and an unknown sort with 422', async () => {
      const list = await data('GET', `/v1/${resource}?size=1`);
      if (list.total) expect((await call('PUT', `/v1/${resource}/${list.list[0].id}`, { nonsense: 1 })).statusCode).toBe(422);
      expect((await call('GET', `/v1/${resource}?sort=nonsense`)).statusCode).toBe(422);
    });
  });

  it('never answers a password, a password hash or a salt', () => {
    expect(answers.length).toBeGreaterThan(100);
    for (const { url, status, body } of answers) {
      // a 422 names the password field with its rule's text, never its value
      if (status !== 422) expect(body, url).not.toMatch(/"password"\s*:/);
      expect(body, url).not.toMatch(/password_?hash|scrypt\$|\$argon2id\$/i);
      for (const p of passwords) expect(body, url).not.toContain(p);
    }
  });
});
