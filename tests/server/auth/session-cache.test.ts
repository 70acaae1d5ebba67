import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/server/app.js';
import { bearer, login, testApp, type TestApp } from '../harness.js';

/**
 * Sessions and permission codes are kept in memory (src/server/auth/session-cache.ts). A change
 * made on another instance sharing the database — or by anything that writes the tables — must
 * apply to this instance's very next request: these tests change things through instance B and
 * ask instance A, whose memory holds the old answer.
 */
describe('the session cache across instances', () => {
  let t: TestApp;
  let b: FastifyInstance;
  let admin: string;
  beforeAll(async () => {
    t = await testApp({ demo: true });
    b = (await buildApp(t.config, { logger: false })).app;
    await b.ready();
    admin = (await login(b, 'superadmin')).tk;
  });
  afterAll(async () => {
    await b?.close();
    await t?.close();
  });

  const a = () => t.app;
  const call = (app: FastifyInstance, tk: string, url: string) => app.inject({ method: 'GET', url, headers: bearer(tk) });
  const codes = async (app: FastifyInstance, tk: string) => (await call(app, tk, '/v1/my/action-list')).json().data as string[];
  const rolesOf = async (userId: number) => (await b.inject({ method: 'GET', url: `/v1/users/${userId}/roles`, headers: bearer(admin) })).json().data.roleIds as number[];
  const setRoles = async (userId: number, roleIds: number[]) => {
    const res = await b.inject({ method: 'PUT', url: `/v1/users/${userId}/roles`, headers: bearer(admin), payload: { roleIds } });
    expect(res.json().code).toBe(200);
  };

  it('a role taken away on B is refused on A at the next request, and given back, allowed again', async () => {
    const teacher = await login(a(), 'teacher02');
    expect((await call(a(), teacher.tk, '/v1/questionnaires')).json().code).toBe(200);
    expect(await codes(a(), teacher.tk)).toContain('form.view');
    const roles = await rolesOf(teacher.userId);
    await setRoles(teacher.userId, []);
    expect((await call(a(), teacher.tk, '/v1/questionnaires')).json().code).toBe(405);
    expect(await codes(a(), teacher.tk)).toEqual([]);
    const info = (await call(a(), teacher.tk, '/v1/my/user-info')).json().data;
    expect(info.permissions.every((p: { permission_selection: string }) => /^0*$/.test(p.permission_selection))).toBe(true);
    await setRoles(teacher.userId, roles);
    expect((await call(a(), teacher.tk, '/v1/questionnaires')).json().code).toBe(200);
  });

  it("a role's actions changed on B apply on A at once", async () => {
    const teacher = await login(a(), 'teacher03');
    const [roleId] = await rolesOf(teacher.userId);
    const before = (await b.inject({ method: 'GET', url: `/v1/roles/actions/action-list?roleId=${roleId}`, headers: bearer(admin) })).json().data;
    expect(before.codes).toContain('form.view');
    expect((await call(a(), teacher.tk, '/v1/questionnaires')).json().code).toBe(200);
    const without = before.actions.filter((_: number, i: number) => before.codes[i] !== 'form.view');
    const change = (actions: number[]) => b.inject({ method: 'POST', url: '/v1/roles/actions/select-action', headers: bearer(admin), payload: { roleId, actions } });
    expect((await change(without)).json().code).toBe(200);
    expect((await call(a(), teacher.tk, '/v1/questionnaires')).json().code).toBe(405);
    expect(await codes(a(), teacher.tk)).not.toContain('form.view');
    expect((await change(before.actions)).json().code).toBe(200);
    expect((await call(a(), teacher.tk, '/v1/questionnaires')).json().code).toBe(200);
  });

  it('a logout on B ends the session on A; other sessions stay', async () => {
    const one = await login(a(), 'teacher04');
    const two = await login(a(), 'teacher04');
    expect((await call(a(), one.tk, '/v1/my/user-info')).json().code).toBe(200);
    expect((await b.inject({ method: 'POST', url: '/v1/logout', headers: bearer(one.tk) })).json().code).toBe(200);
    expect((await call(a(), one.tk, '/v1/my/user-info')).json().code).toBe(444);
    expect((await call(a(), two.tk, '/v1/my/user-info')).json().code).toBe(200);
  });

  it('an account disabled or a pupil who left, written straight to the database, is refused at once', async () => {
    const teacher = await login(a(), 'teacher05');
    const student = await login(a(), 'student007');
    for (const s of [teacher, student]) expect((await call(a(), s.tk, '/v1/my/user-info')).json().code).toBe(200);
    await t.db.updateTable('users').set({ active: 0 }).where('id', '=', teacher.userId).execute();
    await t.db.updateTable('users').set({ status: '2' }).where('id', '=', student.userId).execute();
    expect((await call(a(), teacher.tk, '/v1/my/user-info')).json().code).toBe(444);
    expect((await call(a(), student.tk, '/v1/my/user-info')).json().code).toBe(444);
    await t.db.updateTable('users').set({ active: 1 }).where('id', '=', teacher.userId).execute();
    await t.db.updateTable('users').set({ status: '1' }).where('id', '=', student.userId).execute();
    expect((await call(a(), teacher.tk, '/v1/my/user-info')).json().code).toBe(200);
    expect((await call(a(), student.tk, '/v1/my/user-info')).json().code).toBe(200);
  });

  it('under a burst of 200 calls on A, none started after the change on B has answered is let through', async () => {
    const teacher = await login(a(), 'teacher06');
    const roles = await rolesOf(teacher.userId);
    const burst = () => Array.from({ length: 100 }, () => call(a(), teacher.tk, '/v1/questionnaires'));
    const before = burst();
    await setRoles(teacher.userId, []);
    const after = await Promise.all(burst());
    await Promise.all(before);
    expect(after.map((r) => r.json().code)).toEqual(after.map(() => 405));
    await setRoles(teacher.userId, roles);
    const again = await Promise.all(burst());
    expect(again.map((r) => r.json().code)).toEqual(again.map(() => 200));
  });

  it('a session expired in the database is refused although A read it before', async () => {
    const teacher = await login(a(), 'teacher07');
    expect((await call(a(), teacher.tk, '/v1/my/user-info')).json().code).toBe(200);
    await t.db.updateTable('sessions').set({ expires_at: Date.now() - 1000 }).where('user_id', '=', teacher.userId).execute();
    expect((await call(a(), teacher.tk, '/v1/my/user-info')).json().code).toBe(401);
  });

  it("the school calendar in user-info follows a term renamed elsewhere at once", async () => {
    const teacher = await login(a(), 'teacher08');
    const before = (await call(a(), teacher.tk, '/v1/my/user-info')).json().data;
    expect(before.terms.length).toBeGreaterThan(0);
    const term = before.terms[0];
    await t.db.updateTable('terms').set({ name_en: `${term.nameEn} (renamed)` }).where('id', '=', term.id).execute();
    const after = (await call(a(), teacher.tk, '/v1/my/user-info')).json().data;
    expect(after.terms[0]).toMatchObject({ id: term.id, nameEn: `${term.nameEn} (renamed)` });
    await t.db.updateTable('terms').set({ name_en: term.nameEn }).where('id', '=', term.id).execute();
  });

  it("user-info follows the user's own row and personal-data request changed elsewhere at once", async () => {
    const teacher = await login(a(), 'teacher09');
    const before = (await call(a(), teacher.tk, '/v1/my/user-info')).json().data;
    expect(before.personalDataStatus).toBeNull();
    await t.db.updateTable('users').set({ name_en: 'Renamed Elsewhere', tel: '91234567' }).where('id', '=', teacher.userId).execute();
    const renamed = (await call(a(), teacher.tk, '/v1/my/user-info')).json().data;
    expect(renamed).toMatchObject({ nameEn: 'Renamed Elsewhere', tel: '91234567', personalDataStatus: null });
    await t.db.insertInto('personal_data_requests').values({ user_id: teacher.userId, status: 'WAITTING', tel: null, gender: null, birthday: null, avatar: null, identity_card_type: null, identity_card_no: null, identity_card_masked: null, reason: null, decided_by: null, created_at: new Date().toISOString(), decided_at: null }).execute();
    expect((await call(a(), teacher.tk, '/v1/my/user-info')).json().data.personalDataStatus).toBe('WAITTING');
    // a login elsewhere moves the login times user-info shows
    await login(b, 'teacher09');
    const again = (await call(a(), teacher.tk, '/v1/my/user-info')).json().data;
    expect(again.lastLogin).toBe(before.loginTime);
    expect(again.loginTime).not.toBe(before.loginTime);
  });

  it('user-info answers the same bytes as JSON whether built or kept, and a reminder-link session keeps its own', async () => {
    const teacher = await login(a(), 'teacher10');
    const first = await call(a(), teacher.tk, '/v1/my/user-info');
    const second = await call(a(), teacher.tk, '/v1/my/user-info');
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(second.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(second.headers['cache-control']).toBe('no-store');
    expect(second.body).toBe(first.body);
    expect(first.json().data.permissions.some((p: { permission_selection: string }) => /1/.test(p.permission_selection))).toBe(true);
  });
});
