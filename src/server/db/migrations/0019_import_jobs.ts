import type { Kysely } from 'kysely';
import { withId } from '../columns.js';

/**
 * Imports whose rows each bring their own initial password: the file is checked at
 * once, the passwords are hashed afterwards as a job, and the rows are written in one
 * transaction together with the job's outcome — so after a restart the job says truly whether
 * the whole file was imported or none of it. `heartbeat_at` moves while the job runs; a running
 * job whose heartbeat stopped was cut off by a restart (nothing of it was written).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('import_jobs'))
    .addColumn('resource', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('rows', 'integer', (c) => c.notNull())
    .addColumn('passwords', 'integer', (c) => c.notNull())
    .addColumn('hashed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('added', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('skipped', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('errors', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('heartbeat_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema.createIndex('import_jobs_user_idx').on('import_jobs').columns(['user_id', 'resource', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('import_jobs').execute();
}
