import { sql, type Kysely } from 'kysely';

/**
 * Each counter of answer_counts (0018) summed over the respondent groups, per (question, item,
 * column): what results for everyone read — about a thousand rows for a 40-question
 * questionnaire, where its counters of every group were eleven thousand to sum. Kept by the same
 * writers in the same transactions (statistics/answerRows.ts); derived data, recounted after a
 * restore like the counters.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('answer_totals')
    .addColumn('questionnaire_id', 'integer', (c) => c.notNull().references('questionnaires.id').onDelete('cascade'))
    .addColumn('question_id', 'text', (c) => c.notNull())
    .addColumn('item', 'text', (c) => c.notNull())
    .addColumn('col', 'text', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('answer_totals_pk', ['questionnaire_id', 'question_id', 'item', 'col'])
    .execute();
  await sql`insert into answer_totals (questionnaire_id, question_id, item, col, n)
    select questionnaire_id, question_id, item, col, sum(n) from answer_counts group by questionnaire_id, question_id, item, col`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('answer_totals').execute();
}
