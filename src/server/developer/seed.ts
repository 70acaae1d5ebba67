import { ACTIONS, DEFAULT_ROLE_PERMISSIONS, DEFAULT_ROLES, PAGES } from '../../shared/permissions.js';
import type { DB } from '../db/connect.js';

const SYSTEM = 'QE';

/**
 * Makes sure every page and action QE knows exists in the database (adding, never
 * overwriting what the developer area changed), and creates the default roles with their
 * permissions the first time. Safe to run at every start.
 */
export async function seedPermissionModel(db: DB): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const added: { id: number; permission: string }[] = [];
    for (const [i, page] of PAGES.entries()) {
      let menu = await trx.selectFrom('menus').select('id').where('system', '=', SYSTEM).where('code', '=', page.code).executeTakeFirst();
      if (!menu) {
        menu = await trx
          .insertInto('menus')
          .values({ system: SYSTEM, code: page.code, name_hk: page.nameHk, name_en: page.nameEn, sort: (i + 1) * 10 })
          .returning('id')
          .executeTakeFirstOrThrow();
      }
      const existing = new Set((await trx.selectFrom('actions').select('code').where('menu_id', '=', menu.id).execute()).map((a) => a.code));
      for (const code of page.actions) {
        if (existing.has(code)) continue;
        const def = ACTIONS.find((a) => a.code === code)!;
        const { id } = await trx
          .insertInto('actions')
          .values({ menu_id: menu.id, code, action_group: def.group, name_hk: def.nameHk, name_en: def.nameEn, sort: ACTIONS.indexOf(def) })
          .returning('id')
          .executeTakeFirstOrThrow();
        added.push({ id, permission: `${page.code}.${code}` });
      }
    }

    const anyRole = await trx.selectFrom('roles').select('id').executeTakeFirst();
    if (anyRole) {
      // an existing install: an action new in this version goes to the default roles that hold it out of the box
      for (const role of DEFAULT_ROLES) {
        const given = added.filter((a) => DEFAULT_ROLE_PERMISSIONS[role.userType].includes(a.permission));
        const row = await trx.selectFrom('roles').select('id').where('system', '=', SYSTEM).where('role_code', '=', role.roleCode).executeTakeFirst();
        if (row && given.length) await trx.insertInto('role_actions').values(given.map((a) => ({ role_id: row.id, action_id: a.id }))).execute();
      }
      return;
    }
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
        .values({ system: SYSTEM, user_type: role.userType, role_code: role.roleCode, name_hk: role.nameHk, name_en: role.nameEn, remark: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      const values = DEFAULT_ROLE_PERMISSIONS[role.userType].map((p) => ({ role_id: id, action_id: actionId.get(p)! }));
      if (values.length) await trx.insertInto('role_actions').values(values).execute();
    }
  });
}

/** Gives a user the default role of their user type. */
export async function assignDefaultRole(db: DB, userId: number, userType: string): Promise<void> {
  const role = await db.selectFrom('roles').select('id').where('role_code', '=', userType).executeTakeFirst();
  if (role) await db.insertInto('user_roles').values({ user_id: userId, role_id: role.id }).execute();
}
