import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../db/connect.js';
import type { Database } from '../db/schema.js';
import { ok } from '../plugins/envelope.js';
import { BusinessError } from '../plugins/errors.js';
import { currentUser } from '../plugins/guard.js';
import type { UserType } from '../../shared/permissions.js';
import {
  DEVELOPER_ANSWERS,
  developerParams,
  roleActionsBody,
  roleActionsQuery,
  roleBody,
  roleChangeBody,
  rolesQuery,
  userRolesBody,
  type Role,
  type RoleActions,
  type RoleActionsBody,
  type RoleActionsQuery,
  type RoleBody,
  type RoleChangeBody,
  type RoleHolder,
  type RoleHolderPage,
  type RolePage,
  type RolesQuery,
  type UserRoles,
  type UserRolesBody,
} from '../../shared/calls/developer.js';
import { developerChange, keepsDeveloperAccess } from './access.js';

const tags = ['developer'];
type Params = { id: number };

/** Roles, the actions each holds, and who holds them (/v1/roles/actions/* as the product names them; the rest by docs/conventions.md#calls). */
export async function roleRoutes(app: FastifyInstance, { db }: { db: DB }) {
  // `on` is the transaction when called inside a change
  const answer = async (roleIds?: number[], on: Kysely<Database> = db): Promise<Role[]> => {
    let q = on.selectFrom('roles').selectAll().orderBy('id');
    if (roleIds) q = q.where('id', 'in', roleIds.length ? roleIds : [0]);
    const roles = await q.execute();
    const holders = await on.selectFrom('user_roles').select((eb) => ['role_id', eb.fn.countAll<number>().as('n')]).groupBy('role_id').execute();
    return roles.map((r) => ({
      id: r.id,
      roleId: r.id,
      system: r.system,
      userType: r.user_type as UserType,
      roleCode: r.role_code,
      name: r.name_hk,
      nameHk: r.name_hk,
      nameEn: r.name_en,
      remark: r.remark,
      isDefault: r.is_default === 1,
      userCount: Number(holders.find((h) => h.role_id === r.id)?.n ?? 0),
    }));
  };
  const duplicate = async (on: Kysely<Database>, code: string, except?: number) => {
    let q = on.selectFrom('roles').select('id').where('role_code', '=', code);
    if (except) q = q.where('id', '!=', except);
    if (await q.executeTakeFirst()) throw new BusinessError('DUPLICATE', { field: 'roleCode', value: code });
  };
  /** Makes a role the one new accounts of its user type get, and no other of that type. */
  const makeDefault = async (on: Kysely<Database>, roleId: number, userType: string) => {
    await on.updateTable('roles').set({ is_default: 0 }).where('user_type', '=', userType).where('id', '!=', roleId).execute();
    await on.updateTable('roles').set({ is_default: 1 }).where('id', '=', roleId).execute();
  };

  app.get<{ Querystring: RolesQuery }>('/v1/roles', {
    config: { permission: 'role.view' },
    schema: { tags, summary: 'Every role: {list, total}', querystring: rolesQuery, response: DEVELOPER_ANSWERS.roles },
  }, async (request) => {
    let list = await answer();
    const { q, userType } = request.query;
    if (userType) list = list.filter((r) => r.userType === userType);
    if (q?.trim()) list = list.filter((r) => [r.roleCode, r.nameHk, r.nameEn].some((v) => v.toLowerCase().includes(q.trim().toLowerCase())));
    // a page only when asked for one (docs/conventions.md#list-queries); without size, every role (the role pickers)
    const { page = 1, size } = request.query;
    return ok<RolePage>({ list: size ? list.slice((page - 1) * size, page * size) : list, total: list.length });
  });

  app.get<{ Params: Params }>('/v1/roles/:id', {
    config: { permission: 'role.view' },
    schema: { tags, summary: 'One role', params: developerParams, response: DEVELOPER_ANSWERS.role },
  }, async (request) => {
    const [role] = await answer([request.params.id]);
    if (!role) throw new BusinessError('RECORD_NOT_FOUND');
    return ok(role);
  });

  app.post<{ Body: RoleBody }>('/v1/roles', {
    config: { permission: 'role.add' },
    schema: { tags, summary: 'Adds a role', body: roleBody, response: DEVELOPER_ANSWERS.role },
  }, async (request) => {
    const b = request.body;
    const row = await developerChange(db, async (trx) => {
      await duplicate(trx, b.roleCode);
      const created = await trx.insertInto('roles').values({ system: 'QE', user_type: b.userType, role_code: b.roleCode, name_hk: b.nameHk, name_en: b.nameEn, remark: b.remark ?? null }).returning('id').executeTakeFirstOrThrow();
      if (b.isDefault) await makeDefault(trx, created.id, b.userType);
      return created;
    });
    return ok((await answer([row.id]))[0], 201);
  });

  app.put<{ Params: Params; Body: RoleChangeBody }>('/v1/roles/:id', {
    config: { permission: 'role.edit' },
    schema: { tags, summary: 'Edits a role', params: developerParams, body: roleChangeBody, response: DEVELOPER_ANSWERS.role },
  }, async (request) => {
    const b = request.body;
    await developerChange(db, async (trx) => {
      const [role] = await answer([request.params.id], trx);
      if (!role) throw new BusinessError('RECORD_NOT_FOUND');
      if (b.roleCode) await duplicate(trx, b.roleCode, request.params.id);
      // the role new accounts get may be renamed freely, but not vanish from its user type:
      // another role of that type is chosen instead (isDefault on that one)
      if (role.isDefault && ((b.userType !== undefined && b.userType !== role.userType) || b.isDefault === false)) throw new BusinessError('DEFAULT_ROLE_NEEDED');
      const set = { user_type: b.userType, role_code: b.roleCode, name_hk: b.nameHk, name_en: b.nameEn, remark: b.remark };
      const defined = Object.fromEntries(Object.entries(set).filter(([, v]) => v !== undefined));
      if (Object.keys(defined).length) await trx.updateTable('roles').set(defined).where('id', '=', request.params.id).execute();
      if (b.isDefault && !role.isDefault) await makeDefault(trx, request.params.id, b.userType ?? role.userType);
    });
    return ok((await answer([request.params.id]))[0]);
  });

  app.delete<{ Params: Params }>('/v1/roles/:id', {
    config: { permission: 'role.delete' },
    schema: { tags, summary: 'Deletes a role; its holders lose what it gave them. The role new accounts get cannot be deleted (741)', params: developerParams, response: DEVELOPER_ANSWERS.changed },
  }, async (request) => {
    await developerChange(db, async (trx) => {
      const [role] = await answer([request.params.id], trx);
      if (!role) throw new BusinessError('RECORD_NOT_FOUND');
      await keepsDeveloperAccess(trx, currentUser(request).id, { deletedRole: request.params.id });
      if (role.isDefault) throw new BusinessError('DEFAULT_ROLE_NEEDED');
      await trx.deleteFrom('roles').where('id', '=', request.params.id).execute();
    });
    return ok(null);
  });

  app.get<{ Querystring: RoleActionsQuery }>('/v1/roles/actions/action-list', {
    config: { permission: 'role.view' },
    schema: { tags, summary: "The actions a role holds (ids), with the system's menus and actions to choose from", querystring: roleActionsQuery, response: DEVELOPER_ANSWERS.roleActions },
  }, async (request) => {
    const system = request.query.system || 'QE';
    if (!(await answer([request.query.roleId])).length) throw new BusinessError('RECORD_NOT_FOUND');
    const held = await db
      .selectFrom('role_actions as ra')
      .innerJoin('actions as a', 'a.id', 'ra.action_id')
      .innerJoin('menus as m', 'm.id', 'a.menu_id')
      .select(['a.id', 'a.code', 'm.code as page'])
      .where('ra.role_id', '=', request.query.roleId)
      .where('m.system', '=', system)
      .execute();
    return ok<RoleActions>({ roleId: request.query.roleId, system, actions: held.map((h) => h.id), codes: held.map((h) => `${h.page}.${h.code}`) });
  });

  app.post<{ Body: RoleActionsBody }>('/v1/roles/actions/select-action', {
    config: { permission: 'role.edit' },
    schema: { tags, summary: "Sets a role's actions in a system (all of them: the ones not given are taken away)", body: roleActionsBody, response: DEVELOPER_ANSWERS.changed },
  }, async (request) => {
    const { roleId, system = 'QE' } = request.body;
    const actionIds = [...new Set(request.body.actions)];
    await developerChange(db, async (trx) => {
      if (!(await answer([roleId], trx)).length) throw new BusinessError('RECORD_NOT_FOUND');
      const systemActions = (await trx.selectFrom('actions as a').innerJoin('menus as m', 'm.id', 'a.menu_id').select('a.id').where('m.system', '=', system).execute()).map((a) => a.id);
      if (actionIds.some((a) => !systemActions.includes(a))) throw new BusinessError('INVALID_REQUEST');
      const otherSystems = (await trx.selectFrom('role_actions').select('action_id').where('role_id', '=', roleId).execute()).map((r) => r.action_id).filter((a) => !systemActions.includes(a));
      await keepsDeveloperAccess(trx, currentUser(request).id, { roleActions: { roleId, actionIds: [...otherSystems, ...actionIds] } });
      if (systemActions.length) await trx.deleteFrom('role_actions').where('role_id', '=', roleId).where('action_id', 'in', systemActions).execute();
      if (actionIds.length) await trx.insertInto('role_actions').values(actionIds.map((action_id) => ({ role_id: roleId, action_id }))).execute();
    });
    return ok(null);
  });

  app.get<{ Params: Params }>('/v1/roles/:id/users', {
    config: { permission: 'role.view' },
    schema: { tags, summary: 'Who holds a role', params: developerParams, response: DEVELOPER_ANSWERS.roleUsers },
  }, async (request) => {
    if (!(await answer([request.params.id])).length) throw new BusinessError('RECORD_NOT_FOUND');
    const rows = await db
      .selectFrom('user_roles as ur')
      .innerJoin('users as u', 'u.id', 'ur.user_id')
      .select(['u.id', 'u.user_no as code', 'u.username', 'u.name_hk as nameHk', 'u.name_en as nameEn', 'u.user_type as userType'])
      .where('ur.role_id', '=', request.params.id)
      .orderBy('u.user_type')
      .orderBy('u.user_no')
      .execute();
    const list = rows.map((u): RoleHolder => ({ ...u, userType: u.userType as UserType }));
    return ok<RoleHolderPage>({ list, total: list.length });
  });

  app.get<{ Params: Params }>('/v1/users/:id/roles', {
    config: { permission: 'role.assign-roles' },
    schema: { tags, summary: "A user's roles (ids)", params: developerParams, response: DEVELOPER_ANSWERS.userRoles },
  }, async (request) => {
    if (!(await db.selectFrom('users').select('id').where('id', '=', request.params.id).executeTakeFirst())) throw new BusinessError('RECORD_NOT_FOUND');
    const rows = await db.selectFrom('user_roles').select('role_id').where('user_id', '=', request.params.id).execute();
    return ok<UserRoles>({ userId: request.params.id, roleIds: rows.map((r) => r.role_id) });
  });

  app.put<{ Params: Params; Body: UserRolesBody }>('/v1/users/:id/roles', {
    config: { permission: 'role.assign-roles' },
    schema: { tags, summary: "Sets a user's roles (effective on their next request)", params: developerParams, body: userRolesBody, response: DEVELOPER_ANSWERS.changed },
  }, async (request) => {
    const userId = request.params.id;
    const roleIds = [...new Set(request.body.roleIds)];
    await developerChange(db, async (trx) => {
      if (!(await trx.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst())) throw new BusinessError('RECORD_NOT_FOUND');
      if ((await answer(roleIds, trx)).length !== roleIds.length) throw new BusinessError('INVALID_REQUEST');
      await keepsDeveloperAccess(trx, currentUser(request).id, { userRoles: { userId, roleIds } });
      await trx.deleteFrom('user_roles').where('user_id', '=', userId).execute();
      if (roleIds.length) await trx.insertInto('user_roles').values(roleIds.map((role_id) => ({ user_id: userId, role_id }))).execute();
    });
    return ok(null);
  });
}
