import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../connect.js';

/**
 * The school's time zone (an IANA name, Asia/Hong_Kong by default): the clock every day and time
 * QE shows, exports, prints or mails is read on (src/shared/school-clock.ts). Each instance keeps
 * it in memory under the counter `school` of cache_versions (0017's), which triggers move on in
 * the transaction of every change to the zone — the settings screen, a restore's swap, a script —
 * so a change holds on every instance at the next read (src/server/school/clock.ts).
 */
const EVENTS = ['insert', 'update of time_zone', 'delete'];
const triggerName = (event: string) => `school_${event.split(' ')[0]}_clock_version`;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('school').addColumn('time_zone', 'text', (c) => c.notNull().defaultTo('Asia/Hong_Kong')).execute();
  await db.insertInto('cache_versions').values({ name: 'school', version: 1 }).execute();
  for (const event of EVENTS) {
    await (isPostgres(db)
      ? sql`create trigger ${sql.id(triggerName(event))} after ${sql.raw(event)} on school for each statement execute function qe_cache_changed('school')`
      : sql`create trigger ${sql.id(triggerName(event))} after ${sql.raw(event)} on school begin update cache_versions set version = version + 1 where name = 'school'; end`
    ).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const event of EVENTS) await sql`drop trigger if exists ${sql.id(triggerName(event))}${isPostgres(db) ? sql` on school` : sql``}`.execute(db);
  await db.deleteFrom('cache_versions').where('name', '=', 'school').execute();
  await db.schema.alterTable('school').dropColumn('time_zone').execute();
}
