import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorText } from '../../../src/shared/errors.js';
import { bearer, login, testApp, type TestApp } from '../harness.js';

// The own-access guard under concurrency: two developer-area changes, each harmless alone, that
// together would take the caller's role.view and role.edit away. Sent at the same moment, at
// least one is refused (709) and the caller keeps both — on SQLite and on PostgreSQL.

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const WAY_IN = ['role.view', 'role.edit'];
const ROUNDS = 6;

describe('the own-access guard under concurrent changes', () => {
  let t: TestApp;
  let tk: string;
  let me: number;
  let superRole: number;
  /** `page.action` → actionId */
  let actionIds: Map<string, number>;

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    ({ tk, userId: me } = await login(t.app, 'superadmin'));
    superRole = (await t.db.selectFrom('roles').select('id').where('role_code', '=', 'SUPER_ADMIN').executeTakeFirstOrThrow()).id;
    const menus = (await call('GET', '/v1/menu-actions/actions/tree?system=QE')).body.data as { code: string; actions: { actionId: number; code: string }[] }[];
    actionIds = new Map(menus.flatMap((m) => m.actions.map((a) => [`${m.code}.${a.code}`, a.actionId] as const)));
  });
  afterAll(async () => t?.close());

  async function call(method: Method, url: string, payload?: object) {
    const res = await t.app.inject({ method, url, payload, headers: { ...bearer(tk), 'accept-language': 'en' } });
    return { status: res.statusCode, body: res.json() };
  }
  const ids = (codes: string[]) => codes.map((c) => actionIds.get(c)!);
  const allCodes = () => [...actionIds.keys()];

  /** What the caller holds now, read from the tables (not through the API, which needs the access). */
  async function held(): Promise<Set<string>> {
    const rows = await t.db
      .selectFrom('user_roles as ur')
      .innerJoin('role_actions as ra', 'ra.role_id', 'ur.role_id')
      .innerJoin('actions as a', 'a.id', 'ra.action_id')
      .innerJoin('menus as m', 'm.id', 'a.menu_id')
      .select(['m.code as page', 'a.code as action'])
      .where('ur.user_id', '=', me)
      .execute();
    return new Set(rows.map((r) => `${r.page}.${r.action}`));
  }

  /**
   * The starting point of a round: the caller holds SUPER_ADMIN (every action) and a second role
   * that also gives role.view and role.edit, so either can go alone. Written straight to the
   * tables, so a round that went wrong cannot keep the next from starting.
   */
  let serial = 0;
  async function twoWaysIn(): Promise<number> {
    const round = ++serial;
    const { id: extra } = await t.db.insertInto('roles').values({ system: 'QE', user_type: 'SUPER_ADMIN', role_code: `DEPUTY_${round}`, name_hk: `副管理員 ${round}`, name_en: `Deputy ${round}`, remark: null }).returning('id').executeTakeFirstOrThrow();
    await t.db.insertInto('role_actions').values(ids([...WAY_IN, 'role.assign-roles', 'role.delete']).map((action_id) => ({ role_id: extra, action_id }))).execute();
    await t.db.deleteFrom('role_actions').where('role_id', '=', superRole).execute();
    await t.db.insertInto('role_actions').values(ids(allCodes()).map((action_id) => ({ role_id: superRole, action_id }))).execute();
    await t.db.deleteFrom('user_roles').where('user_id', '=', me).execute();
    await t.db.insertInto('user_roles').values([{ user_id: me, role_id: superRole }, { user_id: me, role_id: extra }]).execute();
    return extra;
  }

  const withoutWayIn = () => ({ actions: ids(allCodes().filter((c) => !WAY_IN.includes(c))), roleId: superRole, system: 'QE' });
  type Change = () => ReturnType<typeof call>;
  const pairs: [string, (extra: number) => [Change, Change]][] = [
    ["taking role.view and role.edit from SUPER_ADMIN + taking the other role from the caller", () => [
      () => call('POST', '/v1/roles/actions/select-action', withoutWayIn()),
      () => call('PUT', `/v1/users/${me}/roles`, { roleIds: [superRole] }),
    ]],
    ["taking role.view and role.edit from SUPER_ADMIN + deleting the other role", (extra) => [
      () => call('POST', '/v1/roles/actions/select-action', withoutWayIn()),
      () => call('DELETE', `/v1/roles/${extra}`),
    ]],
    ["taking the other role's way in + taking SUPER_ADMIN from the caller", (extra) => [
      () => call('POST', '/v1/roles/actions/select-action', { actions: ids(['role.assign-roles', 'role.delete']), roleId: extra, system: 'QE' }),
      () => call('PUT', `/v1/users/${me}/roles`, { roleIds: [extra] }),
    ]],
  ];

  it('each change alone is allowed (the starting point really has two ways in)', async () => {
    for (const [, run] of pairs) {
      for (const k of [0, 1]) {
        const extra = await twoWaysIn();
        const res = await run(extra)[k]();
        expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: 200 });
        const after = await held();
        expect(WAY_IN.every((c) => after.has(c))).toBe(true);
      }
    }
  });

  it.each(pairs)('%s at the same moment: at least one is refused and the caller keeps the way in', async (_name, run) => {
    for (let round = 0; round < ROUNDS; round++) {
      const extra = await twoWaysIn();
      const answers = await Promise.all(run(extra).map((change) => change()));
      const codes = answers.map((a) => a.body.code);
      expect(codes.filter((c) => c === 709).length, JSON.stringify(codes)).toBeGreaterThanOrEqual(1);
      for (const a of answers) if (a.body.code === 709) expect(a.body).toEqual({ code: 709, msg: errorText('OWN_DEVELOPER_ACCESS', 'en'), data: null });
      for (const a of answers) expect([200, 709]).toContain(a.body.code);
      const after = await held();
      expect(WAY_IN.filter((c) => !after.has(c)), `round ${round}: ${JSON.stringify(codes)}`).toEqual([]);
    }
  });
});
