import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../connect.js';

/**
 * What several instances on one database need to behave as one QE (docs/architecture.md#several-instances-one-qe):
 *
 * - `import_claims`: the list an import is writing into, one row per list, claimed by one atomic
 *   statement (src/server/master/import-claims.ts), so of two imports into one list at once
 *   through any instances exactly one is refused (761). `heartbeat_at` moves while the claim is
 *   held; a claim whose heartbeat stopped (its instance died) is taken over.
 * - `mail_outbox`: the development outbox (QE_MAIL_OUTBOX), kept in the database rather than in one
 *   instance's data folder, so the mail setting screen lists the same mails through every instance.
 * - the permission catalogue's inserts move the `auth` counter as 0017's updates and deletes do:
 *   a page or an action added shows in every holder's permissions at once, on every instance.
 */
const CATALOGUE = ['menus', 'actions'];
const triggerName = (table: string) => `${table}_insert_cache_version`;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('import_claims')
    .addColumn('resource', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('heartbeat_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('mail_outbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('from_address', 'text', (c) => c.notNull())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text', (c) => c.notNull())
    .execute();
  for (const table of CATALOGUE) {
    await (isPostgres(db)
      ? sql`create trigger ${sql.id(triggerName(table))} after insert on ${sql.table(table)} for each statement execute function qe_cache_changed('auth')`
      : sql`create trigger ${sql.id(triggerName(table))} after insert on ${sql.table(table)} begin update cache_versions set version = version + 1 where name = 'auth'; end`
    ).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of CATALOGUE) await sql`drop trigger if exists ${sql.id(triggerName(table))}${isPostgres(db) ? sql` on ${sql.table(table)}` : sql``}`.execute(db);
  await db.schema.dropTable('mail_outbox').execute();
  await db.schema.dropTable('import_claims').execute();
}
