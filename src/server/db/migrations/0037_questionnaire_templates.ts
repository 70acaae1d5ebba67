import type { Kysely } from 'kysely';
import { withId } from '../columns.js';

/**
 * Questionnaire templates (docs/product-rules.md#templates): a questionnaire's definition, both
 * languages, its type and an audience kind that means the same people in any school year (no
 * class or person ids), without dates or replies. `starter_key` names a template of QE's starter
 * set (templates/starters.ts), installed once. A questionnaire made from a template names it:
 * `questionnaires.template_id`; questionnaires made from one template are a series, compared
 * across years (statistics/series.ts). A template's questions keep their ids in every
 * questionnaire made from it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('questionnaire_templates'))
    .addColumn('name_hk', 'text', (c) => c.notNull())
    .addColumn('name_en', 'text', (c) => c.notNull())
    .addColumn('description_hk', 'text')
    .addColumn('description_en', 'text')
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('languages', 'text', (c) => c.notNull().defaultTo('zh-hk'))
    .addColumn('type', 'text', (c) => c.notNull().defaultTo('NAMED'))
    .addColumn('audience_kind', 'text', (c) => c.notNull().defaultTo('NONE'))
    .addColumn('grade_code', 'text')
    .addColumn('retired', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('starter_key', 'text', (c) => c.unique())
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('questionnaires').addColumn('template_id', 'integer', (c) => c.references('questionnaire_templates.id').onDelete('set null')).execute();
  await db.schema.createIndex('questionnaires_template_idx').on('questionnaires').column('template_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('questionnaires_template_idx').execute();
  await db.schema.alterTable('questionnaires').dropColumn('template_id').execute();
  await db.schema.dropTable('questionnaire_templates').execute();
}
