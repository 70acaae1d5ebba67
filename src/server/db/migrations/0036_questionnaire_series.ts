import type { Kysely } from 'kysely';

/**
 * A questionnaire made from another (a copy, a copy for this year) names it: `source_id`. The
 * questionnaires so linked, each way, are a series — the same survey run again — whose results
 * the comparison across years puts side by side (statistics/series.ts); a copy keeps its
 * questions' ids, so the same question is matched in every year. A source deleted leaves the
 * copies' link empty.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('questionnaires').addColumn('source_id', 'integer', (c) => c.references('questionnaires.id').onDelete('set null')).execute();
  await db.schema.createIndex('questionnaires_source_idx').on('questionnaires').column('source_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('questionnaires_source_idx').execute();
  await db.schema.alterTable('questionnaires').dropColumn('source_id').execute();
}
