import type { Kysely } from 'kysely';

/** A session opened from a reminder mail's link reaches one questionnaire only. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('questionnaire_id', 'integer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('questionnaire_id').execute();
}
