import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../connect.js';

/**
 * Text answers marked for a release (docs/product-rules.md#text-answers-read): staff review a text
 * question's answers and mark each shown or hidden; a release of the results shows only those
 * marked shown. An answer without a row is hidden: nothing is released unless someone read it.
 *
 * One row per reviewed answer, keyed as the answer is (reply, question). `marked_by` is the member
 * of staff who marked it — never the respondent, so an anonymous reply gains no link to a person.
 * WITHOUT ROWID on SQLite, like reply_answers: a row sits in key order (the reply's random id),
 * never in the order the answers were marked. Archived with the replies (school decisions, not
 * derived); gone with the reply or the questionnaire.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const marks = db.schema
    .createTable('text_answer_marks')
    .addColumn('reply_id', 'text', (c) => c.notNull().references('replies.id').onDelete('cascade'))
    .addColumn('question_id', 'text', (c) => c.notNull())
    .addColumn('questionnaire_id', 'integer', (c) => c.notNull().references('questionnaires.id').onDelete('cascade'))
    .addColumn('shown', 'integer', (c) => c.notNull())
    .addColumn('marked_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('marked_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('text_answer_marks_pk', ['reply_id', 'question_id']);
  await (isPostgres(db) ? marks : marks.modifyEnd(sql`without rowid`)).execute();
  // a questionnaire's marks of one question, for the texts' shown/hidden filter and the release
  await db.schema.createIndex('text_answer_marks_question_idx').on('text_answer_marks').columns(['questionnaire_id', 'question_id', 'shown']).execute();
  // a member of staff removed: their marks keep, without the name
  await db.schema.createIndex('text_answer_marks_marker_idx').on('text_answer_marks').column('marked_by').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('text_answer_marks').execute();
}
