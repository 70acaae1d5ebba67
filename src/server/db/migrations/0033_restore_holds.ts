import type { Kysely } from 'kysely';

/**
 * Several instances on one PostgreSQL hold writes back together while one of them restores
 * (src/server/backup/restore-hold.ts): `instances` — each live instance, its heartbeat and the
 * restore it has held its writes back for (its calls inside have finished); `restore_holds` — at
 * most one row (slot 1): the restore under way, by which instance. Neither is archived nor
 * cleared by a restore's swap (backup/format.ts INSTANCE_TABLES): they describe the processes,
 * not the school.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('instances')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('seen_at', 'bigint', (c) => c.notNull())
    .addColumn('held_for', 'text')
    .execute();
  await db.schema
    .createTable('restore_holds')
    .addColumn('slot', 'integer', (c) => c.primaryKey())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('instance_id', 'text', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('restore_holds').execute();
  await db.schema.dropTable('instances').execute();
}
