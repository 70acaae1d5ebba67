import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorText } from '../../../src/shared/errors.js';
import { bearer, login, testApp, type TestApp } from '../harness.js';
import { caller, multipart, type Method } from './helpers.js';

/** One call of a master-data route, with a body that would be accepted, and what an admin gets from it. */
interface Route {
  method: Method;
  url: string;
  payload?: unknown;
  /** a multipart upload instead of JSON */
  file?: boolean;
  /** the envelope code an admin gets (the call gets past the permission check) */
  admin: number;
}

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

describe('master data permissions', () => {
  let t: TestApp;
  const tokens: Record<'admin' | 'teacher' | 'student', string> = { admin: '', teacher: '', student: '' };
  const ids: Record<string, number> = {};
  const routes: Record<string, Route[]> = {};

  beforeAll(async () => {
    t = await testApp({ demo: true });
    tokens.admin = (await login(t.app, 'admin')).tk;
    tokens.teacher = (await login(t.app, 'teacher01')).tk;
    tokens.student = (await login(t.app, 'student001')).tk;
    const admin = caller(t.app, tokens.admin);
    for (const resource of ['school-years', 'grade-classes', 'admins', 'teachers', 'students', 'positions']) {
      ids[resource] = (await admin('GET', `/v1/${resource}?size=1`)).json().data.list[0].id;
    }
    const group = await admin('POST', '/v1/teacher-groups', { code: 'G1', nameHk: '組一', nameEn: 'Group 1' });
    ids['teacher-groups'] = group.json().data.id;

    const bodies: Record<string, unknown> = {
      'school-years': { name: '2030-2031', beginDate: '2030-09-01', endDate: '2031-08-31' },
      'grade-classes': { code: 'S9', nameHk: '中九', nameEn: 'Secondary 9' },
      admins: { code: 'A900', username: 'admin900', password: 'abc12345', nameHk: '甲', nameEn: 'A' },
      teachers: { code: 'T900', username: 'teacher900', password: 'abc12345', nameHk: '乙', nameEn: 'B' },
      students: { code: 'S900', username: 'student900', password: 'abc12345', nameHk: '丙', nameEn: 'C' },
      positions: { code: 'X', nameHk: '丁', nameEn: 'D' },
      'teacher-groups': { code: 'G2', nameHk: '組二', nameEn: 'Group 2' },
    };
    for (const [resource, body] of Object.entries(bodies)) {
      const base = `/v1/${resource}`;
      const list: Route[] = [
        { method: 'GET', url: base, admin: 200 },
        { method: 'GET', url: `${base}/${ids[resource]}`, admin: 200 },
        { method: 'POST', url: base, payload: body, admin: 201 },
        { method: 'PUT', url: `${base}/${ids[resource]}`, payload: {}, admin: 200 },
        { method: 'DELETE', url: `${base}/999999`, admin: 404 },
        { method: 'GET', url: `${base}/export`, admin: 200 },
      ];
      if (['admins', 'teachers', 'students'].includes(resource)) {
        list.push(
          { method: 'PUT', url: `${base}/999999/password`, payload: { password: 'abc12345' }, admin: 404 },
          { method: 'GET', url: `${base}/import-template`, admin: 200 },
          { method: 'POST', url: `${base}/import`, file: true, admin: 716 },
        );
      }
      routes[resource] = list;
    }
    routes['mail-settings'] = [
      { method: 'GET', url: '/v1/mail-settings', admin: 200 },
      { method: 'POST', url: '/v1/mail-settings/test', payload: { to: 'someone@school.edu.hk' }, admin: 404 },
      {
        method: 'PUT',
        url: '/v1/mail-settings',
        payload: { host: 'smtp.school.edu.hk', port: 587, fromAddress: 'qe@school.edu.hk', reminderSubject: 'Reminder', reminderContent: 'Dear {name}' },
        admin: 200,
      },
    ];
  });
  afterAll(async () => t?.close());

  const send = (tk: string | null, route: Route) => {
    if (route.file) {
      const { payload, headers } = multipart('people.txt', Buffer.from('not a workbook'));
      return t.app.inject({ method: route.method, url: route.url, payload, headers: { ...headers, 'accept-language': 'en', ...(tk ? bearer(tk) : {}) } });
    }
    return caller(t.app, tk)(route.method, route.url, route.payload);
  };

  describe.each(['school-years', 'grade-classes', 'admins', 'teachers', 'students', 'positions', 'teacher-groups', 'mail-settings'])('%s', (resource) => {
    it.each(['teacher', 'student'] as const)('refuses every route to a %s with HTTP 403 and code 405', async (who) => {
      for (const route of routes[resource]) {
        const res = await send(tokens[who], route);
        expect(res.statusCode, `${route.method} ${route.url}: ${res.body}`).toBe(403);
        expect(res.json(), `${route.method} ${route.url}`).toEqual({ code: 405, msg: errorText('PERMISSION_DENIED', 'en'), data: null });
      }
    });

    it('answers 401 without a token', async () => {
      for (const route of routes[resource]) {
        const res = await send(null, route);
        expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
        expect(res.json().code).toBe(401);
      }
    });

    it('answers an admin', async () => {
      for (const route of routes[resource]) {
        const res = await send(tokens.admin, route);
        if (route.url.endsWith('/export') || route.url.endsWith('/import-template')) {
          expect(res.statusCode, `${route.method} ${route.url}: ${res.body}`).toBe(200);
          expect(res.headers['content-type']).toBe(XLSX_TYPE);
        } else {
          expect(res.json().code, `${route.method} ${route.url}: ${res.body}`).toBe(route.admin);
        }
      }
    });
  });

  it('lets a custom role holding only student.view list and view students, and nothing more', async () => {
    const { tk, userId } = await login(t.app, 'teacher03');
    const { id: roleId } = await t.db
      .insertInto('roles')
      .values({ system: 'QE', user_type: 'TEACHER', role_code: 'STUDENT_VIEWER', name_hk: '學生查閱', name_en: 'Student viewer', remark: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const studentView = await t.db
      .selectFrom('actions as a')
      .innerJoin('menus as m', 'm.id', 'a.menu_id')
      .where('m.code', '=', 'student')
      .where('a.code', '=', 'view')
      .select('a.id')
      .executeTakeFirstOrThrow();
    await t.db.insertInto('role_actions').values({ role_id: roleId, action_id: studentView.id }).execute();
    await t.db.insertInto('user_roles').values({ user_id: userId, role_id: roleId }).execute();

    const call = caller(t.app, tk);
    const list = await call('GET', '/v1/students?size=5');
    const all = (await caller(t.app, tokens.admin)('GET', '/v1/students?size=5')).json().data;
    expect(list.json()).toEqual({ code: 200, msg: 'success', data: all });
    expect((await call('GET', `/v1/students/${ids.students}`)).json().code).toBe(200);
    const refused: Route[] = [
      { method: 'POST', url: '/v1/students', payload: { code: 'S901', username: 'student901', password: 'abc12345', nameHk: '丁', nameEn: 'D' }, admin: 201 },
      { method: 'PUT', url: `/v1/students/${ids.students}`, payload: { nameEn: 'Changed' }, admin: 200 },
      { method: 'DELETE', url: `/v1/students/${ids.students}`, admin: 200 },
      { method: 'PUT', url: `/v1/students/${ids.students}/password`, payload: { password: 'abc12345' }, admin: 200 },
      { method: 'GET', url: '/v1/students/export', admin: 200 },
      { method: 'GET', url: '/v1/students/import-template', admin: 200 },
      { method: 'POST', url: '/v1/students/import', file: true, admin: 716 },
      { method: 'GET', url: '/v1/teachers', admin: 200 },
    ];
    for (const route of refused) {
      const res = await send(tk, route);
      expect(res.statusCode, `${route.method} ${route.url}: ${res.body}`).toBe(403);
      expect(res.json().code).toBe(405);
    }
    expect((await caller(t.app, tokens.admin)('GET', '/v1/students?q=S901')).json().data.total).toBe(0);
    expect((await caller(t.app, tokens.admin)('GET', `/v1/students/${ids.students}`)).json().data.nameEn).not.toBe('Changed');

    // the role taken away, the list is refused on the very next call
    await t.db.deleteFrom('user_roles').where('user_id', '=', userId).where('role_id', '=', roleId).execute();
    expect((await call('GET', '/v1/students')).json().code).toBe(405);
  });

  it('refuses a caller without the permission before looking at the body: 405, not the form errors', async () => {
    const res = await caller(t.app, tokens.teacher)('POST', '/v1/teachers', { code: '', password: 'x' });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe(405);
    const anonymous = await t.app.inject({ method: 'POST', url: '/v1/teachers', payload: { code: '' } });
    expect(anonymous.json().code).toBe(401);
  });

  it('does not let an admin delete the account they are logged in with', async () => {
    const me = (await caller(t.app, tokens.admin)('GET', '/v1/my/user-info')).json().data.userId;
    const res = await caller(t.app, tokens.admin)('DELETE', `/v1/admins/${me}`);
    expect(res.json().code).toBe(405);
    expect((await caller(t.app, tokens.admin)('GET', `/v1/admins/${me}`)).json().code).toBe(200);
  });
});
