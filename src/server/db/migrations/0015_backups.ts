import type { Kysely } from 'kysely';

/**
 * Scheduled backups: how often (hours; 0 is off) and how many scheduled archives to
 * keep, and when the last one was made — the claim that lets exactly one of several instances
 * make each backup.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('school').addColumn('backup_every_hours', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('school').addColumn('backup_keep', 'integer', (c) => c.notNull().defaultTo(7)).execute();
  await db.schema.alterTable('school').addColumn('backup_last_at', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('school').dropColumn('backup_last_at').execute();
  await db.schema.alterTable('school').dropColumn('backup_keep').execute();
  await db.schema.alterTable('school').dropColumn('backup_every_hours').execute();
}
