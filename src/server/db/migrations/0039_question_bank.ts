import type { Kysely } from 'kysely';
import { withId } from '../columns.js';

/**
 * The school's question bank (docs/product-rules.md#question-bank): one question of any type, with
 * its options, rules and texts in both languages, kept as a one-question definition (its section
 * a placeholder, its go-to targets dropped), tagged and searched. A question inserted into a
 * questionnaire from the bank names it (`Question.bankId`), and the comparison across years
 * matches questions by that origin (statistics/series.ts), as it does the question the bank's was
 * saved from (`source_questionnaire_id`, `source_question_id`).
 *
 * `tags` is the tags as written (JSON array); `tag_keys` the same in lower case between `|`
 * (`|science|問卷|`), for the tag filter; `search_text` every text of both languages and the tags,
 * in lower case, for the search.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('question_bank'))
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('languages', 'text', (c) => c.notNull().defaultTo('zh-hk'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('title_hk', 'text')
    .addColumn('title_en', 'text')
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('tag_keys', 'text', (c) => c.notNull().defaultTo('|'))
    .addColumn('search_text', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('source_questionnaire_id', 'integer', (c) => c.references('questionnaires.id').onDelete('set null'))
    .addColumn('source_question_id', 'text')
    .addColumn('retired', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // the comparison reads the bank questions saved from a series' questionnaires
  await db.schema.createIndex('question_bank_source_idx').on('question_bank').column('source_questionnaire_id').execute();
  await db.schema.createIndex('question_bank_created_by_idx').on('question_bank').column('created_by').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('question_bank').execute();
}
