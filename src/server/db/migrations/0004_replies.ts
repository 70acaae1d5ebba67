import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../connect.js';

/**
 * Replies, kept apart from who replied (docs/security.md#anonymous-means-unlinkable): a reply of an anonymous questionnaire
 * has a random id, no feedback or user id and only the date it came in, so nothing joins it
 * back to a person — not even its place in the table (SQLite stores it WITHOUT ROWID, in id
 * order). The feedback record keeps "has submitted" and the submission key that makes a
 * repeated submit answer the first result.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const table = db.schema
    .createTable('replies')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('questionnaire_id', 'integer', (c) => c.notNull().references('questionnaires.id').onDelete('cascade'))
    // null for an anonymous questionnaire
    .addColumn('feedback_id', 'integer', (c) => c.references('feedback.id').onDelete('cascade').unique())
    .addColumn('submitted_on', 'text', (c) => c.notNull())
    .addColumn('answers', 'text', (c) => c.notNull());
  await (isPostgres(db) ? table : table.modifyEnd(sql`without rowid`)).execute();
  await db.schema.createIndex('replies_questionnaire_idx').on('replies').column('questionnaire_id').execute();
  await db.schema.alterTable('feedback').addColumn('submission_key', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('feedback').dropColumn('submission_key').execute();
  await db.schema.dropTable('replies').execute();
}
