import type { Kysely } from 'kysely';
import { withId } from '../columns.js';

/** Teacher groups and their members, the mail setting, and the indexes the master lists sort and search by. */
export async function up(db: Kysely<any>): Promise<void> {
  const s = db.schema;
  await withId(db, s.createTable('teacher_groups'))
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('name_hk', 'text', (c) => c.notNull())
    .addColumn('name_en', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await s
    .createTable('teacher_group_members')
    .addColumn('group_id', 'integer', (c) => c.notNull().references('teacher_groups.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('teacher_group_members_pk', ['group_id', 'user_id'])
    .execute();
  await s.createIndex('teacher_group_members_user_idx').on('teacher_group_members').column('user_id').execute();
  await withId(db, s.createTable('mail_settings'))
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('port', 'integer', (c) => c.notNull())
    .addColumn('secure', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('username', 'text')
    .addColumn('password', 'text')
    .addColumn('from_address', 'text', (c) => c.notNull())
    .addColumn('from_name', 'text')
    .addColumn('reminder_subject', 'text', (c) => c.notNull())
    .addColumn('reminder_content', 'text', (c) => c.notNull())
    .execute();
  await s.createIndex('users_type_no_idx').on('users').columns(['user_type', 'user_no']).execute();
  await s.createIndex('users_position_idx').on('users').column('position_id').execute();
  await s.createIndex('student_classes_user_idx').on('student_classes').columns(['user_id', 'school_year_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('student_classes_user_idx').execute();
  await db.schema.dropIndex('users_position_idx').execute();
  await db.schema.dropIndex('users_type_no_idx').execute();
  for (const t of ['mail_settings', 'teacher_group_members', 'teacher_groups']) await db.schema.dropTable(t).execute();
}
