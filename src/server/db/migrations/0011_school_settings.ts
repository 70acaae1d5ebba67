import type { Kysely } from 'kysely';

/**
 * School settings: whether creators must bind a Google account before they create a
 * questionnaire. Off for every school, new or existing: QE has its own designer, so Google is an
 * option the school turns on, not a gate.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('school').addColumn('google_required', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('school').dropColumn('google_required').execute();
}
