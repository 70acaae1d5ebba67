import type { Kysely } from 'kysely';

/**
 * A named questionnaire's answers being typed, kept on the server as well as in the browser so a
 * respondent can go on with them on another device (docs/product-rules.md#states,
 * src/server/filling/drafts.ts): one row per questionnaire and user, written by an upsert.
 * An anonymous questionnaire never has one (docs/security.md#anonymous-means-unlinkable).
 * Gone with the submission, when the questionnaire finishes, and with the questionnaire or the
 * user (the foreign keys); a restore clears them (src/server/backup/format.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('reply_drafts')
    .addColumn('questionnaire_id', 'integer', (c) => c.notNull().references('questionnaires.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // JSON: Answers, as the draft call kept them (only answers to the questionnaire's questions)
    .addColumn('answers', 'text', (c) => c.notNull())
    // ISO-8601 UTC, the server's clock
    .addColumn('saved_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('reply_drafts_pkey', ['questionnaire_id', 'user_id'])
    .execute();
  // a deleted user's drafts are found by the cascade without reading the whole table
  await db.schema.createIndex('reply_drafts_user_idx').on('reply_drafts').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('reply_drafts').execute();
}
