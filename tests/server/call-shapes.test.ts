import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import { openSession } from '../../src/server/auth/sessions.js';
import { testApp, type TestApp } from './harness.js';
import { caller } from './master/helpers.js';
import { FILLING_ANSWERS } from '../../src/shared/calls/filling.js';
import { SESSION_ANSWERS } from '../../src/shared/calls/session.js';
import { DEVELOPER_ANSWERS } from '../../src/shared/calls/developer.js';
import { as, classStudents, data, oneQuestion, type Caller } from './questionnaires/helpers.js';
import { goodAnswers, everyType, newKey, opened } from './filling/helpers.js';

// Calls described once (src/shared/calls/, docs/conventions.md#call-shapes): what they answer,
// success and refusal, is what those schemas say, and the OpenAPI page shows it.
describe('calls answer what their schemas describe', () => {
  let t: TestApp;
  let teacher: Caller;
  const ajv = new Ajv({ strict: false, allErrors: true });
  /** the schema's own problems with an answer, none when it fits */
  const problems = (schema: object, body: unknown) => {
    const validate = ajv.compile(schema);
    return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  };

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
