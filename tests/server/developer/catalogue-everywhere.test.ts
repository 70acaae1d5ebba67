import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { bearer, login } from '../harness.js';
import { instances, onPostgres } from '../instances.js';

/**
 * The permission catalogue (every page with its actions) is kept in memory under the `auth`
 * counter (src/server/auth/session-cache.ts). Once, a page or action *added* did not move it,
 * so holders saw the old catalogue until their next login, even on the instance that added it.
 * Now every change — a page or action added, renamed, removed, a role's actions or a user's roles
 * — shows in the holder's permissions and user-info at once on every instance (on SQLite, the one).
 */
describe(`the permission catalogue after a change (${onPostgres ? 'three instances on one PostgreSQL' : 'one SQLite app'})`, () => {
  let t: Awaited<ReturnType<typeof instances>>;
  let admin: string;
  let teacher: { tk: string; userId: number };

  beforeAll(async () => {
    t = await instances(3, { demo: true });
    admin = (await login(t.apps[0], 'superadmin')).tk;
    teacher = await login(t.apps[2], 'teacher02');
  }, 120_000);
  afterAll(async () => t?.close());

  const send = async (app: FastifyInstance, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, tk = admin) => {
    const res = await app.inject({ method, url, headers: bearer(tk), ...(payload ? { payload } : {}) });
    const body = res.json();
    expect(body.code, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return body.data;
  };
  type Entry = { code: string; actions: { code: string }[]; permission_selection: string };
  /** The page `code` as the teacher's permissions and user-info show it through `app` (undefined: not there). */
  const pageSeen = async (app: FastifyInstance, code: string) => {
    const permissions = (await send(app, 'GET', '/v1/my/permissions', undefined, teacher.tk)) as Entry[];
    const info = (await send(app, 'GET', '/v1/my/user-info', undefined, teacher.tk)).permissions as Entry[];
    const page = permissions.find((p) => p.code === code);
    expect(info.find((p) => p.code === code)).toEqual(page);
    return page && { actions: page.actions.map((a) => a.code), selection: page.permission_selection };
  };
  const everywhere = (code: string) => Promise.all(t.apps.map((app) => pageSeen(app, code)));
  const actionsHeld = (app: FastifyInstance) => send(app, 'GET', '/v1/my/action-list', undefined, teacher.tk) as Promise<string[]>;

  it('a page and its action added through one instance are in the holder\'s permissions through every instance at once; renamed, granted and removed likewise', async () => {
    // every instance has read the holder's catalogue once, and keeps it
    expect(await everywhere('issue39')).toEqual(t.apps.map(() => undefined));

    const { menuId } = await send(t.apps[0], 'POST', '/v1/menus/actions/create', { code: 'issue39', system: 'QE', name: '新頁', nameEn: 'New page' });
    const { actionId } = await send(t.apps[0], 'POST', '/v1/actions/actions/create', { menuId, code: 'view', group: 201, name: '檢視', nameEn: 'View' });
    expect(await everywhere('issue39')).toEqual(t.apps.map(() => ({ actions: ['view'], selection: '0' })));

    // a second action added through another instance
    const second = (await send(t.apps[1], 'POST', '/v1/actions/actions/create', { menuId, code: 'edit', group: 201, name: '編輯', nameEn: 'Edit' })).actionId as number;
    expect(await everywhere('issue39')).toEqual(t.apps.map(() => ({ actions: ['view', 'edit'], selection: '00' })));

    // granted to the holder's role through the third instance
    const [roleId] = (await send(t.apps[2], 'GET', `/v1/users/${teacher.userId}/roles`)).roleIds as number[];
    const held = (await send(t.apps[2], 'GET', `/v1/roles/actions/action-list?roleId=${roleId}`)).actions as number[];
    await send(t.apps[2], 'POST', '/v1/roles/actions/select-action', { roleId, actions: [...held, actionId] });
    expect(await everywhere('issue39')).toEqual(t.apps.map(() => ({ actions: ['view', 'edit'], selection: '10' })));
    for (const app of t.apps) expect(await actionsHeld(app)).toContain('issue39.view');

    // the action renamed: the holder holds it under its new code everywhere
    await send(t.apps[0], 'POST', '/v1/actions/actions/edit', { actionId, code: 'look', group: 201, name: '看', nameEn: 'Look' });
    expect(await everywhere('issue39')).toEqual(t.apps.map(() => ({ actions: ['look', 'edit'], selection: '10' })));
    for (const app of t.apps) expect(await actionsHeld(app)).toContain('issue39.look');

    // revoked, then the page removed
    await send(t.apps[1], 'POST', '/v1/roles/actions/select-action', { roleId, actions: held });
    for (const app of t.apps) expect(await actionsHeld(app)).not.toContain('issue39.look');
    await send(t.apps[1], 'POST', '/v1/actions/actions/delete', { actionId: second });
    expect(await everywhere('issue39')).toEqual(t.apps.map(() => ({ actions: ['look'], selection: '0' })));
    await send(t.apps[2], 'POST', '/v1/menus/actions/delete', { menuId });
    expect(await everywhere('issue39')).toEqual(t.apps.map(() => undefined));
  }, 120_000);

  it('a role given to a user through one instance is held through every other at once, and taken away likewise', async () => {
    const roles = (await send(t.apps[0], 'GET', `/v1/users/${teacher.userId}/roles`)).roleIds as number[];
    const all = (await send(t.apps[0], 'GET', '/v1/roles')).list as { id: number; roleCode: string; userType: string }[];
    const extra = all.find((r) => !roles.includes(r.id) && r.userType === 'teacher') ?? all.find((r) => !roles.includes(r.id))!;
    const extraCodes = (await send(t.apps[0], 'GET', `/v1/roles/actions/action-list?roleId=${extra.id}`)).codes as string[];
    const before = await actionsHeld(t.apps[1]);
    const gained = extraCodes.filter((c) => !before.includes(c));
    expect(gained.length).toBeGreaterThan(0);
    await send(t.apps[0], 'PUT', `/v1/users/${teacher.userId}/roles`, { roleIds: [...roles, extra.id] });
    for (const app of t.apps) expect(await actionsHeld(app)).toEqual(expect.arrayContaining(gained));
    await send(t.apps[2], 'PUT', `/v1/users/${teacher.userId}/roles`, { roleIds: roles });
    for (const app of t.apps) expect(await actionsHeld(app)).toEqual(before);
  }, 60_000);
});
