import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../connect.js';
import { rebuildTerms } from '../../statistics/terms.js';

/**
 * Text answers read (docs/product-rules.md#text-answers-read): the words and phrases of each stored
 * text (reply_answers), counted as the texts are stored, so the most frequent ones of a question
 * cost as much as the list shown, not as the number of answers.
 *
 * - `text_terms`: which answers use a term — one row per (question, part, term, reply), led by
 *   the term so that choosing it reads its answers' ids in one range.
 * - `term_counts`: how many answers use a term, per respondent group (role, grade, class — '' and 0
 *   where none), as answer_counts; `term_totals` the same summed over the groups, read for everyone
 *   through an index in count order. All three WITHOUT ROWID on SQLite, like reply_answers: a
 *   term's row sits in key order, never in the order anonymous batches were released.
 * Derived data, like the counters: not archived, made again after a restore (statistics/answerRows.ts
 * recountAnswers); what is already stored is read in here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const terms = db.schema
    .createTable('text_terms')
    .addColumn('questionnaire_id', 'integer', (c) => c.notNull().references('questionnaires.id').onDelete('cascade'))
    .addColumn('question_id', 'text', (c) => c.notNull())
    .addColumn('item', 'text', (c) => c.notNull())
    .addColumn('term', 'text', (c) => c.notNull())
    .addColumn('reply_id', 'text', (c) => c.notNull().references('replies.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('text_terms_pk', ['questionnaire_id', 'question_id', 'item', 'term', 'reply_id']);
  await (isPostgres(db) ? terms : terms.modifyEnd(sql`without rowid`)).execute();
  // a reply's rows, for the cascade when a reply goes
  await db.schema.createIndex('text_terms_reply_idx').on('text_terms').column('reply_id').execute();
  const counts = db.schema
    .createTable('term_counts')
    .addColumn('questionnaire_id', 'integer', (c) => c.notNull().references('questionnaires.id').onDelete('cascade'))
    .addColumn('question_id', 'text', (c) => c.notNull())
    .addColumn('item', 'text', (c) => c.notNull())
    .addColumn('term', 'text', (c) => c.notNull())
    .addColumn('respondent_role', 'text', (c) => c.notNull())
    .addColumn('grade_id', 'integer', (c) => c.notNull())
    .addColumn('class_id', 'integer', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('term_counts_pk', ['questionnaire_id', 'question_id', 'item', 'term', 'respondent_role', 'grade_id', 'class_id']);
  await (isPostgres(db) ? counts : counts.modifyEnd(sql`without rowid`)).execute();
  const totals = db.schema
    .createTable('term_totals')
    .addColumn('questionnaire_id', 'integer', (c) => c.notNull().references('questionnaires.id').onDelete('cascade'))
    .addColumn('question_id', 'text', (c) => c.notNull())
    .addColumn('item', 'text', (c) => c.notNull())
    .addColumn('term', 'text', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('term_totals_pk', ['questionnaire_id', 'question_id', 'item', 'term']);
  await (isPostgres(db) ? totals : totals.modifyEnd(sql`without rowid`)).execute();
  await db.schema.createIndex('term_totals_top_idx').on('term_totals').columns(['questionnaire_id', 'question_id', 'item', 'n']).execute();
  await rebuildTerms(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['term_totals', 'term_counts', 'text_terms']) await db.schema.dropTable(table).execute();
}
