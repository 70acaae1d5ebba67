import type { UserType } from '../../src/shared/permissions.js';

/**
 * What each default role holds out of the box, written out by hand from the role table of
 * docs/product-rules.md#roles-and-default-permissions. Deliberately not derived from
 * DEFAULT_ROLE_PERMISSIONS, which seeds the database: a wrong default grant there must fail
 * the tests that compare what the server answers with this table.
 */
const SUPER_ADMIN = [
  'form.view', 'form.add', 'form.edit', 'form.delete', 'form.management',
  'form-template.view', 'form-template.add', 'form-template.edit', 'form-template.delete',
  'question-bank.view', 'question-bank.add', 'question-bank.edit', 'question-bank.delete',
  'form-input.view',
  'data-statistics.view', 'data-statistics.export', 'data-statistics.print', 'data-statistics.management',
  'school-year.view', 'school-year.add', 'school-year.edit', 'school-year.delete', 'school-year.management',
  'grades.view', 'grades.add', 'grades.edit', 'grades.delete',
  'admin.view', 'admin.add', 'admin.edit', 'admin.delete', 'admin.import', 'admin.export',
  'teacher.view', 'teacher.add', 'teacher.edit', 'teacher.delete', 'teacher.import', 'teacher.export',
  'student.view', 'student.add', 'student.edit', 'student.delete', 'student.import', 'student.export',
  'mail.view', 'mail.edit',
  'position.view', 'position.add', 'position.edit', 'position.delete', 'position.export',
  'teacher-group.view', 'teacher-group.add', 'teacher-group.edit', 'teacher-group.delete', 'teacher-group.export',
  'menu.view', 'menu.add', 'menu.edit', 'menu.delete',
  'role.view', 'role.add', 'role.edit', 'role.delete', 'role.assign-roles',
  'help.view',
  'google-account.view',
  'school.view', 'school.edit',
  'personal-data.view', 'personal-data.personal', 'personal-data.apply', 'personal-data.approve',
  'backup.view', 'backup.backup', 'backup.restore', 'backup.delete',
  'sign-in.view', 'sign-in.edit',
];

/** Everything but the developer area (menus; roles but role.view) and backups. */
const ADMIN = [
  'form.view', 'form.add', 'form.edit', 'form.delete', 'form.management',
  'form-template.view', 'form-template.add', 'form-template.edit', 'form-template.delete',
  'question-bank.view', 'question-bank.add', 'question-bank.edit', 'question-bank.delete',
  'form-input.view',
  'data-statistics.view', 'data-statistics.export', 'data-statistics.print', 'data-statistics.management',
  'school-year.view', 'school-year.add', 'school-year.edit', 'school-year.delete', 'school-year.management',
  'grades.view', 'grades.add', 'grades.edit', 'grades.delete',
  'admin.view', 'admin.add', 'admin.edit', 'admin.delete', 'admin.import', 'admin.export',
  'teacher.view', 'teacher.add', 'teacher.edit', 'teacher.delete', 'teacher.import', 'teacher.export',
  'student.view', 'student.add', 'student.edit', 'student.delete', 'student.import', 'student.export',
  'mail.view', 'mail.edit',
  'position.view', 'position.add', 'position.edit', 'position.delete', 'position.export',
  'teacher-group.view', 'teacher-group.add', 'teacher-group.edit', 'teacher-group.delete', 'teacher-group.export',
  'role.view',
  'help.view',
  'google-account.view',
  'school.view', 'school.edit',
  'personal-data.view', 'personal-data.personal', 'personal-data.apply', 'personal-data.approve',
];

/** Questionnaire design without management, templates and the question bank to read and save to, filling in, statistics without management, help, Google account, own personal data. */
const TEACHER = [
  'form.view', 'form.add', 'form.edit', 'form.delete',
  'form-template.view', 'form-template.add',
  'question-bank.view', 'question-bank.add',
  'form-input.view',
  'data-statistics.view', 'data-statistics.export', 'data-statistics.print',
  'help.view',
  'google-account.view',
  'personal-data.view', 'personal-data.personal', 'personal-data.apply',
];

/** Filling in and help. */
const STUDENT = ['form-input.view', 'help.view'];

/** The default grants of each user type's role, sorted as /v1/my/action-list answers them. */
export const DEFAULT_GRANTS: Record<UserType, readonly string[]> = {
  SUPER_ADMIN: [...SUPER_ADMIN].sort(),
  ADMIN: [...ADMIN].sort(),
  TEACHER: [...TEACHER].sort(),
  STUDENT: [...STUDENT].sort(),
};

/** The sorted union of some roles' default grants, as a user holding all of them gets it. */
export const grantsOf = (...types: UserType[]): string[] => [...new Set(types.flatMap((type) => DEFAULT_GRANTS[type]))].sort();
