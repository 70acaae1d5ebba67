import type { Kysely } from 'kysely';

/** Anonymous replies not yet mixed (see src/server/filling/mixing.ts). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('replies').addColumn('mixed', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('replies').dropColumn('mixed').execute();
}
