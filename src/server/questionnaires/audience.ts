import type { DB } from '../db/connect.js';
import type { Target } from '../../shared/questionnaire/types.js';

export interface Respondent {
  userId: number;
  role: 'TEACHER' | 'STUDENT';
}

/** The school year whose classes a questionnaire's grades and classes mean: its own, else the current one. */
export async function audienceYear(db: DB, schoolYearId: number | null): Promise<number | null> {
  if (schoolYearId) return schoolYearId;
  const current = await db.selectFrom('school_years').select('id').where('year_status', '=', '1').executeTakeFirst();
  return current?.id ?? null;
}

/** The people one choice covers: active accounts only (teachers on the job, students in school). */
async function resolveTarget(db: DB, target: Target, yearId: number | null): Promise<Respondent[]> {
  const ids = target.ids ?? [];
  const people = db.selectFrom('users as u').where('u.active', '=', 1).where('u.status', '=', '1');
  const asTeachers = (rows: { id: number }[]) => rows.map((r) => ({ userId: r.id, role: 'TEACHER' as const }));
  const asStudents = (rows: { id: number }[]) => rows.map((r) => ({ userId: r.id, role: 'STUDENT' as const }));
  switch (target.kind) {
    case 'ALL_TEACHERS':
      return asTeachers(await people.select('u.id').where('u.user_type', '=', 'TEACHER').execute());
    case 'ALL_STUDENTS':
      return asStudents(await people.select('u.id').where('u.user_type', '=', 'STUDENT').execute());
    case 'TEACHER_GROUP':
      if (!ids.length) return [];
      return asTeachers(
        await people
          .innerJoin('teacher_group_members as m', 'm.user_id', 'u.id')
          .select('u.id')
          .distinct()
          .where('m.group_id', 'in', ids)
          .where('u.user_type', '=', 'TEACHER')
          .execute(),
      );
    case 'GRADE':
    case 'CLASS': {
      if (!ids.length || yearId === null) return [];
      let q = people
        .innerJoin('student_classes as sc', 'sc.user_id', 'u.id')
        .innerJoin('classes as c', 'c.id', 'sc.class_id')
        .select('u.id')
        .distinct()
        .where('sc.school_year_id', '=', yearId)
        .where('u.user_type', '=', 'STUDENT');
      q = target.kind === 'GRADE' ? q.where('c.grade_id', 'in', ids) : q.where('c.id', 'in', ids);
      return asStudents(await q.execute());
    }
    case 'USERS': {
      if (!ids.length) return [];
      const rows = await people.select(['u.id', 'u.user_type']).where('u.id', 'in', ids).where('u.user_type', 'in', ['TEACHER', 'STUDENT']).execute();
      return rows.map((r) => ({ userId: r.id, role: r.user_type as Respondent['role'] }));
    }
    default:
      return [];
  }
}

/** Every respondent of the choices, each once, and how many each choice covers. */
export async function resolveAudience(db: DB, targets: Target[], schoolYearId: number | null) {
  const yearId = await audienceYear(db, schoolYearId);
  const all = new Map<number, Respondent>();
  const counts: number[] = [];
  for (const target of targets) {
    const people = await resolveTarget(db, target, yearId);
    counts.push(people.length);
    for (const p of people) all.set(p.userId, p);
  }
  return { respondents: [...all.values()], counts };
}

/** Keeps each student respondent's grade and class in the questionnaire's year on their feedback record, for statistics. */
export async function recordClasses(db: DB, questionnaireId: number, schoolYearId: number | null): Promise<void> {
  const yearId = await audienceYear(db, schoolYearId);
  if (yearId === null) return;
  await db
    .updateTable('feedback')
    .set((eb) => ({
      class_id: eb.selectFrom('student_classes as sc').select('sc.class_id').whereRef('sc.user_id', '=', 'feedback.user_id').where('sc.school_year_id', '=', yearId).limit(1),
    }))
    .where('questionnaire_id', '=', questionnaireId)
    .where('respondent_role', '=', 'STUDENT')
    .execute();
  await db
    .updateTable('feedback')
    .set((eb) => ({ grade_id: eb.selectFrom('classes as c').select('c.grade_id').whereRef('c.id', '=', 'feedback.class_id') }))
    .where('questionnaire_id', '=', questionnaireId)
    .where('class_id', 'is not', null)
    .execute();
}
