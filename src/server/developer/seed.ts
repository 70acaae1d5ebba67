import { ACTIONS, DEFAULT_ROLES, permissionModel } from '../../shared/permissions.js';
import type { MasterPage } from '../../shared/master/pages.js';
import type { Kysely } from 'kysely';
import type { DB } from '../db/connect.js';
import type { Database } from '../db/schema.js';
import { BusinessError } from '../plugins/errors.js';

const SYSTEM = 'QE';

/**
 * Makes sure every page and action QE knows exists in the database (adding, never
 * overwriting what the developer area changed), and creates the default roles with their
 * permissions the first time. Safe to run at every start.
 *
 * Each page and action code is seeded once (remembered in `seeded_codes`): one a super
 * administrator deleted stays deleted, one an upgrade brings is added at its first start.
 */
export async function seedPermissionModel(db: DB, extraPages: MasterPage[] = []): Promise<void> {
  const { pages, defaults } = permissionModel(extraPages);
  await db.transaction().execute(async (trx) => {
    const seeded = new Set((await trx.selectFrom('seeded_codes').select('code').where('system', '=', SYSTEM).execute()).map((r) => r.code));
    const remember = async (code: string) => {
      await trx.insertInto('seeded_codes').values({ system: SYSTEM, code }).execute();
      seeded.add(code);
    };
    for (const [i, page] of pages.entries()) {
      let menu = await trx.selectFrom('menus').select('id').where('system', '=', SYSTEM).where('code', '=', page.code).executeTakeFirst();
      if (!menu && seeded.has(page.code)) continue;
      if (!menu) {
        menu = await trx
          .insertInto('menus')
          .values({ system: SYSTEM, code: page.code, name_hk: page.nameHk, name_en: page.nameEn, sort: (i + 1) * 10 })
          .returning('id')
          .executeTakeFirstOrThrow();
      }
      if (!seeded.has(page.code)) await remember(page.code);
      const existing = new Set((await trx.selectFrom('actions').select('code').where('menu_id', '=', menu.id).execute()).map((a) => a.code));
      for (const code of page.actions) {
        const key = `${page.code}.${code}`;
        // a code seeded once and since deleted by a super administrator stays deleted
        if (seeded.has(key) && !existing.has(code)) continue;
        if (!existing.has(code)) {
          const def = ACTIONS.find((a) => a.code === code)!;
          const action = await trx
            .insertInto('actions')
            .values({ menu_id: menu.id, code, action_group: def.group, name_hk: def.nameHk, name_en: def.nameEn, sort: ACTIONS.indexOf(def) })
            .returning('id')
            .executeTakeFirstOrThrow();
          await grantToDefaultRoles(trx, defaults, key, action.id);
        }
        if (!seeded.has(key)) await remember(key);
      }
    }

    const anyRole = await trx.selectFrom('roles').select('id').executeTakeFirst();
    if (anyRole) return;
    const actions = await trx
      .selectFrom('actions as a')
      .innerJoin('menus as m', 'm.id', 'a.menu_id')
      .where('m.system', '=', SYSTEM)
      .select(['a.id', 'm.code as page', 'a.code'])
      .execute();
    const actionId = new Map(actions.map((a) => [`${a.page}.${a.code}`, a.id]));
    for (const role of DEFAULT_ROLES) {
      const { id } = await trx
        .insertInto('roles')
        .values({ system: SYSTEM, user_type: role.userType, role_code: role.roleCode, name_hk: role.nameHk, name_en: role.nameEn, remark: null, is_default: 1 })
        .returning('id')
        .executeTakeFirstOrThrow();
      const values = defaults[role.userType].map((p) => ({ role_id: id, action_id: actionId.get(p)! }));
      if (values.length) await trx.insertInto('role_actions').values(values).execute();
    }
  });
}

/**
 * An action QE gained in an update (the school settings page) goes to the roles new accounts
 * get whose out-of-the-box permissions hold it, so that an existing install's administrators
 * can reach it without a developer granting it by hand. On a new install no role exists yet.
 */
async function grantToDefaultRoles(trx: Kysely<Database>, defaults: Record<string, string[]>, permission: string, actionId: number): Promise<void> {
  const userTypes = DEFAULT_ROLES.filter((r) => defaults[r.userType].includes(permission)).map((r) => r.userType);
  if (!userTypes.length) return;
  const roles = await trx.selectFrom('roles').select('id').where('system', '=', SYSTEM).where('is_default', '=', 1).where('user_type', 'in', userTypes).execute();
  if (roles.length) await trx.insertInto('role_actions').values(roles.map((r) => ({ role_id: r.id, action_id: actionId }))).execute();
}

/**
 * The role new accounts of a user type get: the one marked as such (Roles screen), not found by
 * its code, so renaming it changes nothing. Refuses (740) rather than leave an account with no role.
 */
export async function defaultRoleId(db: Kysely<Database>, userType: string): Promise<number> {
  const role = await db.selectFrom('roles').select('id').where('user_type', '=', userType).where('is_default', '=', 1).executeTakeFirst();
  if (!role) throw new BusinessError('NO_DEFAULT_ROLE', { userType });
  return role.id;
}

/** Gives a user the default role of their user type. */
export async function assignDefaultRole(db: Kysely<Database>, userId: number, userType: string): Promise<void> {
  await db.insertInto('user_roles').values({ user_id: userId, role_id: await defaultRoleId(db, userType) }).execute();
}
