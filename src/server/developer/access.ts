import type { Transaction } from 'kysely';
import type { DB } from '../db/connect.js';
import { lockFor } from '../db/locks.js';
import type { Database } from '../db/schema.js';
import { BusinessError } from '../plugins/errors.js';

/** What a developer-area change would do to the permission model. */
export interface PermissionChange {
  /** actions about to be deleted */
  removedActions?: number[];
  /** a role's new set of actions */
  roleActions?: { roleId: number; actionIds: number[] };
  /** a user's new set of roles */
  userRoles?: { userId: number; roleIds: number[] };
  /** a role about to be deleted */
  deletedRole?: number;
}

/** The developer area's way in: seeing roles and changing their permissions. */
const WAY_IN = ['role.view', 'role.edit'];

/**
 * Runs one developer-area change (menus, actions, roles, who holds them) in a transaction that
 * first takes the developer-area lock, so such changes run one after another on every instance:
 * the own-access check inside sees every change committed before it, and none can slip in
 * between the check and the write. Every query of `work` goes through `trx` (on SQLite a query
 * on `db` would wait for the one connection the transaction holds).
 */
export function developerChange<T>(db: DB, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  // read committed whatever the server's default: under repeatable read the snapshot would be
  // taken by the lock statement, before the wait, and the check would miss the change waited for
  return db.transaction().setIsolationLevel('read committed').execute(async (trx) => {
    await lockFor(trx, 'developerArea');
    return work(trx);
  });
}

/**
 * Refuses (709, with its own message) a change after which the caller would no longer hold
 * role.view and role.edit while holding them now: nobody locks themselves out of the
 * developer area — there would be no screen left to undo it from. Called inside
 * developerChange, before the write it checks: two changes harmless alone but fatal together
 * (one takes role.edit from a role, the other that role's twin from the caller) cannot both
 * pass, since the second is checked against what the first wrote.
 */
export async function keepsDeveloperAccess(db: Transaction<Database>, userId: number, change: PermissionChange): Promise<void> {
  const codesAfter = async (apply: boolean): Promise<Set<string>> => {
    let roleIds = (await db.selectFrom('user_roles').select('role_id').where('user_id', '=', userId).execute()).map((r) => r.role_id);
    if (apply && change.userRoles?.userId === userId) roleIds = change.userRoles.roleIds;
    if (apply && change.deletedRole !== undefined) roleIds = roleIds.filter((r) => r !== change.deletedRole);
    if (!roleIds.length) return new Set();
    const held = await db.selectFrom('role_actions').select(['role_id', 'action_id']).where('role_id', 'in', roleIds).execute();
    let actionIds = held.filter((h) => !(apply && change.roleActions?.roleId === h.role_id)).map((h) => h.action_id);
    if (apply && change.roleActions && roleIds.includes(change.roleActions.roleId)) actionIds.push(...change.roleActions.actionIds);
    if (apply && change.removedActions) actionIds = actionIds.filter((a) => !change.removedActions!.includes(a));
    if (!actionIds.length) return new Set();
    const rows = await db
      .selectFrom('actions as a')
      .innerJoin('menus as m', 'm.id', 'a.menu_id')
      .select(['m.code as page', 'a.code as action'])
      .where('a.id', 'in', actionIds)
      .where('m.system', '=', 'QE')
      .execute();
    return new Set(rows.map((r) => `${r.page}.${r.action}`));
  };
  const before = await codesAfter(false);
  if (!WAY_IN.every((c) => before.has(c))) return;
  const after = await codesAfter(true);
  if (!WAY_IN.every((c) => after.has(c))) throw new BusinessError('OWN_DEVELOPER_ACCESS');
}
