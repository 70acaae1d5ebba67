import type { Kysely } from 'kysely';

/**
 * The reminder in English beside the Chinese one: the mail setting's `reminder_subject` and
 * `reminder_content` stay the Chinese template, the schools' own language, and the new columns
 * hold the English template. Each recipient gets the template of their language, and an English
 * reader gets the Chinese template while the English one is empty (null), as every setting
 * written before this has it (src/server/questionnaires/notice.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mail_settings').addColumn('reminder_subject_en', 'text').execute();
  await db.schema.alterTable('mail_settings').addColumn('reminder_content_en', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mail_settings').dropColumn('reminder_content_en').execute();
  await db.schema.alterTable('mail_settings').dropColumn('reminder_subject_en').execute();
}
