import type { Kysely } from 'kysely';

/**
 * `replies_questionnaire_idx` (0004) indexes `questionnaire_id` alone, which `replies_group_idx`
 * (0007) and `replies_release_idx` (0016) both begin with: a read by questionnaire uses either of
 * them as well, and every stored reply wrote one index entry more than it needed, inside the
 * submissions' transaction (a tenth of SQLite's time storing a group of replies).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('replies_questionnaire_idx').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('replies_questionnaire_idx').on('replies').column('questionnaire_id').execute();
}
