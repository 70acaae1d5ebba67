import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import { openSession } from '../../src/server/auth/sessions.js';
import { quickLink } from '../../src/server/filling/quick.js';
import { signInStamp } from '../../src/server/auth/sign-in-stamp.js';
import { testApp, type TestApp } from './harness.js';
import { caller } from './master/helpers.js';
import { FILLING_ANSWERS } from '../../src/shared/calls/filling.js';
import { SESSION_ANSWERS } from '../../src/shared/calls/session.js';
import { DEVELOPER_ANSWERS } from '../../src/shared/calls/developer.js';
import { AUTH_ANSWERS } from '../../src/shared/calls/auth.js';
import { SCHOOL_ANSWERS } from '../../src/shared/calls/school.js';
import { PERSONAL_ANSWERS } from '../../src/shared/calls/personal.js';
import { GOOGLE_ANSWERS } from '../../src/shared/calls/google.js';
import { BACKUP_ANSWERS } from '../../src/shared/calls/backup.js';
import { QUESTIONNAIRE_ANSWERS } from '../../src/shared/calls/questionnaires.js';
import { DASHBOARD_ANSWERS } from '../../src/shared/calls/dashboard.js';
import { STATISTICS_ANSWERS } from '../../src/shared/calls/statistics.js';
import { StatisticsService } from '../../src/server/statistics/service.js';
import { mixAnonymousReplies } from '../../src/server/filling/mixing.js';
import type { AuthUser } from '../../src/server/plugins/guard.js';
import { as, classId, classStudents, data, inMinutes, oneQuestion, userId, type Caller } from './questionnaires/helpers.js';
import { goodAnswers, everyType, newKey, opened } from './filling/helpers.js';
import { submitAs, variedAnswers } from './statistics/helpers.js';

const ajv = new Ajv({ strict: false, allErrors: true });
/** The schema's own problems with an answer (the same schema objects the routes hand to Fastify), none when it fits. */
function problems(schema: object, body: unknown): string[] {
  const validate = ajv.compile(schema);
  return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

// Calls described once (src/shared/calls/, docs/conventions.md#call-shapes): what they answer,
// success and refusal, is what those schemas say, and the OpenAPI page shows it.
describe('calls answer what their schemas describe', () => {
  let t: TestApp;
  let teacher: Caller;

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    teacher = await as(t, 'teacher01');
  });
  afterAll(async () => t?.close());

  it('the OpenAPI page shows each call’s answer per status, not an empty data', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/qe/api-docs/json' })).json();
    const one = doc.paths['/v1/my/questionnaires/{id}'].get.responses;
    const data200 = one['200'].content['application/json'].schema.properties.data;
    expect(Object.keys(data200.properties)).toEqual(expect.arrayContaining(['id', 'title', 'status', 'feedbackStatus', 'designatedCode', 'definition', 'answers']));
    expect(one['4XX'] ?? one['4xx']).toBeDefined();
    const list = doc.paths['/v1/my/questionnaires'].get.responses['200'].content['application/json'].schema.properties.data;
    expect(list.properties.list.items.properties.status.enum).toEqual(['PREPARING', 'NOT_OPEN', 'PROCESSING', 'FINISHED']);
    const reply = doc.paths['/v1/my/questionnaires/{id}/replies'].post;
    expect(reply.responses['200'].content['application/json'].schema.properties.data.properties).toHaveProperty('submittedAt');
    expect(reply.requestBody.content['application/json'].schema.required).toEqual(['submissionKey', 'answers']);
  });

  it('a pupil’s list, one questionnaire, a refused and an accepted reply, and a submitted one read back all fit their schemas', async () => {
    const [pupil] = await classStudents(t.db, '5A');
    const named = await opened(teacher, [{ kind: 'USERS', ids: [pupil] }], { title: 'Shapes', definition: everyType() });
    const anonymous = await opened(teacher, [{ kind: 'USERS', ids: [pupil] }], { title: 'Shapes, anonymous', definition: oneQuestion(), type: 'ANONYMOUS' });
    const me = caller(t.app, await openSession(t.db, t.config, pupil), 'en');

    const list = await me('GET', '/v1/my/questionnaires');
    expect(problems(FILLING_ANSWERS.list[200], list.json())).toEqual([]);
    expect(data<{ total: number }>(list).total).toBeGreaterThanOrEqual(2);

    const before = await me('GET', `/v1/my/questionnaires/${named.id}`);
    expect(problems(FILLING_ANSWERS.one[200], before.json())).toEqual([]);
    expect(before.json().data.answers).toBeNull();

    const refused = await me('POST', `/v1/my/questionnaires/${named.id}/replies`, { submissionKey: newKey(), answers: {} });
    expect(refused.statusCode).toBe(422);
    expect(problems(FILLING_ANSWERS.reply['4xx'], refused.json())).toEqual([]);
    expect(Object.keys(refused.json().data).length).toBeGreaterThan(0);

    const stored = await me('POST', `/v1/my/questionnaires/${named.id}/replies`, { submissionKey: newKey(), answers: goodAnswers() });
    expect(stored.statusCode).toBe(200);
    expect(problems(FILLING_ANSWERS.reply[200], stored.json())).toEqual([]);

    // read back: the answers as sent, every question's (the schema leaves them open: nothing is dropped)
    const after = (await me('GET', `/v1/my/questionnaires/${named.id}`)).json();
    expect(problems(FILLING_ANSWERS.one[200], after)).toEqual([]);
    expect(after.data.answers).toEqual(goodAnswers());
    expect(after.data.definition).toEqual(everyType());

    const anon = await me('GET', `/v1/my/questionnaires/${anonymous.id}`);
    expect(problems(FILLING_ANSWERS.one[200], anon.json())).toEqual([]);

    const missing = await me('GET', '/v1/my/questionnaires/2147483000');
    expect(missing.statusCode).toBe(404);
    expect(problems(FILLING_ANSWERS.one['4xx'], missing.json())).toEqual([]);
    expect(missing.json()).toMatchObject({ code: 404, data: null });

    // a reminder mail's link: its session, and a link that is not one
    const link = await quickLink(t.config, 'http://qe.test', pupil, named.id, named.endDate, (await signInStamp(t.db, pupil))!);
    const token = new URL(link).searchParams.get('token')!;
    const quick = await t.app.inject({ method: 'POST', url: '/v1/quick-login', payload: { token } });
    expect(quick.statusCode).toBe(200);
    expect(problems(FILLING_ANSWERS.quickLogin[200], quick.json())).toEqual([]);
    expect(quick.json().data).toMatchObject({ userId: pupil, questionnaireId: named.id });
    const forged = await t.app.inject({ method: 'POST', url: '/v1/quick-login', payload: { token: `${token.slice(0, -3)}abc` } });
    expect(forged.statusCode).toBe(401);
    expect(problems(FILLING_ANSWERS.quickLogin['4xx'], forged.json())).toEqual([]);
    const doc = (await t.app.inject({ method: 'GET', url: '/qe/api-docs/json' })).json();
    expect(Object.keys(doc.paths['/v1/quick-login'].post.responses['200'].content['application/json'].schema.properties.data.properties)).toEqual(['tk', 'userId', 'questionnaireId']);
  });

  it('the user info of each kind of user fits its schema, and the OpenAPI page shows it', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/qe/api-docs/json' })).json();
    const data200 = doc.paths['/v1/my/user-info'].get.responses['200'].content['application/json'].schema.properties.data;
    expect(Object.keys(data200.properties)).toEqual(expect.arrayContaining(['userId', 'userType', 'permissions', 'years', 'currentTerm', 'personalDataStatus']));
    for (const username of ['superadmin', 'admin', 'teacher01', 'student001']) {
      const call = await as(t, username);
      const info = await call('GET', '/v1/my/user-info');
      expect(info.statusCode, username).toBe(200);
      expect(problems(SESSION_ANSWERS.userInfo[200], info.json()), username).toEqual([]);
      expect(info.json().data.permissions.length, username).toBeGreaterThan(0);
    }
    // refused without a session: the refusal's shape
    const outsider = caller(t.app, null, 'en');
    const refused = await outsider('GET', '/v1/my/user-info');
    expect(refused.statusCode).toBe(401);
    expect(problems(SESSION_ANSWERS.userInfo['4xx'], refused.json())).toEqual([]);
  });
  it('the developer area’s calls answer what their schemas describe, and the OpenAPI page shows each call’s data', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/qe/api-docs/json' })).json();
    const data200 = (path: string, method: string) => doc.paths[path][method].responses['200'].content['application/json'].schema.properties.data;
    const named = (schema: { properties?: object; items?: { properties?: object } }) => Object.keys(schema.properties ?? schema.items?.properties ?? {});
    expect(named(data200('/v1/menu-actions/actions/tree', 'get'))).toEqual(expect.arrayContaining(['menuId', 'code', 'roleCount', 'actions']));
    expect(named(data200('/v1/menus/actions/inquire', 'get'))).toEqual(expect.arrayContaining(['menuId', 'code', 'nameHk', 'roleCount']));
    expect(named(data200('/v1/menus/actions/create', 'post'))).toEqual(['menuId']);
    expect(named(data200('/v1/actions/actions/inquire', 'get'))).toEqual(expect.arrayContaining(['actionId', 'menuId', 'group', 'sort']));
    expect(named(data200('/v1/actions/actions/create', 'post'))).toEqual(['actionId']);
    expect(named(data200('/v1/roles', 'get'))).toEqual(['list', 'total']);
    expect(data200('/v1/roles', 'get').properties.list.items.properties.userType.enum).toEqual(['SUPER_ADMIN', 'ADMIN', 'TEACHER', 'STUDENT']);
    for (const method of ['get', 'put']) expect(named(data200('/v1/roles/{id}', method)), method).toEqual(expect.arrayContaining(['id', 'roleCode', 'isDefault', 'userCount']));
    expect(named(data200('/v1/roles', 'post'))).toEqual(expect.arrayContaining(['id', 'roleCode', 'isDefault', 'userCount']));
    expect(named(data200('/v1/roles/actions/action-list', 'get'))).toEqual(['roleId', 'system', 'actions', 'codes']);
    expect(named(data200('/v1/roles/{id}/users', 'get'))).toEqual(['list', 'total']);
    expect(named(data200('/v1/users/{id}/roles', 'get'))).toEqual(['userId', 'roleIds']);
    expect(named(data200('/ed/roles/{role_id}/permissions', 'get'))).toEqual(expect.arrayContaining(['code', 'permission_selection']));
    // the changes answer nothing, and say so (OpenAPI 3.0 has no type null: a nullable whose one value is null)
    for (const [path, method] of [['/v1/menus/actions/edit', 'post'], ['/v1/roles/{id}', 'delete'], ['/v1/users/{id}/roles', 'put']]) {
      expect(data200(path, method), `${method} ${path}`).toMatchObject({ nullable: true, enum: [null] });
    }
    const refusals = doc.paths['/v1/roles/{id}'].get.responses;
    expect(refusals['4XX'] ?? refusals['4xx']).toBeDefined();
    expect(doc.paths['/v1/menus/actions/create'].post.requestBody.content['application/json'].schema.properties.code.pattern).toBe('^[A-Za-z0-9_*.-]+$');

    const admin = await as(t, 'superadmin');
    const fits = async (answers: { 200: object; '4xx': object }, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, code = 200) => {
      const res = await admin(method, url, payload);
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
      expect(res.json().code, url).toBe(code);
      expect(problems(answers[200], res.json()), url).toEqual([]);
      return res.json().data;
    };

    const tree = await fits(DEVELOPER_ANSWERS.tree, 'GET', '/v1/menu-actions/actions/tree?system=QE');
    expect(tree.length).toBeGreaterThan(0);
    const page = tree.find((m: { actions: unknown[]; roleCount: number }) => m.actions.length && m.roleCount);
    expect(page).toBeDefined();
    expect(await fits(DEVELOPER_ANSWERS.menu, 'GET', `/v1/menus/actions/inquire?menuId=${page.menuId}`)).toEqual({ ...page, actions: undefined });
    expect(await fits(DEVELOPER_ANSWERS.action, 'GET', `/v1/actions/actions/inquire?actionId=${page.actions[0].actionId}`)).toEqual(page.actions[0]);

    const roles = await fits(DEVELOPER_ANSWERS.roles, 'GET', '/v1/roles');
    expect(roles.total).toBe(roles.list.length);
    const held = roles.list.find((r: { userCount: number }) => r.userCount > 0);
    expect(await fits(DEVELOPER_ANSWERS.roles, 'GET', '/v1/roles?page=1&size=1')).toMatchObject({ total: roles.total, list: [roles.list[0]] });
    expect(await fits(DEVELOPER_ANSWERS.role, 'GET', `/v1/roles/${held.id}`)).toEqual(held);
    const actions = await fits(DEVELOPER_ANSWERS.roleActions, 'GET', `/v1/roles/actions/action-list?roleId=${held.id}&system=QE`);
    expect(actions.actions.length).toBe(actions.codes.length);
    const holders = await fits(DEVELOPER_ANSWERS.roleUsers, 'GET', `/v1/roles/${held.id}/users`);
    expect(holders.list.length).toBe(held.userCount);
    expect(Object.keys(holders.list[0]).sort()).toEqual(['code', 'id', 'nameEn', 'nameHk', 'userType', 'username']);
    expect((await fits(DEVELOPER_ANSWERS.userRoles, 'GET', `/v1/users/${holders.list[0].id}/roles`)).roleIds).toContain(held.id);
    expect((await fits(DEVELOPER_ANSWERS.rolePermissions, 'GET', `/ed/roles/${held.id}/permissions`)).length).toBeGreaterThan(0);

    // what the changes answer: the created ids, the role as it is now, nothing
    const { menuId } = await fits(DEVELOPER_ANSWERS.menuCreated, 'POST', '/v1/menus/actions/create', { code: 'shapes', system: 'QE', name: '形狀', sort: 99999 }, 201);
    const { actionId } = await fits(DEVELOPER_ANSWERS.actionCreated, 'POST', '/v1/actions/actions/create', { code: 'view', group: 201, menuId, name: '查看' }, 201);
    expect(await fits(DEVELOPER_ANSWERS.changed, 'POST', '/v1/actions/actions/edit', { code: 'view', group: 202, actionId, name: '查看' })).toBeNull();
    expect(await fits(DEVELOPER_ANSWERS.changed, 'POST', '/v1/menus/actions/delete', { menuId })).toBeNull();
    const role = await fits(DEVELOPER_ANSWERS.role, 'POST', '/v1/roles', { userType: 'TEACHER', roleCode: 'shapes', nameHk: '形狀', nameEn: 'Shapes', remark: null }, 201);
    expect(role).toMatchObject({ roleCode: 'shapes', remark: null, isDefault: false, userCount: 0 });
    expect(await fits(DEVELOPER_ANSWERS.role, 'PUT', `/v1/roles/${role.id}`, { remark: 'a note' })).toEqual({ ...role, remark: 'a note' });
    expect(await fits(DEVELOPER_ANSWERS.changed, 'DELETE', `/v1/roles/${role.id}`)).toBeNull();

    // refused: a role gone (404), a code in use (707)
    const gone = await admin('GET', `/v1/roles/${role.id}`);
    expect(gone.statusCode).toBe(404);
    expect(problems(DEVELOPER_ANSWERS.role['4xx'], gone.json())).toEqual([]);
    expect(gone.json()).toMatchObject({ code: 404, data: null });
    const taken = await admin('POST', '/v1/menus/actions/create', { code: page.code, system: 'QE', name: '重複' });
    expect(taken.statusCode).toBe(409);
    expect(problems(DEVELOPER_ANSWERS.menuCreated['4xx'], taken.json())).toEqual([]);
    expect(taken.json()).toMatchObject({ code: 707, data: null });
  });
});

// The session, school, personal-data, Google and backup calls (src/shared/calls/auth.ts, school.ts,
// personal.ts, google.ts, backup.ts): their reads, a change and a refusal answer what the schemas say.
describe('the session, school, personal-data, Google and backup calls answer what their schemas describe', () => {
  let t: TestApp;
  /** the `data` schema the OpenAPI page shows for a call's answer with this status */
  let shown: (path: string, method: string, status?: number) => { properties?: Record<string, unknown>; items?: { properties?: object }; nullable?: boolean; enum?: unknown[] };
  /** a call that answers `status` and an envelope that fits the schema */
  const fits = async (call: Caller, answers: Record<string, object>, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, status = 200) => {
    const res = await call(method, url, payload);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(status);
    expect(problems(answers[status], res.json()), `${method} ${url}`).toEqual([]);
    return res.json().data;
  };
  /** a refusal with this HTTP status and business code, in the refusal's shape */
  const refused = async (call: Caller, answers: { '4xx': object }, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload: unknown, status: number, code: number) => {
    const res = await call(method, url, payload);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(status);
    expect(problems(answers['4xx'], res.json())).toEqual([]);
    expect(res.json().code, `${method} ${url}`).toBe(code);
  };

  beforeAll(async () => {
    t = await testApp({
      demo: true,
      config: {
        schedulerSeconds: 0,
        google: { clientId: 'qe-client', clientSecret: 'qe-secret', authUrl: 'http://127.0.0.1:9/authorize', tokenUrl: 'http://127.0.0.1:9/token', userInfoUrl: 'http://127.0.0.1:9/userinfo' },
      },
    });
    const doc = (await t.app.inject({ method: 'GET', url: '/qe/api-docs/json' })).json();
    shown = (path, method, status = 200) => doc.paths[path][method].responses[String(status)].content['application/json'].schema.properties.data;
  });
  afterAll(async () => t?.close());

  const named = (schema: { properties?: object; items?: { properties?: object } }) => Object.keys(schema.properties ?? schema.items?.properties ?? {});

  it('login, logout, the password change, my actions and permissions', async () => {
    expect(named(shown('/v1/login', 'post'))).toEqual(['tk', 'userId']);
    expect(shown('/v1/my/action-list', 'get').items).toBeDefined();
    expect(named(shown('/v1/my/permissions', 'get'))).toEqual(expect.arrayContaining(['code', 'permission_selection']));
    for (const path of ['/v1/logout', '/v1/change-password']) expect(shown(path, 'post'), path).toMatchObject({ nullable: true, enum: [null] });

    const outsider = caller(t.app, null, 'en');
    const session = await fits(outsider, AUTH_ANSWERS.login, 'POST', '/v1/login', { username: 'teacher05', password: 'Passw0rd!' });
    expect(Object.keys(session).sort()).toEqual(['tk', 'userId']);
    await refused(outsider, AUTH_ANSWERS.login, 'POST', '/v1/login', { username: 'teacher05', password: 'wrong-password' }, 400, 700);
    const me = caller(t.app, session.tk, 'en');
    const actions = await fits(me, AUTH_ANSWERS.actionList, 'GET', '/v1/my/action-list');
    expect(actions.length).toBeGreaterThan(0);
    expect((await fits(me, AUTH_ANSWERS.permissions, 'GET', `/v1/my/permissions?userId=${session.userId}`)).length).toBeGreaterThan(0);
    await refused(me, AUTH_ANSWERS.actionList, 'GET', `/v1/my/action-list?userId=${session.userId + 1}`, undefined, 403, 405);
    await refused(me, AUTH_ANSWERS.changed, 'POST', '/v1/change-password', { oldPassword: 'wrong-password', newPassword: 'N3w-Passw0rd!' }, 422, 422);
    expect(await fits(me, AUTH_ANSWERS.changed, 'POST', '/v1/change-password', { oldPassword: 'Passw0rd!', newPassword: 'N3w-Passw0rd!' })).toBeNull();
    const again = await fits(outsider, AUTH_ANSWERS.login, 'POST', '/v1/login', { username: 'teacher05', password: 'N3w-Passw0rd!' });
    expect(await fits(caller(t.app, again.tk, 'en'), AUTH_ANSWERS.changed, 'POST', '/v1/logout')).toBeNull();
  });

  it('the school info, the first run, the settings and the roll-over preview', async () => {
    expect(named(shown('/v1/school-info', 'get'))).toEqual(expect.arrayContaining(['schoolId', 'nameHk', 'languageList', 'googleConfigured']));
    expect(named(shown('/v1/init', 'get'))).toEqual(['initialised']);
    for (const [path, method] of [['/v1/school', 'get'], ['/v1/school', 'put'], ['/v1/school/logo', 'delete']]) {
      expect(named(shown(path, method)), `${method} ${path}`).toEqual(expect.arrayContaining(['schoolId', 'graduate_grade', 'grades']));
    }
    expect(named(shown('/v1/school-years/rollover/preview', 'post'))).toEqual(expect.arrayContaining(['fromYear', 'nextYear', 'moves', 'after', 'switchDate']));
    expect(named(shown('/v1/school-years/rollover', 'post'))).toEqual(expect.arrayContaining(['fromYear', 'nextYear', 'moves']));

    const outsider = caller(t.app, null, 'en');
    const info = await fits(outsider, SCHOOL_ANSWERS.info, 'GET', '/v1/school-info');
    expect(info).toMatchObject({ googleConfigured: true, googleRequired: false });
    expect(await fits(outsider, SCHOOL_ANSWERS.init, 'GET', '/v1/init')).toEqual({ initialised: true });
    await refused(outsider, SCHOOL_ANSWERS.initialised, 'POST', '/v1/init', { schoolNameHk: '學校', schoolNameEn: 'School', username: 'another', password: 'Passw0rd!1', nameHk: '甲', nameEn: 'A' }, 409, 705);

    const admin = await as(t, 'admin');
    const settings = await fits(admin, SCHOOL_ANSWERS.settings, 'GET', '/v1/school');
    expect(settings.grades.length).toBeGreaterThan(0);
    const { nameHk, nameEn, languageList } = settings;
    const saved = await fits(admin, SCHOOL_ANSWERS.settings, 'PUT', '/v1/school', { nameHk, nameEn, languageList, tel: '2123 4567', graduateGrade: settings.grades[0].code });
    expect(saved).toEqual({ ...settings, tel: '2123 4567', graduate_grade: settings.grades[0].code });
    await refused(admin, SCHOOL_ANSWERS.settings, 'PUT', '/v1/school', { nameHk, nameEn, languageList: languageList.map((l: object) => ({ ...l, required: '0' })) }, 400, 720);
    expect(await fits(admin, SCHOOL_ANSWERS.settings, 'DELETE', '/v1/school/logo')).toMatchObject({ schoolLogo: null });

    const preview = await fits(admin, SCHOOL_ANSWERS.rollover, 'POST', '/v1/school-years/rollover/preview', {});
    expect(preview.moves.length).toBeGreaterThan(0);
    const teacher = await as(t, 'teacher01');
    await refused(teacher, SCHOOL_ANSWERS.rollover, 'POST', '/v1/school-years/rollover/preview', {}, 403, 405);
  });

  it('my personal data, a request, the queue and its decisions', async () => {
    expect(named(shown('/v1/my/personal-data', 'get'))).toEqual(['current', 'request']);
    expect(named(shown('/v1/my/personal-data', 'post'))).toEqual(['id', 'status']);
    expect(named(shown('/v1/my/personal-data/avatar', 'post'))).toEqual(['path']);
    expect(named(shown('/v1/personal-data-requests', 'get'))).toEqual(['list', 'total']);
    for (const action of ['confirm', 'reject']) expect(named(shown(`/v1/personal-data-requests/{id}/${action}`, 'post'))).toEqual(['id', 'status']);

    const teacher = await as(t, 'teacher02');
    const before = await fits(teacher, PERSONAL_ANSWERS.mine, 'GET', '/v1/my/personal-data');
    expect(before.request).toBeNull();
    await refused(teacher, PERSONAL_ANSWERS.state, 'POST', '/v1/my/personal-data', { tel: before.current.tel }, 400, 730);
    const asked = await fits(teacher, PERSONAL_ANSWERS.state, 'POST', '/v1/my/personal-data', { tel: '2123 4567', identityCardType: 'HKID', identityCardNo: 'C668668(9)' });
    expect(asked).toMatchObject({ status: 'WAITTING' });
    const after = await fits(teacher, PERSONAL_ANSWERS.mine, 'GET', '/v1/my/personal-data');
    expect(after.request).toMatchObject({ id: asked.id, status: 'WAITTING', values: { tel: '2123 4567', identityCardId: 'C668***(9)' } });
    await refused(await as(t, 'student001'), PERSONAL_ANSWERS.mine, 'GET', '/v1/my/personal-data', undefined, 403, 405);

    const admin = await as(t, 'admin');
    const queue = await fits(admin, PERSONAL_ANSWERS.queue, 'GET', '/v1/personal-data-requests?page=1&size=20');
    expect(queue.list.find((r: { id: number }) => r.id === asked.id)).toMatchObject({ status: 'WAITTING', current: { tel: before.current.tel } });
    expect(await fits(admin, PERSONAL_ANSWERS.state, 'POST', `/v1/personal-data-requests/${asked.id}/reject`, { reason: 'not this number' })).toEqual({ id: asked.id, status: 'REJECT' });
    await refused(admin, PERSONAL_ANSWERS.state, 'POST', `/v1/personal-data-requests/${asked.id}/confirm`, undefined, 409, 731);
    await fits(admin, PERSONAL_ANSWERS.queue, 'GET', '/v1/personal-data-requests?status=REJECT');
  });

  it('the Google sign-in link, a refused bind and a cleared binding', async () => {
    expect(named(shown('/v1/google/actions/auth-url', 'get'))).toEqual(['googleMail', 'link']);
    expect(named(shown('/v1/google/actions/bind', 'post'))).toEqual(['googleMail']);
    expect(shown('/v1/google/bindings/{userId}', 'delete')).toMatchObject({ nullable: true, enum: [null] });

    const teacher = await as(t, 'teacher03');
    const link = await fits(teacher, GOOGLE_ANSWERS.authUrl, 'GET', '/v1/google/actions/auth-url');
    expect(new URL(link.link).searchParams.get('client_id')).toBe('qe-client');
    await refused(teacher, GOOGLE_ANSWERS.bind, 'POST', '/v1/google/actions/bind', { code: 'a-code', state: 'not-a-signed-state' }, 400, 717);

    const admin = await as(t, 'admin');
    const { id } = await t.db.selectFrom('users').select('id').where('username', '=', 'teacher03').executeTakeFirstOrThrow();
    await t.db.updateTable('users').set({ google_mail: 'teacher03@example.com' }).where('id', '=', id).execute();
    expect(await fits(admin, GOOGLE_ANSWERS.cleared, 'DELETE', `/v1/google/bindings/${id}`)).toBeNull();
    await refused(admin, GOOGLE_ANSWERS.cleared, 'DELETE', '/v1/google/bindings/2147483000', undefined, 404, 404);
  });

  it('the backups, a backup made and its job, the schedule, and the refusals; the download answers the archive', async () => {
    expect(named(shown('/v1/backups', 'get'))).toEqual(['list', 'schedule', 'job']);
    expect(named(shown('/v1/backups', 'post', 202))).toEqual(expect.arrayContaining(['id', 'kind', 'state', 'done', 'total']));
    expect(named(shown('/v1/backups/upload', 'post', 201))).toEqual(expect.arrayContaining(['name', 'size', 'createdBy', 'encrypted']));
    expect(named(shown('/v1/backups/{name}/restore', 'post'))).toEqual(['tables', 'rows']);
    for (const method of ['get', 'put']) expect(named(shown('/v1/backups/schedule', method))).toEqual(['everyHours', 'keep']);
    const download = (await t.app.inject({ method: 'GET', url: '/qe/api-docs/json' })).json().paths['/v1/backups/{name}/download'].get.responses;
    expect(download['200']).toBeUndefined();
    expect(download['4XX'] ?? download['4xx']).toBeDefined();

    const admin = await as(t, 'superadmin');
    const empty = await fits(admin, BACKUP_ANSWERS.list, 'GET', '/v1/backups');
    expect(empty.job).toBeNull();
    expect(await fits(admin, BACKUP_ANSWERS.job, 'GET', '/v1/backups/job')).toBeNull();
    const job = await fits(admin, BACKUP_ANSWERS.started, 'POST', '/v1/backups', {}, 202);
    expect(job).toMatchObject({ kind: 'backup', state: 'running' });
    for (;;) {
      const now = await fits(admin, BACKUP_ANSWERS.job, 'GET', '/v1/backups/job');
      if (now.state !== 'running') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const list = await fits(admin, BACKUP_ANSWERS.list, 'GET', '/v1/backups');
    expect(list.list[0]).toMatchObject({ name: job.name, encrypted: false, uploaded: false });
    expect(list.list[0].createdBy).toMatchObject({ name: expect.any(String), nameEn: expect.any(String) });
    expect(list.job).toMatchObject({ id: job.id, state: 'done', error: null });

    const file = await admin('GET', `/v1/backups/${job.name}/download`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('application/zip');
    await refused(admin, BACKUP_ANSWERS.download, 'GET', '/v1/backups/qe-20000101-000000.qe.zip/download', undefined, 404, 751);
    await refused(admin, BACKUP_ANSWERS.restored, 'POST', `/v1/backups/${job.name}/restore`, { confirm: 'not its name' }, 400, 758);

    expect(await fits(admin, BACKUP_ANSWERS.schedule, 'GET', '/v1/backups/schedule')).toEqual(empty.schedule);
    expect(await fits(admin, BACKUP_ANSWERS.schedule, 'PUT', '/v1/backups/schedule', { everyHours: 24, keep: 3 })).toEqual({ everyHours: 24, keep: 3 });
    expect(await fits(admin, BACKUP_ANSWERS.deleted, 'DELETE', `/v1/backups/${job.name}`)).toBeNull();
  });
});

// Questionnaire design (src/shared/calls/questionnaires.ts) and the home screen (src/shared/calls/dashboard.ts):
// the real answers of the demo school, for a teacher, an admin and a student, and the refusals.
describe('the questionnaire design and home screen calls answer what their schemas describe', () => {
  let t: TestApp;
  let teacher: Caller;

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    teacher = await as(t, 'teacher01');
  });
  afterAll(async () => t?.close());

  it('the questionnaire design calls answer what their schemas describe, for a teacher and an admin, and the OpenAPI page shows each call’s data', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/qe/api-docs/json' })).json();
    const data200 = (path: string, method: string) => doc.paths[path][method].responses['200'].content['application/json'].schema.properties.data;
    const named = (schema: { properties?: object }) => Object.keys(schema.properties ?? {});
    const listed = (path: string, method = 'get') => Object.keys(data200(path, method).properties.list.items.properties);
    expect(named(data200('/v1/questionnaires', 'get'))).toEqual(['list', 'total']);
    expect(listed('/v1/questionnaires')).toEqual(expect.arrayContaining(['id', 'title', 'status', 'inCharge', 'targets', 'audienceCount', 'mayEdit']));
    expect(listed('/v1/questionnaires')).not.toContain('definition');
    for (const [path, method] of [
      ['/v1/questionnaires/{id}', 'get'],
      ['/v1/questionnaires', 'post'],
      ['/v1/questionnaires/{id}', 'put'],
      ['/v1/questionnaires/{id}/ready', 'post'],
      ['/v1/questionnaires/{id}/cancel-ready', 'post'],
      ['/v1/questionnaires/{id}/close', 'post'],
      ['/v1/questionnaires/{id}/extend', 'post'],
      ['/v1/questionnaires/{id}/copy', 'post'],
    ]) {
      expect(named(data200(path, method)), `${method} ${path}`).toEqual(expect.arrayContaining(['id', 'status', 'hasReplies', 'mayEdit', 'definition']));
    }
    expect(data200('/v1/questionnaires/{id}', 'delete')).toMatchObject({ nullable: true, enum: [null] });
    expect(named(data200('/v1/questionnaires/{id}/notice', 'post'))).toEqual(['sent', 'failed', 'noAddress']);
    expect(named(data200('/v1/questionnaires/audience-count', 'post'))).toEqual(['targets', 'total']);
    expect(named(data200('/v1/questionnaires/images', 'post'))).toEqual(['path']);
    expect(listed('/v1/audience-options')).toEqual(['id', 'code', 'nameHk', 'nameEn', 'count']);
    expect(listed('/v1/staff-options')).toEqual(['id', 'code', 'nameHk', 'nameEn']);
    const refusals = doc.paths['/v1/questionnaires/{id}'].get.responses;
    expect(refusals['4XX'] ?? refusals['4xx']).toBeDefined();
    expect(doc.paths['/v1/questionnaires'].post.requestBody.content['application/json'].schema.properties.title.maxLength).toBe(200);

    const admin = await as(t, 'admin');
    for (const [who, call] of [['teacher01', teacher], ['admin', admin]] as const) {
      const fits = async (answers: { 200: object }, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, code = 200) => {
        const res = await call(method, url, payload);
        expect(res.statusCode, `${who} ${method} ${url}: ${res.body}`).toBe(200);
        expect(res.json().code, `${who} ${url}`).toBe(code);
        expect(problems(answers[200], res.json()), `${who} ${url}`).toEqual([]);
        return res.json().data;
      };
      const [pupil] = await classStudents(t.db, '5A');
      const targets = [{ kind: 'CLASS', ids: [await classId(t.db, '5A')] }, { kind: 'USERS', ids: [pupil] }, { kind: 'ALL_TEACHERS' }];

      const created = await fits(QUESTIONNAIRE_ANSWERS.one, 'POST', '/v1/questionnaires', { title: `Shapes of ${who}`, targets, definition: oneQuestion() }, 201);
      expect(created).toMatchObject({ status: 'PREPARING', targets, definition: oneQuestion(), mayEdit: true, hasReplies: false, lastNoticeTime: null });
      const list = await fits(QUESTIONNAIRE_ANSWERS.list, 'GET', '/v1/questionnaires?size=200');
      expect(list.total).toBeGreaterThan(0);
      const inList = list.list.find((q: { id: number }) => q.id === created.id);
      // the list is the one questionnaire without its questions: nothing else dropped or added
      expect(inList).toEqual({ ...created, definition: undefined });
      expect(await fits(QUESTIONNAIRE_ANSWERS.one, 'GET', `/v1/questionnaires/${created.id}`)).toEqual(created);
      const edited = await fits(QUESTIONNAIRE_ANSWERS.one, 'PUT', `/v1/questionnaires/${created.id}`, { title: `Shapes of ${who}, edited`, openDate: inMinutes(-1), endDate: inMinutes(60) });
      expect(edited).toMatchObject({ id: created.id, title: `Shapes of ${who}, edited` });
      const ready = await fits(QUESTIONNAIRE_ANSWERS.one, 'POST', `/v1/questionnaires/${created.id}/ready`);
      expect(ready.status).toBe('PROCESSING');
      expect(ready.respondentCount).toBeGreaterThan(0);
      const extended = await fits(QUESTIONNAIRE_ANSWERS.one, 'POST', `/v1/questionnaires/${created.id}/extend`, { endDate: inMinutes(120) });
      expect(extended.endDate > ready.endDate).toBe(true);
      expect((await fits(QUESTIONNAIRE_ANSWERS.one, 'POST', `/v1/questionnaires/${created.id}/close`)).status).toBe('FINISHED');
      const copy = await fits(QUESTIONNAIRE_ANSWERS.one, 'POST', `/v1/questionnaires/${created.id}/copy`, undefined, 201);
      expect(copy).toMatchObject({ status: 'PREPARING', targets, definition: oneQuestion() });
      expect(await fits(QUESTIONNAIRE_ANSWERS.changed, 'DELETE', `/v1/questionnaires/${copy.id}`)).toBeNull();

      const count = await fits(QUESTIONNAIRE_ANSWERS.audienceCount, 'POST', '/v1/questionnaires/audience-count', { targets });
      expect(count.targets.map((c: { kind: string }) => c.kind)).toEqual(['CLASS', 'USERS', 'ALL_TEACHERS']);
      expect(count.targets[1].count).toBe(1);
      expect(count.total).toBe(ready.audienceCount);
      const classes = await fits(QUESTIONNAIRE_ANSWERS.audienceOptions, 'GET', '/v1/audience-options?kind=CLASS&q=5A');
      expect(classes.list[0]).toMatchObject({ code: '5A', count: expect.any(Number) });
      const pupils = await fits(QUESTIONNAIRE_ANSWERS.audienceOptions, 'GET', `/v1/audience-options?kind=STUDENT&id=${pupil}`);
      expect(pupils.list).toEqual([expect.objectContaining({ id: pupil, count: 1 })]);
      const staff = await fits(QUESTIONNAIRE_ANSWERS.staffOptions, 'GET', '/v1/staff-options?size=5');
      expect(staff.total).toBeGreaterThan(0);
      expect(Object.keys(staff.list[0]).sort()).toEqual(['code', 'id', 'nameEn', 'nameHk']);

      // refused: one gone (404), a transition its status does not allow (709)
      const gone = await call('GET', `/v1/questionnaires/${copy.id}`);
      expect(gone.statusCode).toBe(404);
      expect(problems(QUESTIONNAIRE_ANSWERS.one['4xx'], gone.json())).toEqual([]);
      expect(gone.json()).toMatchObject({ code: 404, data: null });
      const illegal = await call('POST', `/v1/questionnaires/${created.id}/cancel-ready`);
      expect(illegal.statusCode).toBe(409);
      expect(problems(QUESTIONNAIRE_ANSWERS.one['4xx'], illegal.json())).toEqual([]);
      expect(illegal.json()).toMatchObject({ code: 709, data: null });
    }
  });

  it('the home screen of a teacher, an admin and a student fits its schema, and the OpenAPI page shows it', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/qe/api-docs/json' })).json();
    const data200 = doc.paths['/v1/my/dashboard'].get.responses['200'].content['application/json'].schema.properties.data;
    expect(Object.keys(data200.properties)).toEqual(['toAnswer', 'running', 'school']);
    const [pupil] = await classStudents(t.db, '5A');
    await opened(teacher, [{ kind: 'USERS', ids: [pupil] }, { kind: 'ALL_TEACHERS' }], { title: 'Shapes, home', definition: oneQuestion() });
    const admin = await as(t, 'admin');
    const adminId = (await t.db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()).id;
    const at = Date.now();
    await t.db.insertInto('import_jobs').values({ resource: 'students', user_id: adminId, status: 'done', rows: 3, passwords: 0, hashed: 0, added: 2, updated: 1, skipped: 0, errors: null, created_at: at, heartbeat_at: at, finished_at: at }).execute();
    const student = caller(t.app, await openSession(t.db, t.config, pupil), 'en');
    const boards: Record<string, { toAnswer: unknown; running: unknown; school: { imports: unknown[] } | null }> = {};
    for (const [who, call] of [['teacher01', teacher], ['admin', admin], ['student', student]] as const) {
      const res = await call('GET', '/v1/my/dashboard');
      expect(res.statusCode, `${who}: ${res.body}`).toBe(200);
      expect(problems(DASHBOARD_ANSWERS.dashboard[200], res.json()), who).toEqual([]);
      boards[who] = res.json().data;
    }
    expect(boards.student).toMatchObject({ running: null, school: null });
    expect(boards.student.toAnswer).toMatchObject({ total: expect.any(Number), list: expect.arrayContaining([expect.objectContaining({ title: 'Shapes, home' })]) });
    expect(boards.teacher01.running).toMatchObject({ list: expect.arrayContaining([expect.objectContaining({ title: 'Shapes, home', mayRemind: true })]) });
    expect(boards.admin.school?.imports).toEqual(expect.arrayContaining([{ id: expect.any(Number), resource: 'students', status: 'done', rows: 3, added: 2, updated: 1, skipped: 0, createdAt: new Date(at).toISOString(), finishedAt: new Date(at).toISOString() }]));

    const refused = await caller(t.app, null, 'en')('GET', '/v1/my/dashboard');
    expect(refused.statusCode).toBe(401);
    expect(problems(DASHBOARD_ANSWERS.dashboard['4xx'], refused.json())).toEqual([]);
  });
});

// The statistics calls (src/shared/calls/statistics.ts): the list, a detail with and without a
// filter, texts, respondents named and anonymous, one reply and the refusals, for a teacher and
// an admin. Each answer fits its schema, and is what the service made: the schema drops nothing.
describe('the statistics calls answer what their schemas describe', () => {
  let t: TestApp;
  let teacher: Caller;
  let service: StatisticsService;
  /** teacher01 as the service sees a caller in charge (no permission reaches further) */
  let inCharge: AuthUser;
  let named: number;
  let anonymous: number;

  /** every question type, one with a description and an image (optional fields the answer must keep) */
  const described = () => {
    const definition = everyType();
    const house = definition.sections[0].questions.find((q) => q.id === 'house')!;
    Object.assign(house, { description: 'The house you belong to', image: 'questionnaires/house.png' });
    return definition;
  };

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    teacher = await as(t, 'teacher01');
    service = new StatisticsService(t.db, t.config.anonymousMinGroup);
    inCharge = { id: await userId(t.db, 'teacher01'), userType: 'TEACHER', sessionId: '', permissions: new Set(), questionnaireId: null } as unknown as AuthUser;
    const teachers = [await userId(t.db, 'teacher07'), await userId(t.db, 'teacher08')];
    // named: class 5A and two teachers, three pupils and a teacher replied
    const pupils = await classStudents(t.db, '5A');
    named = (await opened(teacher, [{ kind: 'CLASS', ids: [await classId(t.db, '5A')] }, { kind: 'USERS', ids: teachers }], { title: 'Shapes, results', definition: described() })).id;
    await submitAs(t, named, [...pupils.slice(0, 3), teachers[0]], (i) => variedAnswers(200 + i));
    // anonymous: class 4A and the two teachers, released; the two teachers are a group too small to show
    const others = await classStudents(t.db, '4A');
    anonymous = (await opened(teacher, [{ kind: 'CLASS', ids: [await classId(t.db, '4A')] }, { kind: 'USERS', ids: teachers }], { title: 'Shapes, anonymous results', type: 'ANONYMOUS', definition: described() })).id;
    await submitAs(t, anonymous, [...others.slice(0, 8), ...teachers], (i) => variedAnswers(300 + i));
    await mixAnonymousReplies(t.db, t.config.anonymousMinGroup);
  });
  afterAll(async () => t?.close());

  it('the OpenAPI page shows each statistics call’s data, and the export only its refusals', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/qe/api-docs/json' })).json();
    const data200 = (path: string) => doc.paths[path].get.responses['200'].content['application/json'].schema.properties.data;
    const keys = (schema: { properties?: object }) => Object.keys(schema.properties ?? {});
    expect(keys(data200('/v1/statistics'))).toEqual(['list', 'total']);
    expect(keys(data200('/v1/statistics').properties.list.items)).toEqual(expect.arrayContaining(['id', 'title', 'schoolYear', 'principal', 'submittedNum', 'respondentNum', 'responseRate']));
    const detail = data200('/v1/statistics/{id}');
    expect(keys(detail)).toEqual(['questionnaire', 'filter', 'groups', 'replyCount', 'respondentNum', 'submittedNum', 'releaseBatch', 'withheld', 'questions']);
    const question = detail.properties.questions.items;
    expect(keys(question)).toEqual(expect.arrayContaining(['id', 'number', 'type', 'title', 'description', 'image', 'answered', 'summary']));
    // the summary's five kinds, each with its fields
    const kinds = (question.properties.summary.anyOf ?? question.properties.summary.oneOf).filter((s: { properties?: object }) => s.properties);
    expect(kinds.map((s: { properties: { kind: { const?: string; enum?: string[] } } }) => s.properties.kind.const ?? s.properties.kind.enum?.[0])).toEqual(['choices', 'grid', 'scale', 'distribution', 'texts']);
    expect(keys(kinds[2])).toEqual(expect.arrayContaining(['min', 'max', 'minLabel', 'maxLabel', 'points', 'mean', 'median']));
    expect(keys(data200('/v1/statistics/{id}/texts'))).toEqual(['list', 'total', 'withheld', 'mayMark']);
    const pages = data200('/v1/statistics/{id}/respondents').anyOf;
    expect(pages.map(keys)).toEqual([
      ['anonymous', 'list', 'total'],
      ['anonymous', 'list', 'total', 'notSubmittedNum', 'withheld'],
    ]);
    expect(keys(pages[0].properties.list.items)).toEqual(expect.arrayContaining(['feedbackId', 'role', 'nameHk', 'class', 'classNumber', 'status', 'submittedAt', 'replyId']));
    expect(keys(pages[1].properties.list.items)).toEqual(['number', 'replyId', 'submittedOn']);
    expect(keys(data200('/v1/statistics/{id}/replies/{replyId}'))).toEqual(['replyId', 'number', 'submittedOn', 'definition', 'answers']);
    const download = doc.paths['/v1/statistics/{id}/export'].get.responses;
    expect(download['200']).toBeUndefined();
    expect(download['4XX'] ?? download['4xx']).toBeDefined();
    expect(doc.paths['/v1/statistics/{id}/texts'].get.parameters.find((p: { name: string }) => p.name === 'questionId')).toMatchObject({ in: 'query', required: true });
  });

  it('the list, details, texts, respondents and replies of a teacher and an admin fit their schemas, each as the service made it', async () => {
    const admin = await as(t, 'admin');
    const plain = (value: unknown) => JSON.parse(JSON.stringify(value));
    const kinds = new Set<string>();
    for (const [who, call] of [['teacher01', teacher], ['admin', admin]] as const) {
      const fits = async (answers: { 200: object }, url: string) => {
        const res = await call('GET', url);
        expect(res.statusCode, `${who} ${url}: ${res.body}`).toBe(200);
        expect(problems(answers[200], res.json()), `${who} ${url}`).toEqual([]);
        return res.json().data;
      };
      const detailOf = async (id: number, query = '') => {
        const detail = await fits(STATISTICS_ANSWERS.detail, `/v1/statistics/${id}${query}`);
        for (const q of detail.questions) if (q.summary) kinds.add(q.summary.kind);
        return detail;
      };

      const list = await fits(STATISTICS_ANSWERS.list, '/v1/statistics?size=200');
      expect(list.list.map((r: { id: number }) => r.id)).toEqual(expect.arrayContaining([named, anonymous]));
      // every questionnaire of the list (the demo's too), its detail
      for (const row of list.list) expect((await detailOf(row.id)).questionnaire, `${who} ${row.title}`).toEqual(row);

      const scoped = await service.scoped(inCharge, named);
      const detail = await detailOf(named);
      expect(detail, who).toEqual(plain(await service.detail(scoped, {}, 'en')));
      expect(detail.questions.find((q: { id: string }) => q.id === 'house')).toMatchObject({ description: 'The house you belong to', image: 'questionnaires/house.png' });
      expect(detail.questions.find((q: { id: string }) => q.id === 'mood').summary).toMatchObject({ kind: 'scale', minLabel: 'Sad', maxLabel: 'Happy' });
      const grade = detail.groups.grades[0].id;
      const filtered = await detailOf(named, `?role=STUDENT&gradeId=${grade}`);
      expect(filtered, who).toEqual(plain(await service.detail(scoped, { role: 'STUDENT', gradeId: grade }, 'en')));
      expect(filtered.filter).toEqual({ role: 'STUDENT', gradeId: grade });

      const texts = await fits(STATISTICS_ANSWERS.texts, `/v1/statistics/${named}/texts?questionId=name`);
      expect(texts.list.length).toBeGreaterThan(0);
      expect(texts, who).toEqual(plain(await service.texts(inCharge, named, { questionId: 'name' })));
      await fits(STATISTICS_ANSWERS.texts, `/v1/statistics/${named}/texts?questionId=sports&part=other&size=5`);

      const people = await fits(STATISTICS_ANSWERS.respondents, `/v1/statistics/${named}/respondents?size=200`);
      expect(people, who).toEqual(plain(await service.respondents(inCharge, named, { size: 200 })));
      expect(people.list.map((p: { status: string }) => p.status)).toEqual(expect.arrayContaining(['SUBMITTED', 'NOT_SUBMITTED']));
      expect(people.list.map((p: { role: string }) => p.role)).toEqual(expect.arrayContaining(['STUDENT', 'TEACHER']));
      const replied = people.list.find((p: { replyId: string | null; class: unknown }) => p.replyId && p.class);
      const reply = await fits(STATISTICS_ANSWERS.reply, `/v1/statistics/${named}/replies/${replied.replyId}`);
      expect(reply, who).toEqual(plain(await service.reply(inCharge, named, replied.replyId)));
      expect(reply).toMatchObject({ number: null, definition: described() });

      // anonymous: the numbered replies, one read whole, and a group too small to show
      const numbered = await fits(STATISTICS_ANSWERS.respondents, `/v1/statistics/${anonymous}/respondents`);
      expect(numbered, who).toEqual(plain(await service.respondents(inCharge, anonymous, {})));
      expect(numbered).toMatchObject({ anonymous: true, withheld: null, total: 10 });
      const one = await fits(STATISTICS_ANSWERS.reply, `/v1/statistics/${anonymous}/replies/${numbered.list[0].replyId}`);
      expect(one).toMatchObject({ number: 1, replyId: numbered.list[0].replyId });
      expect(await detailOf(anonymous), who).toEqual(plain(await service.detail(await service.scoped(inCharge, anonymous), {}, 'en')));
      const hidden = await detailOf(anonymous, '?role=TEACHER');
      expect(hidden).toMatchObject({ withheld: { minGroupSize: t.config.anonymousMinGroup, reason: 'group' }, releaseBatch: t.config.anonymousMinGroup });
      expect(hidden.questions.every((q: { summary: unknown }) => q.summary === null)).toBe(true);
      expect(await fits(STATISTICS_ANSWERS.texts, `/v1/statistics/${anonymous}/texts?questionId=name&role=TEACHER`)).toMatchObject({ list: [], withheld: { reason: 'group' } });
      expect(await fits(STATISTICS_ANSWERS.respondents, `/v1/statistics/${anonymous}/respondents?role=TEACHER`)).toMatchObject({ anonymous: true, list: [], withheld: { reason: 'group' } });
    }
    expect([...kinds].sort()).toEqual(['choices', 'distribution', 'grid', 'scale', 'texts']);
  });

  it('refuses another teacher’s questionnaire, an id that is none, a reply that is none and a filter that is not one, in the refusal’s shape', async () => {
    const other = await as(t, 'teacher02');
    const refused = async (call: Caller, answers: { '4xx': object }, url: string, status: number, code: number) => {
      const res = await call('GET', url);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(status);
      expect(problems(answers['4xx'], res.json()), url).toEqual([]);
      expect(res.json().code, url).toBe(code);
    };
    await refused(other, STATISTICS_ANSWERS.detail, `/v1/statistics/${named}`, 404, 404);
    await refused(other, STATISTICS_ANSWERS.respondents, `/v1/statistics/${anonymous}/respondents`, 404, 404);
    await refused(teacher, STATISTICS_ANSWERS.detail, '/v1/statistics/2147483000', 404, 404);
    await refused(teacher, STATISTICS_ANSWERS.reply, `/v1/statistics/${named}/replies/not-a-reply`, 404, 404);
    await refused(teacher, STATISTICS_ANSWERS.texts, `/v1/statistics/${named}/texts?questionId=nothing`, 404, 404);
    await refused(teacher, STATISTICS_ANSWERS.detail, `/v1/statistics/${named}?role=PARENT`, 422, 422);
    await refused(teacher, STATISTICS_ANSWERS.list, '/v1/statistics?size=201', 422, 422);
    // the export answers the workbook, or its refusal as 719
    const file = await teacher('GET', `/v1/statistics/${named}/export`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('spreadsheetml');
    await refused(other, STATISTICS_ANSWERS.export, `/v1/statistics/${named}/export`, 400, 719);
  });
});
