import type { Kysely } from 'kysely';

/**
 * The "new school year" roll-over: the date a prepared year becomes the current
 * one (the scheduler switches it; null when no switch is waiting), and when a year was filled
 * by a roll-over (a second roll-over into the same year is refused).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('school_years').addColumn('switch_date', 'text').execute();
  await db.schema.alterTable('school_years').addColumn('rolled_over_at', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('school_years').dropColumn('rolled_over_at').execute();
  await db.schema.alterTable('school_years').dropColumn('switch_date').execute();
}
