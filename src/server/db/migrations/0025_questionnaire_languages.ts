import type { Kysely } from 'kysely';

/**
 * A questionnaire in one or two languages (docs/questionnaire-languages.md): `languages` mirrors
 * its definition's (main first, comma-separated), so that lists pick each reader's title without
 * reading definitions; `title_translation` is the title in the second language. Every earlier
 * questionnaire was written in Chinese only.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('questionnaires').addColumn('languages', 'text', (c) => c.notNull().defaultTo('zh-hk')).execute();
  await db.schema.alterTable('questionnaires').addColumn('title_translation', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('questionnaires').dropColumn('title_translation').execute();
  await db.schema.alterTable('questionnaires').dropColumn('languages').execute();
}
