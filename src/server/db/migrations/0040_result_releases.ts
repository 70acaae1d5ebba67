import type { Kysely } from 'kysely';

/**
 * Results released (docs/product-rules.md#results-released): after a questionnaire finishes, its
 * person in charge (or a results manager) releases a summary of it — the charts and the text
 * answers staff marked shown — to its respondents and/or to chosen members of staff, and may
 * withdraw it.
 *
 * One row per questionnaire (`result_releases`, keyed by it): whether its respondents read it,
 * who released it and when, and when it was withdrawn (null while it stands). The chosen staff are
 * rows of `result_release_staff`. A release made again after a withdrawal reuses the row. Archived
 * with the questionnaires (a school decision); gone with the questionnaire; a member of staff
 * removed leaves the list, and as the releaser leaves the row without a name.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('result_releases')
    .addColumn('questionnaire_id', 'integer', (c) => c.primaryKey().references('questionnaires.id').onDelete('cascade'))
    .addColumn('to_respondents', 'integer', (c) => c.notNull())
    .addColumn('released_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('released_at', 'text', (c) => c.notNull())
    .addColumn('withdrawn_at', 'text')
    .execute();
  // the member of staff removed: their releases keep, without the name
  await db.schema.createIndex('result_releases_released_by_idx').on('result_releases').column('released_by').execute();
  await db.schema
    .createTable('result_release_staff')
    .addColumn('questionnaire_id', 'integer', (c) => c.notNull().references('result_releases.questionnaire_id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('result_release_staff_pk', ['questionnaire_id', 'user_id'])
    .execute();
  // "released to me": a reader's summaries
  await db.schema.createIndex('result_release_staff_user_idx').on('result_release_staff').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('result_release_staff').execute();
  await db.schema.dropTable('result_releases').execute();
}
