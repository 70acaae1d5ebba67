import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateTo, migrateToLatest } from '../../../src/server/db/migrate.js';
import { seedPermissionModel } from '../../../src/server/developer/seed.js';
import { errorText } from '../../../src/shared/errors.js';
import { PAGES } from '../../../src/shared/permissions.js';
import { bearer, login, testApp, type TestApp } from '../harness.js';
import { multipart } from '../master/helpers.js';

// Known defects, since fixed, in the permission model: the role a new account gets is chosen
// explicitly (renaming a default role changes nothing, it cannot be deleted or moved away), and a
// menu or action a super administrator deleted stays deleted when QE starts again, while codes
// new to an upgrade are still seeded.

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

describe('the role new accounts get', () => {
  let t: TestApp;
  let tk: string;
  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    tk = (await login(t.app, 'superadmin')).tk;
  });
  afterAll(async () => t?.close());

  async function call(method: Method, url: string, payload?: object, lang = 'en') {
    const res = await t.app.inject({ method, url, payload, headers: { ...bearer(tk), 'accept-language': lang } });
    return { status: res.statusCode, body: res.json() };
  }
  const roleOf = async (code: string) => (await call('GET', '/v1/roles')).body.data.list.find((r: { roleCode: string }) => r.roleCode === code);
  const rolesOfUser = async (username: string) => {
    const { id } = await t.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow();
    return (await call('GET', `/v1/users/${id}/roles`)).body.data.roleIds as number[];
  };
  const newTeacher = (n: number) => call('POST', '/v1/teachers', { code: `T9${n}`, username: `newteacher${n}`, password: 'abc12345', nameHk: `新老師${n}`, nameEn: `New teacher ${n}` });

  it('marks each default role as the one its user type gets', async () => {
    const list = (await call('GET', '/v1/roles')).body.data.list;
    expect(list.map((r: { roleCode: string; isDefault: boolean }) => [r.roleCode, r.isDefault])).toEqual([['SUPER_ADMIN', true], ['ADMIN', true], ['TEACHER', true], ['STUDENT', true]]);
  });

  it('gives a new teacher the TEACHER role after it was renamed (code and names)', async () => {
    const teacher = await roleOf('TEACHER');
    const renamed = await call('PUT', `/v1/roles/${teacher.id}`, { roleCode: 'STAFF', nameHk: '教職員', nameEn: 'Staff' });
    expect(renamed.body).toMatchObject({ code: 200, data: { roleCode: 'STAFF', isDefault: true } });
    expect((await newTeacher(1)).body.code).toBe(201);
    expect(await rolesOfUser('newteacher1')).toEqual([teacher.id]);
  });

  it('refuses to delete the role new accounts get, with a message saying what to do (741), in both languages', async () => {
    const teacher = await roleOf('STAFF');
    const en = await call('DELETE', `/v1/roles/${teacher.id}`);
    expect(en.status).toBe(409);
    expect(en.body).toEqual({ code: 741, msg: errorText('DEFAULT_ROLE_NEEDED', 'en'), data: null });
    const zh = await call('DELETE', `/v1/roles/${teacher.id}`, undefined, 'zh-HK');
    expect(zh.body).toEqual({ code: 741, msg: errorText('DEFAULT_ROLE_NEEDED', 'zh-hk'), data: null });
    expect(await roleOf('STAFF')).toMatchObject({ id: teacher.id, isDefault: true });
  });

  it('refuses to move it to another user type or to unchoose it without choosing another (741)', async () => {
    const teacher = await roleOf('STAFF');
    expect((await call('PUT', `/v1/roles/${teacher.id}`, { userType: 'STUDENT' })).body).toEqual({ code: 741, msg: errorText('DEFAULT_ROLE_NEEDED', 'en'), data: null });
    expect((await call('PUT', `/v1/roles/${teacher.id}`, { isDefault: false })).body.code).toBe(741);
    expect(await roleOf('STAFF')).toMatchObject({ userType: 'TEACHER', isDefault: true });
  });

  it('lets another role of the type be chosen: new accounts get it, and the former one may then go', async () => {
    const former = await roleOf('STAFF');
    const created = await call('POST', '/v1/roles', { userType: 'TEACHER', roleCode: 'NEW_STAFF', nameHk: '新教職員', nameEn: 'New staff', isDefault: true });
    expect(created.body).toMatchObject({ code: 201, data: { roleCode: 'NEW_STAFF', isDefault: true } });
    expect(await roleOf('STAFF')).toMatchObject({ isDefault: false });
    expect((await newTeacher(2)).body.code).toBe(201);
    expect(await rolesOfUser('newteacher2')).toEqual([created.body.data.id]);

    // back again through an edit, then the new one may be deleted
    expect((await call('PUT', `/v1/roles/${former.id}`, { isDefault: true })).body.data.isDefault).toBe(true);
    expect(await roleOf('NEW_STAFF')).toMatchObject({ isDefault: false });
    expect((await call('DELETE', `/v1/roles/${created.body.data.id}`)).body.code).toBe(200);
    expect((await newTeacher(3)).body.code).toBe(201);
    expect(await rolesOfUser('newteacher3')).toEqual([former.id]);
  });

  it('gives imported accounts the chosen role too, and refuses the whole import (740) when none is chosen', async () => {
    const template = await t.app.inject({ method: 'GET', url: '/v1/admins/import-template', headers: { ...bearer(tk), 'accept-language': 'en' } });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(template.rawPayload as unknown as ArrayBuffer);
    const headers = (book.worksheets[0].getRow(1).values as unknown[]).slice(1);
    const file = async (n: number) => {
      const out = new ExcelJS.Workbook();
      const sheet = out.addWorksheet('admins');
      sheet.addRow(headers);
      sheet.addRow([`A9${n}`, `newadmin${n}`, 'abc12345', `新管理員${n}`, `New admin ${n}`, ...headers.slice(5).map(() => null)]);
      return Buffer.from(await out.xlsx.writeBuffer());
    };
    const upload = async (content: Buffer) => {
      const { payload, headers: h } = multipart('admins.xlsx', content);
      return t.app.inject({ method: 'POST', url: '/v1/admins/import', payload, headers: { ...h, ...bearer(tk), 'accept-language': 'en' } });
    };
    const office = await call('POST', '/v1/roles', { userType: 'ADMIN', roleCode: 'OFFICE', nameHk: '校務處', nameEn: 'Office', isDefault: true });
    expect(office.body.code).toBe(201);
    const imported = await upload(await file(1));
    expect(imported.json().code, imported.body).toBe(200);
    expect(await rolesOfUser('newadmin1')).toEqual([office.body.data.id]);

    await t.db.updateTable('roles').set({ is_default: 0 }).where('user_type', '=', 'ADMIN').execute();
    try {
      const refused = await upload(await file(2));
      expect(refused.json()).toEqual({ code: 740, msg: errorText('NO_DEFAULT_ROLE', 'en', { userType: 'ADMIN' }), data: null });
      expect(await t.db.selectFrom('users').select('id').where('username', '=', 'newadmin2').executeTakeFirst()).toBeUndefined();
    } finally {
      await t.db.updateTable('roles').set({ is_default: 1 }).where('role_code', '=', 'OFFICE').execute();
    }
  });

  it('refuses a new account (740, nothing written) rather than leave it without a role when no role is chosen', async () => {
    await t.db.updateTable('roles').set({ is_default: 0 }).where('user_type', '=', 'TEACHER').execute();
    try {
      const res = await newTeacher(4);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ code: 740, msg: errorText('NO_DEFAULT_ROLE', 'en', { userType: 'TEACHER' }), data: null });
      expect(await t.db.selectFrom('users').select('id').where('username', '=', 'newteacher4').executeTakeFirst()).toBeUndefined();
    } finally {
      await t.db.updateTable('roles').set({ is_default: 1 }).where('role_code', '=', 'STAFF').execute();
    }
  });
});

describe('seeding menus and actions at every start', () => {
  let t: TestApp;
  let tk: string;
  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    tk = (await login(t.app, 'superadmin')).tk;
  });
  afterAll(async () => t?.close());

  const call = async (url: string, payload: object) => (await t.app.inject({ method: 'POST', url, payload, headers: bearer(tk) })).json();
  const tree = async (): Promise<{ menuId: number; code: string; actions: { actionId: number; code: string }[] }[]> =>
    (await t.app.inject({ method: 'GET', url: '/v1/menu-actions/actions/tree?system=QE', headers: bearer(tk) })).json().data;

  it('keeps a deleted menu and a deleted action deleted when QE starts again', async () => {
    const menus = await tree();
    const help = menus.find((m) => m.code === 'help')!;
    const print = menus.find((m) => m.code === 'data-statistics')!.actions.find((a) => a.code === 'print')!;
    expect((await call('/v1/menus/actions/delete', { menuId: help.menuId })).code).toBe(200);
    expect((await call('/v1/actions/actions/delete', { actionId: print.actionId })).code).toBe(200);

    await seedPermissionModel(t.db);
    await seedPermissionModel(t.db);
    const after = await tree();
    expect(after.map((m) => m.code)).toEqual(PAGES.map((p) => p.code).filter((c) => c !== 'help'));
    expect(after.find((m) => m.code === 'data-statistics')!.actions.map((a) => a.code).sort()).toEqual(['export', 'management', 'view']);
  });

  it('still seeds a page or an action an upgrade brings (a code never seeded before)', async () => {
    // as if `position.export` and the page `teacher-group` were new in this version
    const group = (await tree()).find((m) => m.code === 'teacher-group')!;
    const exportAction = (await tree()).find((m) => m.code === 'position')!.actions.find((a) => a.code === 'export')!;
    await t.db.deleteFrom('actions').where('id', '=', exportAction.actionId).execute();
    await t.db.deleteFrom('menus').where('id', '=', group.menuId).execute();
    await t.db.deleteFrom('seeded_codes').where('code', 'in', ['position.export', 'teacher-group', ...PAGES.find((p) => p.code === 'teacher-group')!.actions.map((a) => `teacher-group.${a}`)]).execute();

    await seedPermissionModel(t.db);
    const after = await tree();
    expect(after.find((m) => m.code === 'teacher-group')!.actions.map((a) => a.code).sort()).toEqual([...PAGES.find((p) => p.code === 'teacher-group')!.actions].sort());
    expect(after.find((m) => m.code === 'position')!.actions.map((a) => a.code)).toContain('export');
    // and the deletions of the test before still stick
    expect(after.map((m) => m.code)).not.toContain('help');
  });
});

describe('migration 0014 on an install from before it', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
  });
  afterAll(async () => t?.close());

  it('marks the default roles by their code and counts what exists as seeded, but not what was deleted before', async () => {
    await migrateTo(t.db, '0010_class_numbers');
    // deleted under the old version: the first start after the upgrade re-adds it once (as the old version did)
    await t.db.deleteFrom('menus').where('code', '=', 'help').execute();
    await t.db.updateTable('roles').set({ role_code: 'OLD_ADMIN' }).where('role_code', '=', 'ADMIN').execute();
    await migrateToLatest(t.db);

    const roles = await t.db.selectFrom('roles').select(['role_code', 'is_default']).orderBy('id').execute();
    expect(roles.map((r) => [r.role_code, Number(r.is_default)])).toEqual([['SUPER_ADMIN', 1], ['OLD_ADMIN', 0], ['TEACHER', 1], ['STUDENT', 1]]);
    const seeded = new Set((await t.db.selectFrom('seeded_codes').select('code').execute()).map((r) => r.code));
    expect(seeded.has('form')).toBe(true);
    expect(seeded.has('form.management')).toBe(true);
    expect(seeded.has('help')).toBe(false);

    await seedPermissionModel(t.db);
    expect(await t.db.selectFrom('menus').select('id').where('code', '=', 'help').executeTakeFirst()).toBeDefined();
  });
});
