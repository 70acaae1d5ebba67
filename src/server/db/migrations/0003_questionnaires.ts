import type { Kysely } from 'kysely';
import { withId } from '../columns.js';

/** Questionnaires, their assistants, and one feedback record per respondent once a questionnaire opens. */
export async function up(db: Kysely<any>): Promise<void> {
  const s = db.schema;
  await withId(db, s.createTable('questionnaires'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('school_year_id', 'integer', (c) => c.references('school_years.id'))
    .addColumn('in_charge_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('open_date', 'text')
    .addColumn('end_date', 'text')
    .addColumn('create_date', 'text', (c) => c.notNull())
    .addColumn('last_notice_time', 'text')
    .addColumn('targets', 'text', (c) => c.notNull())
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await s.createIndex('questionnaires_status_idx').on('questionnaires').columns(['status', 'open_date']).execute();
  await s.createIndex('questionnaires_in_charge_idx').on('questionnaires').column('in_charge_id').execute();
  await s
    .createTable('questionnaire_assistants')
    .addColumn('questionnaire_id', 'integer', (c) => c.notNull().references('questionnaires.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('questionnaire_assistants_pk', ['questionnaire_id', 'user_id'])
    .execute();
  await s.createIndex('questionnaire_assistants_user_idx').on('questionnaire_assistants').column('user_id').execute();
  await withId(db, s.createTable('feedback'))
    .addColumn('questionnaire_id', 'integer', (c) => c.notNull().references('questionnaires.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('respondent_role', 'text', (c) => c.notNull())
    .addColumn('designated_code', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('submitted_at', 'text')
    .addColumn('notified_at', 'text')
    .addUniqueConstraint('feedback_questionnaire_user_uq', ['questionnaire_id', 'user_id'])
    .execute();
  await s.createIndex('feedback_user_idx').on('feedback').columns(['user_id', 'status']).execute();
  // the language a user last used, for mails sent to them (reminders)
  await s.alterTable('users').addColumn('language', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('language').execute();
  for (const t of ['feedback', 'questionnaire_assistants', 'questionnaires']) await db.schema.dropTable(t).execute();
}
