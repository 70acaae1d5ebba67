import type { DB } from '../db/connect.js';
import type { NewUser } from '../db/schema.js';
import { hashPassword } from '../auth/passwords.js';
import { createFirstSchool } from '../school/init.js';
import { demoName } from './names.js';

export const DEMO_PASSWORD = 'Passw0rd!';
export const DEMO_TEACHERS = 20;
export const DEMO_STUDENTS = 200;

const GRADES = [1, 2, 3, 4, 5, 6].map((n) => ({
  code: `S${n}`,
  nameHk: `中${'一二三四五六'[n - 1]}`,
  nameEn: `Secondary ${n}`,
}));
const CLASS_LETTERS = ['A', 'B'];

const POSITIONS = [
  { code: 'P', nameHk: '校長', nameEn: 'Principal' },
  { code: 'VP', nameHk: '副校長', nameEn: 'Vice principal' },
  { code: 'PH', nameHk: '科主任', nameEn: 'Panel head' },
  { code: 'T', nameHk: '教師', nameEn: 'Teacher' },
];

/**
 * A demo school (school year with terms, grades and classes, 20 teachers, 200
 * students, one admin, a super admin). Every demo login's password is Passw0rd!; the one
 * hash is shared because all demo accounts have the same password anyway and hashing 220
 * times would take half a minute. Answers false when a school already exists.
 */
export async function seedDemoSchool(db: DB): Promise<boolean> {
  if (await db.selectFrom('school').select('id').executeTakeFirst()) return false;
  const hash = await hashPassword(DEMO_PASSWORD);
  await createFirstSchool(
    db,
    { schoolNameHk: '啟思示範中學', schoolNameEn: 'QE Demonstration Secondary School', username: 'superadmin', password: DEMO_PASSWORD, nameHk: '系統管理員', nameEn: 'System Administrator', email: 'superadmin@demo.qe.school' },
    hash,
  );
  const now = new Date().toISOString();
  const year = new Date().getUTCMonth() >= 8 ? new Date().getUTCFullYear() : new Date().getUTCFullYear() - 1;

  await db.transaction().execute(async (trx) => {
    const { id: yearId } = await trx
      .insertInto('school_years')
      .values({ name: `${year}-${year + 1}`, begin_date: `${year}-09-01`, end_date: `${year + 1}-08-31`, year_status: '1' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx.insertInto('terms').values([
      { school_year_id: yearId, name_hk: '上學期', name_en: 'First term', begin_date: `${year}-09-01`, end_date: `${year + 1}-01-31`, seq: 1 },
      { school_year_id: yearId, name_hk: '下學期', name_en: 'Second term', begin_date: `${year + 1}-02-01`, end_date: `${year + 1}-08-31`, seq: 2 },
    ]).execute();

    const classIds: number[] = [];
    for (const [gi, g] of GRADES.entries()) {
      const { id: gradeId } = await trx.insertInto('grades').values({ code: g.code, name_hk: g.nameHk, name_en: g.nameEn, seq: gi + 1 }).returning('id').executeTakeFirstOrThrow();
      for (const [ci, letter] of CLASS_LETTERS.entries()) {
        const { id } = await trx
          .insertInto('classes')
          .values({ grade_id: gradeId, code: `${gi + 1}${letter}`, name_hk: `${g.nameHk}${letter}班`, name_en: `${gi + 1}${letter}`, seq: ci + 1 })
          .returning('id')
          .executeTakeFirstOrThrow();
        classIds.push(id);
      }
    }

    const positionIds: number[] = [];
    for (const [i, p] of POSITIONS.entries()) {
      const { id } = await trx.insertInto('positions').values({ code: p.code, name_hk: p.nameHk, name_en: p.nameEn, seq: i + 1 }).returning('id').executeTakeFirstOrThrow();
      positionIds.push(id);
    }

    // the role each user type's new accounts get (chosen on the Roles screen), not a role found by its code
    const roles = new Map((await trx.selectFrom('roles').select(['id', 'user_type']).where('is_default', '=', 1).execute()).map((r) => [r.user_type, r.id]));
    const base = { password_hash: hash, active: 1, status: '1', created_at: now, updated_at: now } as const;
    const insertUsers = async (users: NewUser[], userType: string) => {
      const ids = await trx.insertInto('users').values(users).returning('id').execute();
      await trx.insertInto('user_roles').values(ids.map(({ id }) => ({ user_id: id, role_id: roles.get(userType)! }))).execute();
      return ids.map((r) => r.id);
    };

    await insertUsers([{ ...base, username: 'admin', user_type: 'ADMIN', user_no: 'A001', name_hk: '校務管理員', name_en: 'School Administrator', email: 'admin@demo.qe.school', google_mail: 'admin@demo-qe-school.example', seq: 1 }], 'ADMIN');

    const teachers: NewUser[] = [];
    for (let i = 1; i <= DEMO_TEACHERS; i++) {
      const n = demoName(1000 + i);
      const no = String(i).padStart(2, '0');
      teachers.push({
        ...base,
        username: `teacher${no}`,
        user_type: 'TEACHER',
        user_no: `T0${no}`,
        name_hk: n.nameHk,
        name_en: n.nameEn,
        abbr: n.initials,
        email: `teacher${no}@demo.qe.school`,
        // the first ten have a Google account bound (needed to create questionnaires); the others show the binding
        google_mail: i <= 10 ? `teacher${no}@demo-qe-school.example` : null,
        position_id: positionIds[i === 1 ? 0 : i === 2 ? 1 : i <= 6 ? 2 : 3],
        gender: i % 2 ? 'F' : 'M',
        seq: i,
      });
    }
    await insertUsers(teachers, 'TEACHER');

    const students: NewUser[] = [];
    for (let i = 1; i <= DEMO_STUDENTS; i++) {
      const n = demoName(i);
      const no = String(i).padStart(3, '0');
      students.push({
        ...base,
        username: `student${no}`,
        user_type: 'STUDENT',
        user_no: `S${year}${no}`,
        name_hk: n.nameHk,
        name_en: n.nameEn,
        email: `student${no}@demo.qe.school`,
        gender: i % 2 ? 'M' : 'F',
        seq: i,
      });
    }
    const studentIds = await insertUsers(students, 'STUDENT');
    // students fill the classes in turn; numbers run from 1 within each class
    const perClass = Math.ceil(DEMO_STUDENTS / classIds.length);
    await trx
      .insertInto('student_classes')
      .values(studentIds.map((userId, i) => ({
        user_id: userId,
        school_year_id: yearId,
        class_id: classIds[Math.floor(i / perClass)],
        student_number: (i % perClass) + 1,
      })))
      .execute();
  });
  return true;
}
