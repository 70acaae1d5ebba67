import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../connect.js';
import { withId } from '../columns.js';

/**
 * Several instances on one PostgreSQL are one QE, so what one instance stores others
 * must read: on PostgreSQL uploaded images and backup archives live here (src/server/storage/
 * file-store.ts) — a file's row, its bytes in chunks of at most 1 MiB streamed in and out, the
 * row `complete` only once every chunk is written. On SQLite (one server) the files stay in
 * their folders and these tables stay empty.
 *
 * backup_job: the one backup or restore job (id 1) — its progress read through any instance, and
 * claimed by one conditional update, so two instances cannot run one each; a running job whose
 * heartbeat stopped (its instance died) no longer holds the claim.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('stored_files'))
    // 'storage' (the uploads of /qe/storage/) or 'backups' (archives and their .json)
    .addColumn('area', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('complete', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // one complete file per name; partly written ones beside it are invisible
  await sql`create unique index stored_files_path_idx on stored_files (area, path) where complete = 1`.execute(db);
  await db.schema
    .createTable('stored_file_chunks')
    .addColumn('file_id', 'integer', (c) => c.notNull().references('stored_files.id').onDelete('cascade'))
    .addColumn('n', 'integer', (c) => c.notNull())
    .addColumn('bytes', isPostgres(db) ? 'bytea' : 'blob', (c) => c.notNull())
    .addPrimaryKeyConstraint('stored_file_chunks_pk', ['file_id', 'n'])
    .execute();
  await db.schema
    .createTable('backup_job')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('job_id', 'text')
    .addColumn('kind', 'text')
    .addColumn('state', 'text')
    .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('name', 'text')
    .addColumn('error_code', 'integer')
    .addColumn('error_message', 'text')
    .addColumn('heartbeat_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.insertInto('backup_job').values({ id: 1 }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('backup_job').execute();
  await db.schema.dropTable('stored_file_chunks').execute();
  await db.schema.dropTable('stored_files').execute();
}
