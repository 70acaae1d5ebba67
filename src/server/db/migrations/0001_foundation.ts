import type { Kysely } from 'kysely';
import { withId } from '../columns.js';

/** The school, accounts and sessions, the permission model, and the school's calendar and classes. */
export async function up(db: Kysely<any>): Promise<void> {
  const s = db.schema;
  await withId(db, s.createTable('school'))
    .addColumn('name_hk', 'text', (c) => c.notNull())
    .addColumn('name_en', 'text', (c) => c.notNull())
    .addColumn('school_logo', 'text')
    .addColumn('address_hk', 'text')
    .addColumn('address_en', 'text')
    .addColumn('tel', 'text')
    .addColumn('fax', 'text')
    .addColumn('email', 'text')
    .addColumn('host', 'text')
    .addColumn('app_logo', 'text')
    .addColumn('app_view', 'text')
    .addColumn('graduate_grade', 'text')
    .addColumn('school_pre', 'text')
    .addColumn('grade_range', 'text')
    .addColumn('edac_connect', 'text')
    .addColumn('languages', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await withId(db, s.createTable('positions'))
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('name_hk', 'text', (c) => c.notNull())
    .addColumn('name_en', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await withId(db, s.createTable('users'))
    .addColumn('username', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('user_type', 'text', (c) => c.notNull())
    .addColumn('user_no', 'text', (c) => c.unique())
    .addColumn('name_hk', 'text', (c) => c.notNull())
    .addColumn('name_en', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('google_mail', 'text')
    .addColumn('tel', 'text')
    .addColumn('gender', 'text')
    .addColumn('birthday', 'text')
    .addColumn('avatar', 'text')
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('1'))
    .addColumn('abbr', 'text')
    .addColumn('position_id', 'integer', (c) => c.references('positions.id'))
    .addColumn('seq', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('leave_date', 'text')
    .addColumn('login_time', 'text')
    .addColumn('last_login', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await s.createIndex('users_type_idx').on('users').columns(['user_type', 'seq']).execute();

  await s
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await s.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

  await s
    .createTable('login_failures')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .execute();

  await withId(db, s.createTable('menus'))
    .addColumn('system', 'text', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('name_hk', 'text', (c) => c.notNull())
    .addColumn('name_en', 'text', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('menus_system_code_uq', ['system', 'code'])
    .execute();

  await withId(db, s.createTable('actions'))
    .addColumn('menu_id', 'integer', (c) => c.notNull().references('menus.id').onDelete('cascade'))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('action_group', 'integer', (c) => c.notNull())
    .addColumn('name_hk', 'text', (c) => c.notNull())
    .addColumn('name_en', 'text', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('actions_menu_code_uq', ['menu_id', 'code'])
    .execute();

  await withId(db, s.createTable('roles'))
    .addColumn('system', 'text', (c) => c.notNull())
    .addColumn('user_type', 'text', (c) => c.notNull())
    .addColumn('role_code', 'text', (c) => c.notNull().unique())
    .addColumn('name_hk', 'text', (c) => c.notNull())
    .addColumn('name_en', 'text', (c) => c.notNull())
    .addColumn('remark', 'text')
    .execute();

  await s
    .createTable('role_actions')
    .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
    .addColumn('action_id', 'integer', (c) => c.notNull().references('actions.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('role_actions_pk', ['role_id', 'action_id'])
    .execute();

  await s
    .createTable('user_roles')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('user_roles_pk', ['user_id', 'role_id'])
    .execute();

  await withId(db, s.createTable('school_years'))
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('begin_date', 'text', (c) => c.notNull())
    .addColumn('end_date', 'text', (c) => c.notNull())
    .addColumn('year_status', 'text', (c) => c.notNull().defaultTo('0'))
    .execute();

  await withId(db, s.createTable('terms'))
    .addColumn('school_year_id', 'integer', (c) => c.notNull().references('school_years.id').onDelete('cascade'))
    .addColumn('name_hk', 'text', (c) => c.notNull())
    .addColumn('name_en', 'text', (c) => c.notNull())
    .addColumn('begin_date', 'text', (c) => c.notNull())
    .addColumn('end_date', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await withId(db, s.createTable('grades'))
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('name_hk', 'text', (c) => c.notNull())
    .addColumn('name_en', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await withId(db, s.createTable('classes'))
    .addColumn('grade_id', 'integer', (c) => c.notNull().references('grades.id'))
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('name_hk', 'text', (c) => c.notNull())
    .addColumn('name_en', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await withId(db, s.createTable('student_classes'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('school_year_id', 'integer', (c) => c.notNull().references('school_years.id'))
    .addColumn('class_id', 'integer', (c) => c.notNull().references('classes.id'))
    .addColumn('student_number', 'integer', (c) => c.notNull())
    .addUniqueConstraint('student_classes_user_year_uq', ['user_id', 'school_year_id'])
    .execute();
  await s.createIndex('student_classes_class_idx').on('student_classes').columns(['school_year_id', 'class_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'student_classes', 'classes', 'grades', 'terms', 'school_years', 'user_roles', 'role_actions',
    'roles', 'actions', 'menus', 'login_failures', 'sessions', 'users', 'positions', 'school',
  ]) {
    await db.schema.dropTable(t).execute();
  }
}
