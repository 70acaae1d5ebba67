import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../connect.js';

/**
 * A counter per master-data table (`rows:<table>` in cache_versions, beside 0017's), moved on by
 * triggers in the transaction of every insert, update and delete, whoever makes it. A list's total
 * is kept while the counters of the tables it counts stay where they were
 * (src/server/master/kept-by-tables.ts): the count is what made a searched page of 5,000 students
 * slow, and paging through the same list counts the same rows again.
 *
 * `users` is watched for every column but those a login or a password change writes (a login
 * must not make every list count again): a column added later is watched only when a migration
 * says so — tests/server/master/kept-by-tables.test.ts fails for a column that is not.
 */
export const LOGIN_COLUMNS = ['last_login', 'login_time', 'language', 'password_hash', 'updated_at'];
const TABLES = ['users', 'student_classes', 'grades', 'classes', 'positions', 'school_years', 'teacher_groups', 'teacher_group_members', 'mail_settings'];

const counter = (table: string) => `rows:${table}`;
const triggerName = (table: string, event: string) => `${table}_${event}_row_version`;

async function columnsOf(db: Kysely<any>, table: string): Promise<string[]> {
  if (isPostgres(db)) {
    const { rows } = await sql<{ column_name: string }>`select column_name from information_schema.columns where table_schema = current_schema() and table_name = ${table} order by ordinal_position`.execute(db);
    return rows.map((r) => r.column_name);
  }
  const { rows } = await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db);
  return rows.map((r) => r.name);
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.insertInto('cache_versions').values(TABLES.map((t) => ({ name: counter(t), version: 1 }))).execute();
  for (const table of TABLES) {
    const watched = table === 'users' ? (await columnsOf(db, table)).filter((c) => !LOGIN_COLUMNS.includes(c)) : null;
    for (const event of ['insert', 'update', 'delete']) {
      const on = event === 'update' && watched ? sql.raw(`update of ${watched.map((c) => `"${c}"`).join(', ')}`) : sql.raw(event);
      await (isPostgres(db)
        ? sql`create trigger ${sql.id(triggerName(table, event))} after ${on} on ${sql.table(table)} for each statement execute function qe_cache_changed(${sql.lit(counter(table))})`
        : sql`create trigger ${sql.id(triggerName(table, event))} after ${on} on ${sql.table(table)} begin update cache_versions set version = version + 1 where name = ${sql.lit(counter(table))}; end`
      ).execute(db);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) {
    for (const event of ['insert', 'update', 'delete']) await sql`drop trigger if exists ${sql.id(triggerName(table, event))}${isPostgres(db) ? sql` on ${sql.table(table)}` : sql``}`.execute(db);
  }
  await db.deleteFrom('cache_versions').where('name', 'in', TABLES.map(counter)).execute();
}
