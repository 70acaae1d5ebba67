import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorText } from '../../../src/shared/errors.js';
import { ACTIONS, DEFAULT_ROLES, PAGES, type UserType } from '../../../src/shared/permissions.js';
import { DEFAULT_GRANTS } from '../../support/default-grants.js';
import { bearer, login, testApp, type TestApp } from '../harness.js';

// The menus and actions of the developer area: every call the product names under /v1/menu-actions,
// /v1/menus and /v1/actions, with their payload names, who may call them, what a change
// does to the roles and their users, and the own-access guard (709).

interface TreeAction { actionId: number; menuId: number; code: string; group: number; name: string; sort: number }
interface TreeMenu { menuId: number; code: string; system: string; name: string; sort: number; roleCount: number; actions: TreeAction[] }

const ACCOUNTS: Record<UserType, string> = { SUPER_ADMIN: 'superadmin', ADMIN: 'admin', TEACHER: 'teacher01', STUDENT: 'student001' };

describe('menus and actions', () => {
  let t: TestApp;
  const tokens = {} as Record<UserType, string>;
  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    for (const [type, username] of Object.entries(ACCOUNTS)) tokens[type as UserType] = (await login(t.app, username)).tk;
  });
  afterAll(async () => t?.close());

  async function call(method: 'GET' | 'POST', url: string, payload?: object, tk = tokens.SUPER_ADMIN, lang?: string) {
    const res = await t.app.inject({ method, url, payload, headers: { ...bearer(tk), ...(lang ? { 'accept-language': lang } : {}) } });
    return { status: res.statusCode, body: res.json() };
  }
  const tree = async (system = 'QE'): Promise<TreeMenu[]> => {
    const res = await call('GET', `/v1/menu-actions/actions/tree?system=${system}`);
    expect(res.body.code).toBe(200);
    return res.body.data;
  };
  const menuOf = async (code: string) => (await tree()).find((m) => m.code === code)!;
  const roleId = async (code: string) => (await t.db.selectFrom('roles').select('id').where('role_code', '=', code).executeTakeFirstOrThrow()).id;
  const roleActions = async (role: number): Promise<number[]> => (await call('GET', `/v1/roles/actions/action-list?roleId=${role}&system=QE`)).body.data.actions;
  const actionList = async (tk: string): Promise<string[]> => (await call('GET', '/v1/my/action-list', undefined, tk)).body.data;

  /** A new menu of QE with one `view` action, through the API. */
  async function newMenu(code: string, sort = 900): Promise<{ menuId: number; actionId: number }> {
    const menu = await call('POST', '/v1/menus/actions/create', { code, system: 'QE', name: `${code} 頁`, sort });
    expect(menu.body).toMatchObject({ code: 201, data: { menuId: expect.any(Number) } });
    const action = await call('POST', '/v1/actions/actions/create', { code: 'view', group: 201, menuId: menu.body.data.menuId, name: '查看', sort: 0 });
    expect(action.body).toMatchObject({ code: 201, data: { actionId: expect.any(Number) } });
    return { menuId: menu.body.data.menuId, actionId: action.body.data.actionId };
  }

  describe('GET /v1/menu-actions/actions/tree', () => {
    it('answers every page of QE in sort order, each with its actions in sort order and the number of roles that use it', async () => {
      const menus = await tree();
      expect(menus.map((m) => m.code)).toEqual(PAGES.map((p) => p.code));
      expect(menus.map((m) => m.sort)).toEqual([...menus.map((m) => m.sort)].sort((a, b) => a - b));
      for (const page of PAGES) {
        const m = menus.find((x) => x.code === page.code)!;
        expect(m, page.code).toMatchObject({ menuId: expect.any(Number), code: page.code, system: 'QE', name: page.nameHk, sort: expect.any(Number) });
        const holders = DEFAULT_ROLES.filter((r) => DEFAULT_GRANTS[r.userType].some((p) => p.startsWith(`${page.code}.`)));
        expect(m.roleCount, page.code).toBe(holders.length);
        expect(m.actions.map((a) => a.code).sort(), page.code).toEqual([...page.actions].sort());
        expect(m.actions.map((a) => a.sort), page.code).toEqual([...m.actions.map((a) => a.sort)].sort((a, b) => a - b));
        for (const a of m.actions) {
          const def = ACTIONS.find((d) => d.code === a.code)!;
          expect(a, `${page.code}.${a.code}`).toEqual(expect.objectContaining({ actionId: expect.any(Number), menuId: m.menuId, code: a.code, group: def.group, name: def.nameHk, sort: expect.any(Number) }));
          expect(a.group).toBeGreaterThanOrEqual(201);
          expect(a.group).toBeLessThanOrEqual(206);
        }
      }
    });

    it('answers QE when no system is given, and nothing for a system without menus', async () => {
      const res = await call('GET', '/v1/menu-actions/actions/tree');
      expect(res.body.data).toEqual(await tree());
      expect(await tree('OTHER')).toEqual([]);
    });
  });

  describe('GET /v1/menus/actions/inquire', () => {
    it('answers one menu by menuId', async () => {
      const form = await menuOf('form');
      const res = await call('GET', `/v1/menus/actions/inquire?menuId=${form.menuId}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ code: 200, data: { menuId: form.menuId, code: 'form', system: 'QE', name: '問卷設計', sort: form.sort, roleCount: form.roleCount } });
    });

    it('answers 404 for a menu that does not exist and 422 without a menuId', async () => {
      const missing = await call('GET', '/v1/menus/actions/inquire?menuId=999999');
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({ code: 404, msg: errorText('RECORD_NOT_FOUND', 'zh-hk') });
      const none = await call('GET', '/v1/menus/actions/inquire');
      expect(none.status).toBe(422);
      expect(none.body.data).toHaveProperty('menuId');
    });
  });

  describe('POST /v1/menus/actions/create and edit', () => {
    it('creates a menu from code, system, name and sort, which the tree then lists by its sort', async () => {
      const res = await call('POST', '/v1/menus/actions/create', { code: 'archive', system: 'QE', name: '封存', sort: 15 });
      expect(res.body).toMatchObject({ code: 201, data: { menuId: expect.any(Number) } });
      const { menuId } = res.body.data;
      const inquired = await call('GET', `/v1/menus/actions/inquire?menuId=${menuId}`);
      expect(inquired.body.data).toMatchObject({ menuId, code: 'archive', system: 'QE', name: '封存', sort: 15, roleCount: 0 });
      const codes = (await tree()).map((m) => m.code);
      expect(codes.slice(0, 3)).toEqual(['form', 'archive', 'form-template']);
      expect((await tree()).find((m) => m.code === 'archive')!.actions).toEqual([]);
    });

    it('refuses a code already used in the system with 707, in zh-hk and en', async () => {
      const zh = await call('POST', '/v1/menus/actions/create', { code: 'form', system: 'QE', name: '重複', sort: 1 });
      expect(zh.status).toBe(409);
      expect(zh.body).toEqual({ code: 707, msg: errorText('DUPLICATE', 'zh-hk', { field: 'code', value: 'form' }), data: null });
      const en = await call('POST', '/v1/menus/actions/create', { code: 'form', system: 'QE', name: 'Again', sort: 1 }, tokens.SUPER_ADMIN, 'en');
      expect(en.body).toMatchObject({ code: 707, msg: errorText('DUPLICATE', 'en', { field: 'code', value: 'form' }) });
      expect((await tree()).filter((m) => m.code === 'form')).toHaveLength(1);
    });

    it('accepts the same code in another system', async () => {
      const res = await call('POST', '/v1/menus/actions/create', { code: 'form', system: 'OTHER', name: '其他系統', sort: 1 });
      expect(res.body.code).toBe(201);
      expect((await tree('OTHER')).map((m) => m.code)).toEqual(['form']);
    });

    it('refuses a payload without its fields or with others with 422', async () => {
      expect((await call('POST', '/v1/menus/actions/create', { code: 'x1', system: 'QE', sort: 1 })).body.data).toHaveProperty('name');
      expect((await call('POST', '/v1/menus/actions/create', { code: 'x1', name: 'x', sort: 1 })).body.data).toHaveProperty('system');
      expect((await call('POST', '/v1/menus/actions/create', { code: 'x 1', system: 'QE', name: 'x', sort: 1 })).status).toBe(422);
      expect((await call('POST', '/v1/menus/actions/create', { code: 'x1', system: 'QE', name: 'x', sort: 1, menuCode: 'x' })).status).toBe(422);
    });

    it('edits a menu from code, menuId, name and sort', async () => {
      const { menuId } = (await call('POST', '/v1/menus/actions/create', { code: 'reports', system: 'QE', name: '報表', sort: 950 })).body.data;
      const res = await call('POST', '/v1/menus/actions/edit', { code: 'reports-2', menuId, name: '報表二', sort: 1 });
      expect(res.body.code).toBe(200);
      expect((await call('GET', `/v1/menus/actions/inquire?menuId=${menuId}`)).body.data).toMatchObject({ menuId, code: 'reports-2', name: '報表二', sort: 1 });
      expect((await tree())[0].code).toBe('reports-2');
      await call('POST', '/v1/menus/actions/edit', { code: 'reports-2', menuId, name: '報表二', sort: 960 });
    });

    it('refuses on edit a code another menu of the system uses (707), and a menu that does not exist (404)', async () => {
      const { menuId } = (await call('POST', '/v1/menus/actions/create', { code: 'notes', system: 'QE', name: '筆記', sort: 970 })).body.data;
      const dup = await call('POST', '/v1/menus/actions/edit', { code: 'role', menuId, name: '筆記', sort: 970 });
      expect(dup.status).toBe(409);
      expect(dup.body.code).toBe(707);
      expect((await call('GET', `/v1/menus/actions/inquire?menuId=${menuId}`)).body.data.code).toBe('notes');
      expect((await call('POST', '/v1/menus/actions/edit', { code: 'notes', menuId: 999999, name: 'x', sort: 1 })).body.code).toBe(404);
    });
  });

  describe('POST /v1/menus/actions/update-sort', () => {
    it('saves the order of the menus, which the tree follows', async () => {
      const before = await tree();
      const reversed = [...before].reverse().map((m, i) => ({ menuId: m.menuId, sort: (i + 1) * 10 }));
      const res = await call('POST', '/v1/menus/actions/update-sort', { menus: reversed });
      expect(res.body.code).toBe(200);
      const after = await tree();
      expect(after.map((m) => m.menuId)).toEqual(reversed.map((m) => m.menuId));
      expect(after.map((m) => m.code)).toEqual(before.map((m) => m.code).reverse());

      const restore = await call('POST', '/v1/menus/actions/update-sort', { menus: before.map((m) => ({ menuId: m.menuId, sort: m.sort })) });
      expect(restore.body.code).toBe(200);
      expect((await tree()).map((m) => m.menuId)).toEqual(before.map((m) => m.menuId));
    });

    it('refuses menus without a sort with 422', async () => {
      const form = await menuOf('form');
      const res = await call('POST', '/v1/menus/actions/update-sort', { menus: [{ menuId: form.menuId }] });
      expect(res.status).toBe(422);
      expect((await menuOf('form')).sort).toBe(form.sort);
    });
  });

  describe('actions', () => {
    it('creates an action from code, group, menuId, name and sort; inquire answers it by actionId', async () => {
      const { menuId } = (await call('POST', '/v1/menus/actions/create', { code: 'library', system: 'QE', name: '圖書館', sort: 980 })).body.data;
      const created = await call('POST', '/v1/actions/actions/create', { code: 'export', group: 203, menuId, name: '匯出', sort: 6 });
      expect(created.body).toMatchObject({ code: 201, data: { actionId: expect.any(Number) } });
      const { actionId } = created.body.data;
      const res = await call('GET', `/v1/actions/actions/inquire?actionId=${actionId}`);
      expect(res.body).toMatchObject({ code: 200, data: { actionId, menuId, code: 'export', group: 203, name: '匯出', sort: 6 } });
      await call('POST', '/v1/actions/actions/create', { code: 'view', group: 201, menuId, name: '查看', sort: 0 });
      expect((await menuOf('library')).actions.map((a) => a.code)).toEqual(['view', 'export']);
    });

    it.each([200, 207, 0])('refuses group %s, outside 201–206, with 422', async (group) => {
      const { menuId } = await menuOf('help');
      const res = await call('POST', '/v1/actions/actions/create', { code: 'print', group, menuId, name: '列印', sort: 1 });
      expect(res.status).toBe(422);
      expect(res.body.data).toHaveProperty('group');
      expect((await menuOf('help')).actions.map((a) => a.code)).toEqual(['view']);
    });

    it('refuses a code the menu already has (707) and a menu that does not exist (404)', async () => {
      const { menuId } = await menuOf('help');
      const dup = await call('POST', '/v1/actions/actions/create', { code: 'view', group: 201, menuId, name: '查看', sort: 1 });
      expect(dup.status).toBe(409);
      expect(dup.body.code).toBe(707);
      expect((await call('POST', '/v1/actions/actions/create', { code: 'view', group: 201, menuId: 999999, name: '查看', sort: 1 })).body.code).toBe(404);
      expect((await call('GET', '/v1/actions/actions/inquire?actionId=999999')).body.code).toBe(404);
    });

    it('edits an action from code, group, actionId, name and sort', async () => {
      const { menuId, actionId } = await newMenu('lab');
      const res = await call('POST', '/v1/actions/actions/edit', { code: 'approve', group: 205, actionId, name: '審批', sort: 3 });
      expect(res.body.code).toBe(200);
      expect((await call('GET', `/v1/actions/actions/inquire?actionId=${actionId}`)).body.data).toMatchObject({ actionId, menuId, code: 'approve', group: 205, name: '審批', sort: 3 });
      expect((await call('POST', '/v1/actions/actions/edit', { code: 'approve', group: 207, actionId, name: '審批', sort: 3 })).status).toBe(422);
      expect((await call('POST', '/v1/actions/actions/edit', { code: 'approve', group: 205, actionId: 999999, name: '審批', sort: 3 })).body.code).toBe(404);
      await call('POST', '/v1/actions/actions/create', { code: 'view', group: 201, menuId, name: '查看', sort: 0 });
      const dup = await call('POST', '/v1/actions/actions/edit', { code: 'view', group: 201, actionId, name: '查看', sort: 3 });
      expect(dup.body.code).toBe(707);
    });

    it('deletes an action by actionId; the roles holding it lose it, and their users on the next request', async () => {
      const { actionId } = await newMenu('gallery');
      const teacher = await roleId('TEACHER');
      const held = await roleActions(teacher);
      expect((await call('POST', '/v1/roles/actions/select-action', { actions: [...held, actionId], roleId: teacher, system: 'QE' })).body.code).toBe(200);
      expect(await actionList(tokens.TEACHER)).toContain('gallery.view');
      expect((await menuOf('gallery')).roleCount).toBe(1);

      const res = await call('POST', '/v1/actions/actions/delete', { actionId });
      expect(res.body.code).toBe(200);
      expect((await call('GET', `/v1/actions/actions/inquire?actionId=${actionId}`)).body.code).toBe(404);
      expect((await menuOf('gallery')).actions).toEqual([]);
      expect((await menuOf('gallery')).roleCount).toBe(0);
      expect((await roleActions(teacher)).sort()).toEqual([...held].sort());
      expect(await actionList(tokens.TEACHER)).not.toContain('gallery.view');
      expect((await call('POST', '/v1/actions/actions/delete', { actionId })).body.code).toBe(404);
    });
  });

  describe('POST /v1/menus/actions/delete', () => {
    it('deletes a menu with its actions; the roles lose them and a teacher\u2019s permissions change on the next request', async () => {
      const { menuId, actionId } = await newMenu('timetable');
      const add = (await call('POST', '/v1/actions/actions/create', { code: 'add', group: 202, menuId, name: '新增', sort: 2 })).body.data.actionId;
      const teacher = await roleId('TEACHER');
      const admin = await roleId('ADMIN');
      const teacherHeld = await roleActions(teacher);
      await call('POST', '/v1/roles/actions/select-action', { actions: [...teacherHeld, actionId, add], roleId: teacher, system: 'QE' });
      await call('POST', '/v1/roles/actions/select-action', { actions: [...(await roleActions(admin)), actionId], roleId: admin, system: 'QE' });
      expect((await call('GET', `/v1/menus/actions/inquire?menuId=${menuId}`)).body.data.roleCount).toBe(2);
      expect(await actionList(tokens.TEACHER)).toEqual(expect.arrayContaining(['timetable.view', 'timetable.add']));
      expect(await actionList(tokens.ADMIN)).toContain('timetable.view');

      const res = await call('POST', '/v1/menus/actions/delete', { menuId });
      expect(res.body).toMatchObject({ code: 200 });
      expect((await tree()).some((m) => m.code === 'timetable')).toBe(false);
      expect((await call('GET', `/v1/menus/actions/inquire?menuId=${menuId}`)).body.code).toBe(404);
      for (const id of [actionId, add]) expect((await call('GET', `/v1/actions/actions/inquire?actionId=${id}`)).body.code).toBe(404);
      expect(await t.db.selectFrom('actions').select('id').where('menu_id', '=', menuId).execute()).toEqual([]);
      expect(await t.db.selectFrom('role_actions').select('role_id').where('action_id', 'in', [actionId, add]).execute()).toEqual([]);
      expect((await roleActions(teacher)).sort()).toEqual([...teacherHeld].sort());
      const teacherCodes = await actionList(tokens.TEACHER);
      expect(teacherCodes.some((c) => c.startsWith('timetable.'))).toBe(false);
      expect(teacherCodes).toEqual(DEFAULT_GRANTS.TEACHER);
      expect(await actionList(tokens.ADMIN)).toEqual(DEFAULT_GRANTS.ADMIN);
    });

    it('answers 404 for a menu that does not exist', async () => {
      const res = await call('POST', '/v1/menus/actions/delete', { menuId: 999999 });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe(404);
    });
  });

  describe('who may call', () => {
    const calls: [string, 'GET' | 'POST', string, object?][] = [
      ['tree', 'GET', '/v1/menu-actions/actions/tree?system=QE'],
      ['menu inquire', 'GET', '/v1/menus/actions/inquire?menuId=1'],
      ['menu create', 'POST', '/v1/menus/actions/create', { code: 'sneaky', system: 'QE', name: 'x', sort: 1 }],
      ['menu edit', 'POST', '/v1/menus/actions/edit', { code: 'sneaky', menuId: 1, name: 'x', sort: 1 }],
      ['menu delete', 'POST', '/v1/menus/actions/delete', { menuId: 1 }],
      ['update-sort', 'POST', '/v1/menus/actions/update-sort', { menus: [{ menuId: 1, sort: 99999 }] }],
      ['action inquire', 'GET', '/v1/actions/actions/inquire?actionId=1'],
      ['action create', 'POST', '/v1/actions/actions/create', { code: 'sneaky', group: 201, menuId: 1, name: 'x', sort: 1 }],
      ['action edit', 'POST', '/v1/actions/actions/edit', { code: 'sneaky', group: 201, actionId: 1, name: 'x', sort: 1 }],
      ['action delete', 'POST', '/v1/actions/actions/delete', { actionId: 1 }],
    ];

    describe.each(['ADMIN', 'TEACHER', 'STUDENT'] as const)('a %s', (type) => {
      it.each(calls)('is refused the %s call with HTTP 403 and code 405, and nothing changes', async (_, method, url, payload) => {
        const before = await tree();
        const res = await call(method, url, payload, tokens[type]);
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ code: 405, msg: errorText('PERMISSION_DENIED', 'zh-hk'), data: null });
        expect(await tree()).toEqual(before);
      });
    });

    it('answers 401 without a token', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/v1/menu-actions/actions/tree?system=QE' });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe(401);
    });
  });

  describe('the own-access guard', () => {
    async function expectOwnAccess(payload: object, url: string) {
      const zh = await call('POST', url, payload);
      expect(zh.status).toBe(409);
      expect(zh.body).toEqual({ code: 709, msg: errorText('OWN_DEVELOPER_ACCESS', 'zh-hk'), data: null });
      const en = await call('POST', url, payload, tokens.SUPER_ADMIN, 'en');
      expect(en.body).toEqual({ code: 709, msg: errorText('OWN_DEVELOPER_ACCESS', 'en'), data: null });
    }

    it('refuses a super administrator deleting the role menu with 709, in zh-hk and en', async () => {
      const role = await menuOf('role');
      await expectOwnAccess({ menuId: role.menuId }, '/v1/menus/actions/delete');
      expect(await menuOf('role')).toEqual(role);
      expect(await actionList(tokens.SUPER_ADMIN)).toEqual(expect.arrayContaining(['role.view', 'role.edit']));
    });

    it.each(['view', 'edit'])('refuses deleting the role.%s action with 709', async (code) => {
      const role = await menuOf('role');
      const action = role.actions.find((a) => a.code === code)!;
      await expectOwnAccess({ actionId: action.actionId }, '/v1/actions/actions/delete');
      expect((await call('GET', `/v1/actions/actions/inquire?actionId=${action.actionId}`)).body.data.code).toBe(code);
    });

    it('refuses renaming the role menu or its view and edit actions, which takes them away as surely (709)', async () => {
      const role = await menuOf('role');
      await expectOwnAccess({ code: 'roles', menuId: role.menuId, name: role.name, sort: role.sort }, '/v1/menus/actions/edit');
      for (const code of ['view', 'edit']) {
        const a = role.actions.find((x) => x.code === code)!;
        await expectOwnAccess({ code: `${code}-old`, group: a.group, actionId: a.actionId, name: a.name, sort: a.sort }, '/v1/actions/actions/edit');
      }
      expect(await menuOf('role')).toEqual(role);
      // a change that keeps the codes is fine
      expect((await call('POST', '/v1/menus/actions/edit', { code: 'role', menuId: role.menuId, name: '角色管理', sort: role.sort })).body.code).toBe(200);
      expect((await menuOf('role')).name).toBe('角色管理');
    });

    it('lets the role menu lose its other actions', async () => {
      const role = await menuOf('role');
      const del = role.actions.find((a) => a.code === 'delete')!;
      expect((await call('POST', '/v1/actions/actions/delete', { actionId: del.actionId })).body.code).toBe(200);
      expect((await menuOf('role')).actions.map((a) => a.code)).not.toContain('delete');
    });
  });
});
