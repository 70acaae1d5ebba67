import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { errorText } from '../../src/shared/errors.js';
import { PAGES, hasPermission, permissionCodes, type PermissionEntry, type UserType } from '../../src/shared/permissions.js';
import { buildApp } from '../../src/server/app.js';
import { testConfig } from '../support/config.js';
import { createTestDatabase } from '../support/database.js';
import { DEFAULT_GRANTS } from '../support/default-grants.js';
import { bearer, login, testApp, type TestApp } from './harness.js';

/** A demo account of each user type. */
const ACCOUNTS: Record<UserType, string> = { SUPER_ADMIN: 'superadmin', ADMIN: 'admin', TEACHER: 'teacher01', STUDENT: 'student001' };
const MASTER_DATA_PAGES = ['school-year', 'grades', 'admin', 'teacher', 'student', 'mail', 'position', 'teacher-group'];
/** A read call guarded by each permission: a holder of the grant is answered, anyone else refused. */
const SAMPLE_CALLS: [permission: string, url: string][] = [
  ['form.view', '/v1/questionnaires'],
  ['form-input.view', '/v1/my/questionnaires'],
  ['data-statistics.view', '/v1/statistics'],
  ['school-year.view', '/v1/school-years'],
  ['grades.view', '/v1/grade-classes'],
  ['admin.view', '/v1/admins'],
  ['teacher.view', '/v1/teachers'],
  ['student.view', '/v1/students'],
  ['mail.view', '/v1/mail-settings'],
  ['position.view', '/v1/positions'],
  ['teacher-group.view', '/v1/teacher-groups'],
  ['menu.view', '/v1/menu-actions/actions/tree?system=QE'],
  ['role.view', '/v1/roles'],
  ['school.view', '/v1/school'],
  ['personal-data.personal', '/v1/my/personal-data'],
  ['personal-data.approve', '/v1/personal-data-requests'],
  ['backup.view', '/v1/backups'],
];

describe('permissions', () => {
  let t: TestApp;
  const tokens = {} as Record<UserType, string>;
  beforeAll(async () => {
    t = await testApp({ demo: true });
    for (const [type, username] of Object.entries(ACCOUNTS)) tokens[type as UserType] = (await login(t.app, username)).tk;
  });
  afterAll(async () => t?.close());

  const get = (url: string, tk: string) => t.app.inject({ method: 'GET', url, headers: bearer(tk) });
  const actionList = async (tk: string): Promise<string[]> => (await get('/v1/my/action-list', tk)).json().data;
  const permissionList = async (tk: string): Promise<PermissionEntry[]> => (await get('/v1/my/permissions', tk)).json().data;
  const roleId = async (code: string) => (await t.db.selectFrom('roles').select('id').where('role_code', '=', code).executeTakeFirstOrThrow()).id;

  describe.each(Object.keys(ACCOUNTS) as UserType[])('a %s', (type) => {
    it("holds exactly the default role's codes in /v1/my/action-list, sorted", async () => {
      const res = await get('/v1/my/action-list', tokens[type]);
      expect(res.json().code).toBe(200);
      expect(res.json().data).toEqual(DEFAULT_GRANTS[type]);
    });

    it.each(SAMPLE_CALLS)('is answered or refused by a call that needs %s (%s) as the default grants say', async (permission, url) => {
      const res = await get(url, tokens[type]);
      if (DEFAULT_GRANTS[type].includes(permission)) {
        expect(res.statusCode, url).toBe(200);
        expect(res.json().code, url).toBe(200);
      } else {
        expect(res.statusCode, url).toBe(403);
        expect(res.json(), url).toEqual({ code: 405, msg: errorText('PERMISSION_DENIED', 'zh-hk'), data: null });
      }
    });

    it('gets every page with its actions in /v1/my/permissions, marked as the default role holds them', async () => {
      const entries = await permissionList(tokens[type]);
      expect(entries.map((e) => e.code)).toEqual(PAGES.map((p) => p.code));
      for (const page of PAGES) {
        const e = entries.find((x) => x.code === page.code)!;
        expect(e.actions.map((a) => a.code).sort(), page.code).toEqual([...page.actions].sort());
        expect(e.permission_content, page.code).toBe('1'.repeat(page.actions.length));
        expect(e.permission_selection, page.code).toMatch(new RegExp(`^[01]{${page.actions.length}}$`));
        expect(e.permission_mark_cn.split(','), page.code).toHaveLength(page.actions.length);
        expect(e.permission_mark_en.split(','), page.code).toHaveLength(page.actions.length);
      }
      expect(permissionCodes(entries).sort()).toEqual(DEFAULT_GRANTS[type]);
    });

    it('gets the same list inside /v1/my/user-info', async () => {
      const info = (await get('/v1/my/user-info', tokens[type])).json().data;
      expect(info.permissions).toEqual(await permissionList(tokens[type]));
    });
  });

  it('lets an admin see the master-data pages but not the developer menus', async () => {
    const entries = await permissionList(tokens.ADMIN);
    for (const page of MASTER_DATA_PAGES) expect(hasPermission(entries, `${page}.view`), page).toBe(true);
    expect(hasPermission(entries, 'menu.view')).toBe(false);
    expect(hasPermission(entries, 'role.view')).toBe(true);
  });

  it('lets a student fill in questionnaires only: no design, statistics or master data', async () => {
    const entries = await permissionList(tokens.STUDENT);
    expect(hasPermission(entries, 'form-input.view')).toBe(true);
    for (const code of ['form.view', 'data-statistics.view', 'role.view', 'menu.view', ...MASTER_DATA_PAGES.map((p) => `${p}.view`)]) {
      expect(hasPermission(entries, code), code).toBe(false);
    }
  });

  it('lets a teacher design questionnaires and read statistics, but not manage master data', async () => {
    const entries = await permissionList(tokens.TEACHER);
    for (const code of ['form.view', 'form.add', 'form-input.view', 'data-statistics.view']) expect(hasPermission(entries, code), code).toBe(true);
    for (const page of MASTER_DATA_PAGES) expect(hasPermission(entries, `${page}.view`), page).toBe(false);
  });

  it('refuses a system other than QE with 422', async () => {
    const res = await get('/v1/my/permissions?system=OTHER', tokens.ADMIN);
    expect(res.statusCode).toBe(422);
  });

  describe('GET /ed/roles/:role_id/permissions', () => {
    it.each(['TEACHER', 'STUDENT'] as const)('refuses a %s with HTTP 403 and code 405', async (type) => {
      const res = await get(`/ed/roles/${await roleId('ADMIN')}/permissions`, tokens[type]);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ code: 405, msg: errorText('PERMISSION_DENIED', 'zh-hk'), data: null });
      const en = await t.app.inject({ method: 'GET', url: `/ed/roles/${await roleId('ADMIN')}/permissions`, headers: { ...bearer(tokens[type]), 'accept-language': 'en' } });
      expect(en.json().msg).toBe(errorText('PERMISSION_DENIED', 'en'));
    });

    it('answers 401 without a token', async () => {
      const res = await t.app.inject({ method: 'GET', url: `/ed/roles/${await roleId('ADMIN')}/permissions` });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe(401);
    });

    it.each(Object.keys(ACCOUNTS) as UserType[])("answers the super administrator the %s role's permission list", async (type) => {
      const res = await get(`/ed/roles/${await roleId(type)}/permissions?independent_system=1&web_code=QE`, tokens.SUPER_ADMIN);
      expect(res.statusCode).toBe(200);
      const entries: PermissionEntry[] = res.json().data;
      expect(entries.map((e) => e.code)).toEqual(PAGES.map((p) => p.code));
      expect(permissionCodes(entries).sort()).toEqual(DEFAULT_GRANTS[type]);
    });

    it('answers an admin too, who holds role.view', async () => {
      expect((await get(`/ed/roles/${await roleId('STUDENT')}/permissions`, tokens.ADMIN)).json().code).toBe(200);
    });

    it('answers 404 for a role that does not exist', async () => {
      const res = await get('/ed/roles/999999/permissions', tokens.SUPER_ADMIN);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 404, msg: errorText('RECORD_NOT_FOUND', 'zh-hk') });
    });

    it('answers 422 for a role id that is not a number', async () => {
      expect((await get('/ed/roles/abc/permissions', tokens.SUPER_ADMIN)).statusCode).toBe(422);
    });
  });

  describe('a change to roles', () => {
    it('applies on the very next request with the same token when a role is given and taken away', async () => {
      const { tk, userId } = await login(t.app, 'student010');
      const url = `/ed/roles/${await roleId('TEACHER')}/permissions`;
      expect((await get(url, tk)).json().code).toBe(405);

      const { id: auditor } = await t.db
        .insertInto('roles')
        .values({ system: 'QE', user_type: 'STUDENT', role_code: 'AUDITOR', name_hk: '審查', name_en: 'Auditor', remark: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      const roleView = await t.db
        .selectFrom('actions as a')
        .innerJoin('menus as m', 'm.id', 'a.menu_id')
        .where('m.code', '=', 'role')
        .where('a.code', '=', 'view')
        .select('a.id')
        .executeTakeFirstOrThrow();
      await t.db.insertInto('role_actions').values({ role_id: auditor, action_id: roleView.id }).execute();
      await t.db.insertInto('user_roles').values({ user_id: userId, role_id: auditor }).execute();

      expect((await get(url, tk)).json().code).toBe(200);
      expect(await actionList(tk)).toEqual(['form-input.view', 'help.view', 'role.view']);
      expect(hasPermission(await permissionList(tk), 'role.view')).toBe(true);

      await t.db.deleteFrom('user_roles').where('user_id', '=', userId).where('role_id', '=', auditor).execute();
      expect((await get(url, tk)).json().code).toBe(405);
      expect(await actionList(tk)).toEqual(DEFAULT_GRANTS.STUDENT);
    });

    it("applies at once to every holder of a role when the role's actions change", async () => {
      const { tk } = await login(t.app, 'teacher02');
      const helpView = await t.db
        .selectFrom('actions as a')
        .innerJoin('menus as m', 'm.id', 'a.menu_id')
        .where('m.code', '=', 'help')
        .where('a.code', '=', 'view')
        .select('a.id')
        .executeTakeFirstOrThrow();
      const teacher = await roleId('TEACHER');
      await t.db.deleteFrom('role_actions').where('role_id', '=', teacher).where('action_id', '=', helpView.id).execute();
      try {
        expect(await actionList(tk)).not.toContain('help.view');
        expect(await actionList(tokens.STUDENT)).toContain('help.view');
        const teacherRole: PermissionEntry[] = (await get(`/ed/roles/${teacher}/permissions`, tokens.SUPER_ADMIN)).json().data;
        expect(hasPermission(teacherRole, 'help.view')).toBe(false);
      } finally {
        await t.db.insertInto('role_actions').values({ role_id: teacher, action_id: helpView.id }).execute();
      }
      expect(await actionList(tk)).toContain('help.view');
    });

    it('takes everything from a user left without roles, who still reaches * routes', async () => {
      const { tk, userId } = await login(t.app, 'student011');
      await t.db.deleteFrom('user_roles').where('user_id', '=', userId).execute();
      expect(await actionList(tk)).toEqual([]);
      expect(permissionCodes(await permissionList(tk))).toEqual([]);
      expect((await get('/v1/my/user-info', tk)).json().code).toBe(200);
    });
  });
});

describe('a route without a declared permission', () => {
  async function bareApp(): Promise<{ app: FastifyInstance; drop(): Promise<void> }> {
    const database = await createTestDatabase();
    const config = testConfig(database);
    const { app } = await buildApp(config, { logger: false });
    return {
      app,
      drop: async () => {
        await app.close().catch(() => undefined);
        await database.drop();
      },
    };
  }

  it.each(['/v1/unguarded', '/ed/unguarded'])('under %s stops the app from starting', async (url) => {
    const { app, drop } = await bareApp();
    try {
      const start = async () => {
        app.get(url, async () => ({ secret: true }));
        await app.ready();
      };
      await expect(start()).rejects.toThrow(/declares no permission/);
    } finally {
      await drop();
    }
  });

  it('inside a plugin stops the app from starting too', async () => {
    const { app, drop } = await bareApp();
    try {
      await app.register(async (scope) => {
        scope.post('/v1/hidden', async () => ({ secret: true }));
      }).ready().then(
        () => expect.unreachable('the app started'),
        (err: Error) => expect(err.message).toMatch(/declares no permission/),
      );
    } finally {
      await drop();
    }
  });

  it('outside /v1 and /ed is allowed, and one that declares its permission is guarded', async () => {
    const { app, drop } = await bareApp();
    try {
      app.get('/healthz', async () => 'ok');
      app.get('/v1/guarded', { config: { permission: 'role.view' } }, async () => ({ secret: true }));
      await app.ready();
      expect((await app.inject({ method: 'GET', url: '/healthz' })).body).toBe('ok');
      const res = await app.inject({ method: 'GET', url: '/v1/guarded' });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe(401);
    } finally {
      await drop();
    }
  });
});
