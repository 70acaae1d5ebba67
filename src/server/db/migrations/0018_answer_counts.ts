import { sql, type Kysely } from 'kysely';

/**
 * Statistics from counters: how many rows of reply_answers each (question, item,
 * column) has per respondent group (role, grade, class — '' and 0 where a reply has none), kept
 * as the rows are written (statistics/answerRows.ts), so a questionnaire's results cost as much
 * as its size, not as its number of replies. Derived data: not archived, recounted after a restore.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('answer_counts')
    .addColumn('questionnaire_id', 'integer', (c) => c.notNull().references('questionnaires.id').onDelete('cascade'))
    .addColumn('question_id', 'text', (c) => c.notNull())
    .addColumn('item', 'text', (c) => c.notNull())
    .addColumn('col', 'text', (c) => c.notNull())
    .addColumn('respondent_role', 'text', (c) => c.notNull())
    .addColumn('grade_id', 'integer', (c) => c.notNull())
    .addColumn('class_id', 'integer', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('answer_counts_pk', ['questionnaire_id', 'question_id', 'item', 'col', 'respondent_role', 'grade_id', 'class_id'])
    .execute();
  await sql`insert into answer_counts (questionnaire_id, question_id, item, col, respondent_role, grade_id, class_id, n)
    select questionnaire_id, question_id, item, col, coalesce(respondent_role, ''), coalesce(grade_id, 0), coalesce(class_id, 0), count(*)
    from reply_answers group by questionnaire_id, question_id, item, col, coalesce(respondent_role, ''), coalesce(grade_id, 0), coalesce(class_id, 0)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('answer_counts').execute();
}
