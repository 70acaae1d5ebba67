import type { Kysely } from 'kysely';
import { DEFAULT_TIME_ZONE, schoolDate } from '../../../shared/school-clock.js';

/**
 * Anonymous replies are released in batches (see src/server/filling/mixing.ts): `released`
 * says whether a reply counts in results yet. Replies already stored were visible: they stay
 * so. An anonymous questionnaire's feedback keeps the day of a submission, never the time
 * (the time, beside the order in which replies were written, would pair them). The day is
 * Hong Kong's: the school's time zone became a setting later (0029), Hong Kong's by default.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('replies').addColumn('released', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await db.schema.createIndex('replies_release_idx').on('replies').columns(['questionnaire_id', 'released']).execute();
  const anonymous = db.selectFrom('questionnaires').select('id').where('type', '=', 'ANONYMOUS');
  const submitted = await db
    .selectFrom('feedback')
    .select(['id', 'submitted_at'])
    .where('questionnaire_id', 'in', anonymous)
    .where('submitted_at', 'is not', null)
    .execute();
  for (const f of submitted) {
    if (f.submitted_at.length > 10) await db.updateTable('feedback').set({ submitted_at: schoolDate(f.submitted_at, DEFAULT_TIME_ZONE) }).where('id', '=', f.id).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('replies_release_idx').execute();
  await db.schema.alterTable('replies').dropColumn('released').execute();
}
