import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../connect.js';

/**
 * Counters that changes to what QE keeps in memory move on, by name: `auth` — a session revoked
 * or removed, an account's type, active flag or status, a role given or taken, a role's actions,
 * the action catalogue; `calendar` — school years and terms. Each instance keeps sessions,
 * permission codes and the calendar in memory and reads these counters on every request
 * (src/server/auth/session-cache.ts), so a change applies at once on every instance. Triggers
 * rather than application code: a change made anywhere — a service, a roll-over, a restore, a
 * script — moves them, in the transaction that makes it.
 */
const WATCHED: { table: string; events: string[]; counter: 'auth' | 'calendar' }[] = [
  { table: 'sessions', events: ['update', 'delete'], counter: 'auth' },
  { table: 'users', events: ['update of user_type, active, status', 'delete'], counter: 'auth' },
  { table: 'user_roles', events: ['insert', 'update', 'delete'], counter: 'auth' },
  { table: 'role_actions', events: ['insert', 'update', 'delete'], counter: 'auth' },
  { table: 'roles', events: ['delete'], counter: 'auth' },
  { table: 'actions', events: ['update', 'delete'], counter: 'auth' },
  { table: 'menus', events: ['update', 'delete'], counter: 'auth' },
  { table: 'school_years', events: ['insert', 'update', 'delete'], counter: 'calendar' },
  { table: 'terms', events: ['insert', 'update', 'delete'], counter: 'calendar' },
];

const triggerName = (table: string, event: string) => `${table}_${event.split(' ')[0]}_cache_version`;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('cache_versions').addColumn('name', 'text', (c) => c.primaryKey()).addColumn('version', 'bigint', (c) => c.notNull()).execute();
  await db.insertInto('cache_versions').values([{ name: 'auth', version: 1 }, { name: 'calendar', version: 1 }]).execute();
  if (isPostgres(db)) {
    // search_path from the migration's: a restore's staging schema moves its own counters
    await sql`create function qe_cache_changed() returns trigger language plpgsql set search_path from current as $$
      begin
        update cache_versions set version = version + 1 where name = tg_argv[0];
        return null;
      end $$`.execute(db);
  }
  for (const { table, events, counter } of WATCHED) {
    for (const event of events) {
      await (isPostgres(db)
        ? sql`create trigger ${sql.id(triggerName(table, event))} after ${sql.raw(event)} on ${sql.table(table)} for each statement execute function qe_cache_changed(${sql.lit(counter)})`
        : sql`create trigger ${sql.id(triggerName(table, event))} after ${sql.raw(event)} on ${sql.table(table)} begin update cache_versions set version = version + 1 where name = ${sql.lit(counter)}; end`
      ).execute(db);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const { table, events } of WATCHED) {
    for (const event of events) await sql`drop trigger if exists ${sql.id(triggerName(table, event))}${isPostgres(db) ? sql` on ${sql.table(table)}` : sql``}`.execute(db);
  }
  if (isPostgres(db)) await sql`drop function if exists qe_cache_changed()`.execute(db);
  await db.schema.dropTable('cache_versions').execute();
}
