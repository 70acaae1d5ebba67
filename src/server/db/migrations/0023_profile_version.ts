import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../connect.js';

/**
 * A counter `profile` (beside 0017's) moved on by any change to an account's row — its login
 * times included, which 0021's `rows:users` leaves out — or to a personal-data request: what
 * user-info answers of the user, kept in memory under it (src/server/auth/session-cache.ts).
 */
const WATCHED: { table: string; events: string[] }[] = [
  { table: 'users', events: ['update', 'delete'] },
  { table: 'personal_data_requests', events: ['insert', 'update', 'delete'] },
];

const triggerName = (table: string, event: string) => `${table}_${event}_profile_version`;

export async function up(db: Kysely<any>): Promise<void> {
  await db.insertInto('cache_versions').values({ name: 'profile', version: 1 }).execute();
  for (const { table, events } of WATCHED) {
    for (const event of events) {
      await (isPostgres(db)
        ? sql`create trigger ${sql.id(triggerName(table, event))} after ${sql.raw(event)} on ${sql.table(table)} for each statement execute function qe_cache_changed('profile')`
        : sql`create trigger ${sql.id(triggerName(table, event))} after ${sql.raw(event)} on ${sql.table(table)} begin update cache_versions set version = version + 1 where name = 'profile'; end`
      ).execute(db);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const { table, events } of WATCHED) {
    for (const event of events) await sql`drop trigger if exists ${sql.id(triggerName(table, event))}${isPostgres(db) ? sql` on ${sql.table(table)}` : sql``}`.execute(db);
  }
  await db.deleteFrom('cache_versions').where('name', '=', 'profile').execute();
}
