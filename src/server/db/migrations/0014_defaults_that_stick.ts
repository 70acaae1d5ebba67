import type { Kysely } from 'kysely';

/**
 * Two known defects of the permission model, fixed here:
 * - the role a new account gets was found by its code (`role_code = user type`), so renaming or
 *   deleting a default role left new accounts with no role. A role now says explicitly that it
 *   is the one new accounts of its user type get (`is_default`); the default roles keep it.
 * - every start re-added the menus and actions a super administrator had deleted. `seeded_codes`
 *   remembers which page (`page`) and action (`page.action`) codes QE has seeded once, so a
 *   deleted one stays deleted while codes new to an upgrade are still seeded. What exists now
 *   counts as seeded.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('roles').addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  for (const type of ['SUPER_ADMIN', 'ADMIN', 'TEACHER', 'STUDENT']) {
    await db.updateTable('roles').set({ is_default: 1 }).where('role_code', '=', type).where('user_type', '=', type).execute();
  }

  await db.schema
    .createTable('seeded_codes')
    .addColumn('system', 'text', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('seeded_codes_pk', ['system', 'code'])
    .execute();
  const menus = await db.selectFrom('menus').select(['system', 'code']).execute();
  const actions = await db
    .selectFrom('actions as a')
    .innerJoin('menus as m', 'm.id', 'a.menu_id')
    .select(['m.system', 'm.code as page', 'a.code'])
    .execute();
  const seeded = [...menus.map((m) => ({ system: m.system, code: m.code })), ...actions.map((a) => ({ system: a.system, code: `${a.page}.${a.code}` }))];
  for (let i = 0; i < seeded.length; i += 200) await db.insertInto('seeded_codes').values(seeded.slice(i, i + 200)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('seeded_codes').execute();
  await db.schema.alterTable('roles').dropColumn('is_default').execute();
}
