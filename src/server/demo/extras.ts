import type { DB } from '../db/connect.js';
import type { NewUser } from '../db/schema.js';
import { demoName } from './names.js';
import { DEMO_STUDENTS } from './seed.js';

const TEACHER_GROUPS = [
  { code: 'CHI', nameHk: '中文科', nameEn: 'Chinese panel', teachers: ['teacher03', 'teacher07', 'teacher11', 'teacher15'] },
  { code: 'ENG', nameHk: '英文科', nameEn: 'English panel', teachers: ['teacher04', 'teacher08', 'teacher12', 'teacher16'] },
  { code: 'MATH', nameHk: '數學科', nameEn: 'Mathematics panel', teachers: ['teacher05', 'teacher09', 'teacher13', 'teacher17'] },
  { code: 'FORM', nameHk: '班主任', nameEn: 'Class teachers', teachers: ['teacher01', 'teacher02', 'teacher06', 'teacher10', 'teacher14', 'teacher18'] },
];

/** Pupils who left during the year (status 2) and one who graduated (status 3): they keep their class, and cannot log in. */
const LEFT = 6;

/**
 * What `npm run demo` adds to the demo school (seed.ts, which the tests use as it is): teacher
 * groups with members, pupils who have left, and a mail setting, so that reminders can be tried
 * at once — with the development outbox (mail/outbox.ts) the mails are shown on the mail setting
 * screen instead of being sent. Run only on a school the demo has just created.
 */
export async function seedDemoExtras(db: DB): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const teachers = new Map((await trx.selectFrom('users').select(['id', 'username']).where('user_type', '=', 'TEACHER').execute()).map((u) => [u.username, u.id]));
    for (const [i, group] of TEACHER_GROUPS.entries()) {
      const { id } = await trx.insertInto('teacher_groups').values({ code: group.code, name_hk: group.nameHk, name_en: group.nameEn, seq: i + 1 }).returning('id').executeTakeFirstOrThrow();
      await trx.insertInto('teacher_group_members').values(group.teachers.map((t) => ({ group_id: id, user_id: teachers.get(t)! }))).execute();
    }

    const pupil = await trx.selectFrom('users').select(['password_hash', 'user_no']).where('username', '=', 'student001').executeTakeFirstOrThrow();
    const year = await trx.selectFrom('school_years').select(['id', 'begin_date']).where('year_status', '=', '1').executeTakeFirstOrThrow();
    const classes = await trx.selectFrom('classes').select('id').orderBy('id').execute();
    const now = new Date().toISOString();
    const prefix = (pupil.user_no ?? 'S').slice(0, -3);
    const left: NewUser[] = [];
    for (let i = 1; i <= LEFT; i++) {
      const n = demoName(DEMO_STUDENTS + i);
      const no = String(DEMO_STUDENTS + i).padStart(3, '0');
      const graduated = i === LEFT;
      left.push({
        username: `student${no}`,
        password_hash: pupil.password_hash,
        user_type: 'STUDENT',
        user_no: `${prefix}${no}`,
        name_hk: n.nameHk,
        name_en: n.nameEn,
        email: `student${no}@demo.qe.school`,
        gender: i % 2 ? 'M' : 'F',
        active: 1,
        status: graduated ? '3' : '2',
        // left in the first weeks of the year
        leave_date: year.begin_date.replace(/-09-01$/, `-09-${String(10 + i).padStart(2, '0')}`),
        seq: DEMO_STUDENTS + i,
        created_at: now,
        updated_at: now,
      });
    }
    const ids = await trx.insertInto('users').values(left).returning('id').execute();
    const role = await trx.selectFrom('roles').select('id').where('is_default', '=', 1).where('user_type', '=', 'STUDENT').executeTakeFirstOrThrow();
    await trx.insertInto('user_roles').values(ids.map(({ id }) => ({ user_id: id, role_id: role.id }))).execute();
    const numbers = await trx.selectFrom('student_classes').select((eb) => ['class_id', eb.fn.max('student_number').as('last')]).where('school_year_id', '=', year.id).groupBy('class_id').execute();
    const last = new Map(numbers.map((r) => [r.class_id, Number(r.last)]));
    await trx
      .insertInto('student_classes')
      .values(ids.map(({ id }, i) => {
        const classId = classes[i % classes.length].id;
        const number = (last.get(classId) ?? 0) + 1;
        last.set(classId, number);
        return { user_id: id, school_year_id: year.id, class_id: classId, student_number: number };
      }))
      .execute();

    if (!(await trx.selectFrom('mail_settings').select('id').executeTakeFirst())) {
      await trx.insertInto('mail_settings').values({
        host: 'localhost',
        port: 25,
        username: null,
        password: null,
        from_address: 'qe@demo.qe.school',
        from_name: '啟思示範中學 QE Demonstration Secondary School',
        // a template in each language: every respondent gets theirs (src/server/questionnaires/notice.ts)
        reminder_subject: '請填寫問卷：{title}',
        reminder_content: '{name}：\n\n請於 {deadline} 前填寫問卷「{title}」。\n\n{link}',
        reminder_subject_en: 'Please answer: {title}',
        reminder_content_en: 'Dear {name},\n\nPlease answer "{title}" by {deadline}.\n\n{link}',
      }).execute();
    }
  });
}
