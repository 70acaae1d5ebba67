import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorText } from '../../../src/shared/errors.js';
import { DEFAULT_ROLES, PAGES, type PermissionEntry, type UserType } from '../../../src/shared/permissions.js';
import { DEFAULT_GRANTS, grantsOf } from '../../support/default-grants.js';
import { bearer, login, testApp, type TestApp } from '../harness.js';

// Roles: the calls under /v1/roles/actions and /ed/roles with their payload names,
// the roles resource of docs/conventions.md#calls (/v1/roles, /v1/roles/:id/users, /v1/users/:id/roles),
// what a change does to the role's users on their next request, who may call, and the
// own-access guard (709).

interface TreeMenu { menuId: number; code: string; actions: { actionId: number; code: string; name: string }[] }
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

const ACCOUNTS: Record<UserType, string> = { SUPER_ADMIN: 'superadmin', ADMIN: 'admin', TEACHER: 'teacher01', STUDENT: 'student001' };
const USER_COUNTS: Record<UserType, number> = { SUPER_ADMIN: 1, ADMIN: 1, TEACHER: 20, STUDENT: 200 };

describe('roles', () => {
  let t: TestApp;
  const tokens = {} as Record<UserType, string>;
  const userIds = {} as Record<UserType, number>;
  const roles = {} as Record<UserType, number>;
  /** `page.action` → actionId, from the tree */
  let actionIds: Map<string, number>;
  let menus: TreeMenu[];

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    for (const [type, username] of Object.entries(ACCOUNTS)) {
      const session = await login(t.app, username);
      tokens[type as UserType] = session.tk;
      userIds[type as UserType] = session.userId;
    }
    for (const r of await t.db.selectFrom('roles').select(['id', 'role_code']).execute()) roles[r.role_code as UserType] = r.id;
    menus = (await call('GET', '/v1/menu-actions/actions/tree?system=QE')).body.data;
    actionIds = new Map(menus.flatMap((m) => m.actions.map((a) => [`${m.code}.${a.code}`, a.actionId] as const)));
  });
  afterAll(async () => t?.close());

  async function call(method: Method, url: string, payload?: object, tk = tokens.SUPER_ADMIN, lang?: string) {
    const res = await t.app.inject({ method, url, payload, headers: { ...bearer(tk), ...(lang ? { 'accept-language': lang } : {}) } });
    return { status: res.statusCode, body: res.json() };
  }
  const ids = (codes: string[]) => codes.map((c) => actionIds.get(c)!);
  const actionList = async (role: number) => (await call('GET', `/v1/roles/actions/action-list?roleId=${role}&system=QE`)).body.data;
  const selectAction = (roleId: number, codes: string[], tk = tokens.SUPER_ADMIN, lang?: string) =>
    call('POST', '/v1/roles/actions/select-action', { actions: ids(codes), roleId, system: 'QE' }, tk, lang);
  const myCodes = async (tk: string): Promise<string[]> => (await call('GET', '/v1/my/action-list', undefined, tk)).body.data;
  const edPermissions = async (role: number): Promise<PermissionEntry[]> => {
    const res = await call('GET', `/ed/roles/${role}/permissions?role_id=${role}&independent_system=1&web_code=QE`);
    expect(res.body.code).toBe(200);
    return res.body.data;
  };

  describe('the roles resource', () => {
    it('lists every role with userType, roleCode, name, remark and how many users hold it: {list, total}', async () => {
      const res = await call('GET', '/v1/roles');
      expect(res.body.code).toBe(200);
      const { list, total } = res.body.data;
      expect(total).toBe(list.length);
      expect(list.map((r: { roleCode: string }) => r.roleCode)).toEqual(DEFAULT_ROLES.map((r) => r.roleCode));
      for (const def of DEFAULT_ROLES) {
        expect(list.find((r: { roleCode: string }) => r.roleCode === def.roleCode)).toEqual({
          id: roles[def.userType], roleId: roles[def.userType], system: 'QE', userType: def.userType, roleCode: def.roleCode,
          name: def.nameHk, nameHk: def.nameHk, nameEn: def.nameEn, remark: null, isDefault: true, userCount: USER_COUNTS[def.userType],
        });
      }
    });

    it('filters by userType and by a search, and pages with page and size', async () => {
      expect((await call('GET', '/v1/roles?userType=TEACHER')).body.data).toMatchObject({ total: 1, list: [{ roleCode: 'TEACHER' }] });
      expect((await call('GET', '/v1/roles?q=administrator')).body.data.list.map((r: { roleCode: string }) => r.roleCode)).toEqual(['SUPER_ADMIN', 'ADMIN']);
      const page2 = (await call('GET', '/v1/roles?page=2&size=3')).body.data;
      expect(page2.total).toBe(4);
      expect(page2.list.map((r: { roleCode: string }) => r.roleCode)).toEqual(['STUDENT']);
      expect((await call('GET', '/v1/roles?userType=NOBODY')).status).toBe(422);
    });

    it('creates, reads, edits and deletes a role', async () => {
      const created = await call('POST', '/v1/roles', { userType: 'TEACHER', roleCode: 'PANEL_HEAD', nameHk: '科主任', nameEn: 'Panel head', remark: '科組' });
      expect(created.body).toMatchObject({ code: 201, data: { roleId: expect.any(Number), userType: 'TEACHER', roleCode: 'PANEL_HEAD', name: '科主任', nameEn: 'Panel head', remark: '科組', userCount: 0 } });
      const id = created.body.data.roleId;
      expect((await call('GET', `/v1/roles/${id}`)).body.data).toEqual(created.body.data);

      const edited = await call('PUT', `/v1/roles/${id}`, { roleCode: 'PANEL', nameEn: 'Panel', remark: null });
      expect(edited.body).toMatchObject({ code: 200, data: { roleId: id, roleCode: 'PANEL', nameHk: '科主任', nameEn: 'Panel', remark: null } });
      expect((await actionList(id)).actions).toEqual([]);

      expect((await call('DELETE', `/v1/roles/${id}`)).body.code).toBe(200);
      const gone = await call('GET', `/v1/roles/${id}`);
      expect(gone.status).toBe(404);
      expect(gone.body).toMatchObject({ code: 404, msg: errorText('RECORD_NOT_FOUND', 'zh-hk') });
      expect((await call('DELETE', `/v1/roles/${id}`)).body.code).toBe(404);
      expect((await call('PUT', `/v1/roles/${id}`, { nameEn: 'x' })).body.code).toBe(404);
    });

    it('refuses a roleCode already used with 707, on create and on edit, in zh-hk and en', async () => {
      const zh = await call('POST', '/v1/roles', { userType: 'TEACHER', roleCode: 'TEACHER', nameHk: '重複', nameEn: 'Again' });
      expect(zh.status).toBe(409);
      expect(zh.body).toEqual({ code: 707, msg: errorText('DUPLICATE', 'zh-hk', { field: 'roleCode', value: 'TEACHER' }), data: null });
      const en = await call('POST', '/v1/roles', { userType: 'TEACHER', roleCode: 'TEACHER', nameHk: '重複', nameEn: 'Again' }, tokens.SUPER_ADMIN, 'en');
      expect(en.body.msg).toBe(errorText('DUPLICATE', 'en', { field: 'roleCode', value: 'TEACHER' }));

      const { roleId } = (await call('POST', '/v1/roles', { userType: 'STUDENT', roleCode: 'MONITOR', nameHk: '班長', nameEn: 'Monitor' })).body.data;
      const dup = await call('PUT', `/v1/roles/${roleId}`, { roleCode: 'STUDENT' });
      expect(dup.body.code).toBe(707);
      expect((await call('GET', `/v1/roles/${roleId}`)).body.data.roleCode).toBe('MONITOR');
      // its own code again is no duplicate
      expect((await call('PUT', `/v1/roles/${roleId}`, { roleCode: 'MONITOR', nameHk: '班長' })).body.code).toBe(200);
      expect((await call('GET', '/v1/roles')).body.data.list.filter((r: { roleCode: string }) => r.roleCode === 'TEACHER')).toHaveLength(1);
    });

    it('refuses a role without its fields or with a userType outside the four with 422', async () => {
      const res = await call('POST', '/v1/roles', { userType: 'TEACHER', nameHk: 'x', nameEn: 'x' });
      expect(res.status).toBe(422);
      expect(res.body.data).toHaveProperty('roleCode');
      expect((await call('POST', '/v1/roles', { userType: 'GUEST', roleCode: 'GUEST', nameHk: 'x', nameEn: 'x' })).status).toBe(422);
    });

    it('lists who holds a role: GET /v1/roles/:id/users', async () => {
      const res = await call('GET', `/v1/roles/${roles.TEACHER}/users`);
      expect(res.body.code).toBe(200);
      expect(res.body.data.total).toBe(20);
      expect(res.body.data.list[0]).toEqual({ id: expect.any(Number), code: 'T001', username: 'teacher01', nameHk: expect.any(String), nameEn: expect.any(String), userType: 'TEACHER' });
      expect((await call('GET', `/v1/roles/${roles.SUPER_ADMIN}/users`)).body.data.list.map((u: { username: string }) => u.username)).toEqual(['superadmin']);
      expect((await call('GET', '/v1/roles/999999/users')).body.code).toBe(404);
    });
  });

  describe("a user's roles: GET and PUT /v1/users/:id/roles", () => {
    it("answers a user's roleIds, sets them, and the user's next request follows", async () => {
      const { tk, userId } = await login(t.app, 'teacher02');
      expect((await call('GET', `/v1/users/${userId}/roles`)).body).toMatchObject({ code: 200, data: { userId, roleIds: [roles.TEACHER] } });
      expect((await call('GET', '/v1/questionnaires', undefined, tk)).body.code).toBe(200);

      expect((await call('PUT', `/v1/users/${userId}/roles`, { roleIds: [roles.STUDENT] })).body.code).toBe(200);
      expect((await call('GET', `/v1/users/${userId}/roles`)).body.data.roleIds).toEqual([roles.STUDENT]);
      expect((await call('GET', '/v1/questionnaires', undefined, tk)).status).toBe(403);
      expect(await myCodes(tk)).toEqual(DEFAULT_GRANTS.STUDENT);
      expect((await call('GET', `/v1/roles/${roles.TEACHER}/users`)).body.data.total).toBe(19);

      expect((await call('PUT', `/v1/users/${userId}/roles`, { roleIds: [roles.TEACHER, roles.STUDENT] })).body.code).toBe(200);
      expect((await call('GET', `/v1/users/${userId}/roles`)).body.data.roleIds.sort()).toEqual([roles.TEACHER, roles.STUDENT].sort());
      expect(await myCodes(tk)).toEqual(grantsOf('TEACHER', 'STUDENT'));
      expect((await call('PUT', `/v1/users/${userId}/roles`, { roleIds: [roles.TEACHER] })).body.code).toBe(200);
      expect((await call('GET', '/v1/questionnaires', undefined, tk)).body.code).toBe(200);
    });

    it('refuses a role that does not exist (406) and a user who does not exist (404)', async () => {
      const { userId } = await login(t.app, 'teacher03');
      const res = await call('PUT', `/v1/users/${userId}/roles`, { roleIds: [roles.TEACHER, 999999] });
      expect(res.body.code).toBe(406);
      expect((await call('GET', `/v1/users/${userId}/roles`)).body.data.roleIds).toEqual([roles.TEACHER]);
      expect((await call('PUT', '/v1/users/999999/roles', { roleIds: [roles.TEACHER] })).body.code).toBe(404);
      expect((await call('GET', '/v1/users/999999/roles')).body.code).toBe(404);
      expect((await call('PUT', `/v1/users/${userId}/roles`, {})).status).toBe(422);
    });
  });

  describe('GET /v1/roles/actions/action-list', () => {
    it.each(Object.keys(ACCOUNTS) as UserType[])('answers the %s role its actions (ids) for roleId and system', async (type) => {
      const res = await call('GET', `/v1/roles/actions/action-list?roleId=${roles[type]}&system=QE`);
      expect(res.body.code).toBe(200);
      expect(res.body.data).toMatchObject({ roleId: roles[type], system: 'QE' });
      expect([...res.body.data.actions].sort()).toEqual(ids([...DEFAULT_GRANTS[type]]).sort());
      expect([...res.body.data.codes].sort()).toEqual(DEFAULT_GRANTS[type]);
    });

    it('answers nothing for a system without menus, 404 for a role that does not exist, 422 without a roleId', async () => {
      expect((await call('GET', `/v1/roles/actions/action-list?roleId=${roles.TEACHER}&system=OTHER`)).body.data.actions).toEqual([]);
      expect((await call('GET', '/v1/roles/actions/action-list?roleId=999999&system=QE')).body.code).toBe(404);
      expect((await call('GET', '/v1/roles/actions/action-list?system=QE')).status).toBe(422);
    });
  });

  describe('POST /v1/roles/actions/select-action', () => {
    it("replaces the role's actions with the ones given, which /ed/roles and action-list then answer", async () => {
      const { roleId } = (await call('POST', '/v1/roles', { userType: 'TEACHER', roleCode: 'READER', nameHk: '讀者', nameEn: 'Reader' })).body.data;
      const first = ['form.view', 'form.edit', 'help.view', 'data-statistics.export'];
      expect((await selectAction(roleId, first)).body).toMatchObject({ code: 200 });
      expect([...(await actionList(roleId)).actions].sort()).toEqual(ids(first).sort());

      const second = ['form-input.view', 'data-statistics.view', 'role.view'];
      expect((await selectAction(roleId, second)).body.code).toBe(200);
      expect([...(await actionList(roleId)).codes].sort()).toEqual([...second].sort());
      const entries = await edPermissions(roleId);
      for (const e of entries) {
        e.actions.forEach((a, i) => expect(e.permission_selection[i], `${e.code}.${a.code}`).toBe(second.includes(`${e.code}.${a.code}`) ? '1' : '0'));
      }

      expect((await selectAction(roleId, [])).body.code).toBe(200);
      expect((await actionList(roleId)).actions).toEqual([]);
      expect((await edPermissions(roleId)).every((e) => /^0+$/.test(e.permission_selection))).toBe(true);
    });

    it('refuses an action that does not exist (406), a role that does not exist (404), and a payload without actions (422)', async () => {
      const before = (await actionList(roles.STUDENT)).actions;
      expect((await call('POST', '/v1/roles/actions/select-action', { actions: [...before, 999999], roleId: roles.STUDENT, system: 'QE' })).body.code).toBe(406);
      expect((await actionList(roles.STUDENT)).actions).toEqual(before);
      expect((await call('POST', '/v1/roles/actions/select-action', { actions: [], roleId: 999999, system: 'QE' })).body.code).toBe(404);
      expect((await call('POST', '/v1/roles/actions/select-action', { roleId: roles.STUDENT, system: 'QE' })).status).toBe(422);
    });

    it("applies to the role's users on their next request: without form.add teacher01 may not create a questionnaire, and may again once it is back", async () => {
      const teacherCodes = [...DEFAULT_GRANTS.TEACHER];
      expect((await selectAction(roles.TEACHER, teacherCodes.filter((c) => c !== 'form.add'))).body.code).toBe(200);
      const refused = await call('POST', '/v1/questionnaires', { title: 'Without form.add' }, tokens.TEACHER);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ code: 405, msg: errorText('PERMISSION_DENIED', 'zh-hk'), data: null });
      expect(await myCodes(tokens.TEACHER)).not.toContain('form.add');
      expect((await call('GET', '/v1/questionnaires', undefined, tokens.TEACHER)).body.code).toBe(200);

      expect((await selectAction(roles.TEACHER, teacherCodes)).body.code).toBe(200);
      const created = await call('POST', '/v1/questionnaires', { title: 'With form.add again' }, tokens.TEACHER);
      expect(created.body.code).toBe(201);
      expect(await myCodes(tokens.TEACHER)).toEqual(teacherCodes);
    });
  });

  describe('GET /ed/roles/{role_id}/permissions', () => {
    it("answers every page in the spec's shape, marked as select-action set it", async () => {
      const { roleId } = (await call('POST', '/v1/roles', { userType: 'ADMIN', roleCode: 'AUDITOR', nameHk: '審計', nameEn: 'Auditor' })).body.data;
      const chosen = ['form.view', 'form.management', 'teacher.export', 'role.assign-roles', 'google-account.view'];
      await selectAction(roleId, chosen);
      const entries = await edPermissions(roleId);
      expect(entries.map((e) => e.code)).toEqual(PAGES.map((p) => p.code));
      for (const e of entries) {
        expect(Object.keys(e).sort()).toEqual(['actions', 'code', 'permission_content', 'permission_mark_cn', 'permission_mark_en', 'permission_selection']);
        const menu = menus.find((m) => m.code === e.code)!;
        expect(e.actions, e.code).toEqual(menu.actions.map((a) => ({ code: a.code })));
        expect(e.permission_content, e.code).toBe('1'.repeat(menu.actions.length));
        expect(e.permission_mark_cn, e.code).toBe(menu.actions.map((a) => a.name).join(','));
        expect(e.permission_mark_en.split(','), e.code).toHaveLength(menu.actions.length);
        expect(e.permission_selection, e.code).toBe(menu.actions.map((a) => (chosen.includes(`${e.code}.${a.code}`) ? '1' : '0')).join(''));
      }
      expect(entries.find((e) => e.code === 'form')!.permission_mark_en).toBe('View,Add,Edit,Delete,Management');
    });

    it('answers the role of its path for any web_code system, nothing for a system without menus', async () => {
      const res = await call('GET', `/ed/roles/${roles.STUDENT}/permissions?role_id=${roles.STUDENT}&independent_system=1&web_code=OTHER`);
      expect(res.body).toMatchObject({ code: 200, data: [] });
    });
  });

  describe('who may call', () => {
    const reads: [string, Method, () => string][] = [
      ['list roles', 'GET', () => '/v1/roles'],
      ['read a role', 'GET', () => `/v1/roles/${roles.TEACHER}`],
      ['list role users', 'GET', () => `/v1/roles/${roles.TEACHER}/users`],
      ['action-list', 'GET', () => `/v1/roles/actions/action-list?roleId=${roles.TEACHER}&system=QE`],
      ['role permissions', 'GET', () => `/ed/roles/${roles.TEACHER}/permissions?role_id=${roles.TEACHER}&independent_system=1&web_code=QE`],
    ];
    const writes: [string, Method, () => string, (() => object)?][] = [
      ['create a role', 'POST', () => '/v1/roles', () => ({ userType: 'TEACHER', roleCode: 'SNEAKY', nameHk: 'x', nameEn: 'x' })],
      ['edit a role', 'PUT', () => `/v1/roles/${roles.TEACHER}`, () => ({ nameEn: 'Sneaky' })],
      ['delete a role', 'DELETE', () => `/v1/roles/${roles.STUDENT}`],
      ['select-action', 'POST', () => '/v1/roles/actions/select-action', () => ({ actions: [], roleId: roles.TEACHER, system: 'QE' })],
      ["read a user's roles", 'GET', () => `/v1/users/${userIds.TEACHER}/roles`],
      ["set a user's roles", 'PUT', () => `/v1/users/${userIds.TEACHER}/roles`, () => ({ roleIds: [roles.SUPER_ADMIN] })],
    ];

    const refused = async (type: UserType, method: Method, url: string, payload?: object) => {
      const before = { roles: (await call('GET', '/v1/roles')).body.data, teacher: await actionList(roles.TEACHER), user: (await call('GET', `/v1/users/${userIds.TEACHER}/roles`)).body.data };
      const res = await call(method, url, payload, tokens[type]);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ code: 405, msg: errorText('PERMISSION_DENIED', 'zh-hk'), data: null });
      expect({ roles: (await call('GET', '/v1/roles')).body.data, teacher: await actionList(roles.TEACHER), user: (await call('GET', `/v1/users/${userIds.TEACHER}/roles`)).body.data }).toEqual(before);
    };

    it.each(reads)('lets an admin (role.view) %s', async (_, method, url) => {
      expect((await call(method, url(), undefined, tokens.ADMIN)).body.code).toBe(200);
    });

    it.each(writes)('refuses an admin, who holds role.view only, to %s (403, code 405)', async (_, method, url, payload) => {
      await refused('ADMIN', method, url(), payload?.());
    });

    describe.each(['TEACHER', 'STUDENT'] as const)('a %s', (type) => {
      it.each([...reads, ...writes] as [string, Method, () => string, (() => object)?][])('is refused to %s (403, code 405)', async (_, method, url, payload) => {
        await refused(type, method, url(), payload?.());
      });
    });

    it('lets an admin given role.add, role.edit and role.assign-roles manage roles', async () => {
      const adminCodes = [...DEFAULT_GRANTS.ADMIN];
      await selectAction(roles.ADMIN, [...adminCodes, 'role.add', 'role.edit', 'role.assign-roles']);
      try {
        const created = await call('POST', '/v1/roles', { userType: 'TEACHER', roleCode: 'BY_ADMIN', nameHk: '管理員建立', nameEn: 'By admin' }, tokens.ADMIN);
        expect(created.body.code).toBe(201);
        expect((await selectAction(created.body.data.roleId, ['help.view'], tokens.ADMIN)).body.code).toBe(200);
        expect((await call('GET', `/v1/users/${userIds.TEACHER}/roles`, undefined, tokens.ADMIN)).body.code).toBe(200);
        // the menus stay out of reach
        expect((await call('GET', '/v1/menu-actions/actions/tree?system=QE', undefined, tokens.ADMIN)).status).toBe(403);
      } finally {
        await selectAction(roles.ADMIN, adminCodes);
      }
      expect(await myCodes(tokens.ADMIN)).toEqual(adminCodes);
    });
  });

  describe('the own-access guard', () => {
    const allCodes = () => [...actionIds.keys()];
    async function expectOwnAccess(method: Method, url: string, payload?: object, tk = tokens.SUPER_ADMIN) {
      const zh = await call(method, url, payload, tk);
      expect(zh.status).toBe(409);
      expect(zh.body).toEqual({ code: 709, msg: errorText('OWN_DEVELOPER_ACCESS', 'zh-hk'), data: null });
      const en = await call(method, url, payload, tk, 'en');
      expect(en.body).toEqual({ code: 709, msg: errorText('OWN_DEVELOPER_ACCESS', 'en'), data: null });
    }
    const superActions = () => actionList(roles.SUPER_ADMIN).then((d) => [...d.actions].sort());

    it.each(['role.view', 'role.edit'])('refuses a super administrator taking %s from their own role through select-action (709)', async (code) => {
      const before = await superActions();
      await expectOwnAccess('POST', '/v1/roles/actions/select-action', { actions: ids(allCodes().filter((c) => c !== code)), roleId: roles.SUPER_ADMIN, system: 'QE' });
      await expectOwnAccess('POST', '/v1/roles/actions/select-action', { actions: [], roleId: roles.SUPER_ADMIN, system: 'QE' });
      expect(await superActions()).toEqual(before);
      expect((await call('GET', '/v1/roles')).body.code).toBe(200);
    });

    it('lets a super administrator take other actions from their own role', async () => {
      expect((await selectAction(roles.SUPER_ADMIN, allCodes().filter((c) => c !== 'form.delete'))).body.code).toBe(200);
      expect(await myCodes(tokens.SUPER_ADMIN)).not.toContain('form.delete');
      expect((await selectAction(roles.SUPER_ADMIN, allCodes())).body.code).toBe(200);
      expect(await myCodes(tokens.SUPER_ADMIN)).toContain('form.delete');
    });

    it('refuses a super administrator deleting the SUPER_ADMIN role they hold (709)', async () => {
      await expectOwnAccess('DELETE', `/v1/roles/${roles.SUPER_ADMIN}`);
      expect((await call('GET', `/v1/roles/${roles.SUPER_ADMIN}`)).body.data.userCount).toBe(1);
    });

    it('refuses a super administrator taking their own roles away through PUT /v1/users/:id/roles (709)', async () => {
      const url = `/v1/users/${userIds.SUPER_ADMIN}/roles`;
      await expectOwnAccess('PUT', url, { roleIds: [] });
      // the ADMIN role has role.view but not role.edit
      await expectOwnAccess('PUT', url, { roleIds: [roles.ADMIN] });
      expect((await call('GET', url)).body.data.roleIds).toEqual([roles.SUPER_ADMIN]);
    });

    it('lets the first super administrator change another super administrator freely, who cannot lock themselves out either', async () => {
      const me = await t.db.selectFrom('users').select('password_hash').where('username', '=', 'superadmin').executeTakeFirstOrThrow();
      const now = new Date().toISOString();
      const { id: second } = await t.db
        .insertInto('users')
        .values({ username: 'superadmin2', password_hash: me.password_hash, user_type: 'SUPER_ADMIN', user_no: null, name_hk: '第二管理員', name_en: 'Second administrator', email: null, active: 1, status: '1', seq: 0, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      expect((await call('PUT', `/v1/users/${second}/roles`, { roleIds: [roles.SUPER_ADMIN] })).body.code).toBe(200);
      const { tk } = await login(t.app, 'superadmin2');
      expect((await call('GET', '/v1/roles', undefined, tk)).body.code).toBe(200);
      expect((await call('GET', `/v1/roles/${roles.SUPER_ADMIN}/users`)).body.data.total).toBe(2);

      // their roles taken away: refused on their next request
      expect((await call('PUT', `/v1/users/${second}/roles`, { roleIds: [] })).body.code).toBe(200);
      expect((await call('GET', '/v1/roles', undefined, tk)).status).toBe(403);

      // a role of their own, with everything: they may not lock themselves out of it, the first may
      const { roleId: own } = (await call('POST', '/v1/roles', { userType: 'SUPER_ADMIN', roleCode: 'SUPER_2', nameHk: '超級管理員二', nameEn: 'Super 2' })).body.data;
      expect((await selectAction(own, allCodes())).body.code).toBe(200);
      expect((await call('PUT', `/v1/users/${second}/roles`, { roleIds: [own] })).body.code).toBe(200);
      expect((await call('GET', '/v1/menu-actions/actions/tree?system=QE', undefined, tk)).body.code).toBe(200);
      await expectOwnAccess('POST', '/v1/roles/actions/select-action', { actions: ids(allCodes().filter((c) => c !== 'role.edit')), roleId: own, system: 'QE' }, tk);
      await expectOwnAccess('DELETE', `/v1/roles/${own}`, undefined, tk);
      await expectOwnAccess('PUT', `/v1/users/${second}/roles`, { roleIds: [] }, tk);

      expect((await selectAction(own, allCodes().filter((c) => c !== 'role.view' && c !== 'role.edit'))).body.code).toBe(200);
      expect((await call('GET', '/v1/roles', undefined, tk)).status).toBe(403);
      expect((await selectAction(own, allCodes())).body.code).toBe(200);
      expect((await call('GET', '/v1/roles', undefined, tk)).body.code).toBe(200);
      expect((await call('DELETE', `/v1/roles/${own}`)).body.code).toBe(200);
      expect((await call('GET', '/v1/roles', undefined, tk)).status).toBe(403);
      expect((await call('GET', `/v1/users/${second}/roles`)).body.data.roleIds).toEqual([]);
    });

    it('guards only the last way in: with a second role that gives it, a super administrator may change the first', async () => {
      const { roleId: spare } = (await call('POST', '/v1/roles', { userType: 'SUPER_ADMIN', roleCode: 'SPARE_KEY', nameHk: '後備', nameEn: 'Spare key' })).body.data;
      await selectAction(spare, ['role.view', 'role.edit']);
      const url = `/v1/users/${userIds.SUPER_ADMIN}/roles`;
      expect((await call('PUT', url, { roleIds: [roles.SUPER_ADMIN, spare] })).body.code).toBe(200);
      expect((await selectAction(roles.SUPER_ADMIN, allCodes().filter((c) => c !== 'role.view' && c !== 'role.edit'))).body.code).toBe(200);
      expect((await actionList(roles.SUPER_ADMIN)).codes).not.toContain('role.view');
      expect(await myCodes(tokens.SUPER_ADMIN)).toEqual(DEFAULT_GRANTS.SUPER_ADMIN);
      // now the spare role is the way in
      await expectOwnAccess('DELETE', `/v1/roles/${spare}`);
      await expectOwnAccess('PUT', url, { roleIds: [roles.SUPER_ADMIN] });

      expect((await selectAction(roles.SUPER_ADMIN, allCodes())).body.code).toBe(200);
      expect((await call('PUT', url, { roleIds: [roles.SUPER_ADMIN] })).body.code).toBe(200);
      expect((await call('DELETE', `/v1/roles/${spare}`)).body.code).toBe(200);
      expect(await myCodes(tokens.SUPER_ADMIN)).toEqual(DEFAULT_GRANTS.SUPER_ADMIN);
    });
  });
});
