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

/** The people a year-bound choice (classes, grades, chosen people) named in its year, whether or not they are still in school. */
async function namedPeople(db: DB, targets: Target[], yearId: number | null): Promise<Set<number>> {
  const out = new Set<number>();
  for (const target of targets) {
    const ids = target.ids ?? [];
    if (!ids.length) continue;
    if (target.kind === 'USERS') for (const id of ids) out.add(id);
    if ((target.kind === 'CLASS' || target.kind === 'GRADE') && yearId !== null) {
      let q = db.selectFrom('student_classes as sc').innerJoin('classes as c', 'c.id', 'sc.class_id').select('sc.user_id').distinct().where('sc.school_year_id', '=', yearId);
      q = target.kind === 'GRADE' ? q.where('c.grade_id', 'in', ids) : q.where('c.id', 'in', ids);
      for (const r of await q.execute()) out.add(r.user_id);
    }
  }
  return out;
}

/**
 * Last year's audience carried to this year (docs/product-rules.md#copy-for-this-year). GRADE: the
 * same choices, meaning this year's pupils of those classes and grades. PEOPLE: the classes, grades
 * and chosen people become the same people, those still in school (active, and a student in a class
 * this year); the others — graduates, leavers — dropped and counted. Whole-school choices and
 * teacher groups are not bound to a year and stay.
 */
export async function carriedAudience(db: DB, targets: Target[], fromYearId: number | null, toYearId: number | null, audience: 'GRADE' | 'PEOPLE') {
  const fromYear = await audienceYear(db, fromYearId);
  const yearBound = (t: Target) => t.kind === 'CLASS' || t.kind === 'GRADE' || t.kind === 'USERS';
  const named = await namedPeople(db, targets, fromYear);
  const unbound = await resolveAudience(db, targets.filter((t) => !yearBound(t)), toYearId);
  const before = new Set([...named, ...unbound.respondents.map((r) => r.userId)]).size;
  let carried = targets;
  let dropped = 0;
  if (audience === 'PEOPLE') {
    const ids = [...named];
    const stay = new Set<number>();
    for (let i = 0; i < ids.length; i += 500) {
      const part = ids.slice(i, i + 500);
      const rows = await db
        .selectFrom('users as u')
        .select('u.id')
        .where('u.id', 'in', part)
        .where('u.active', '=', 1)
        .where('u.status', '=', '1')
        .where((eb) =>
          eb.or([
            eb('u.user_type', '=', 'TEACHER'),
            eb.and([eb('u.user_type', '=', 'STUDENT'), eb.exists(eb.selectFrom('student_classes as sc').select('sc.id').whereRef('sc.user_id', '=', 'u.id').where('sc.school_year_id', '=', toYearId ?? -1))]),
          ]),
        )
        .execute();
      for (const r of rows) stay.add(r.id);
    }
    dropped = ids.length - stay.size;
    carried = [...targets.filter((t) => !yearBound(t)), ...(stay.size ? [{ kind: 'USERS' as const, ids: [...stay].sort((a, b) => a - b) }] : [])];
  }
  const after = (await resolveAudience(db, carried, toYearId)).respondents.length;
  return { targets: carried, remap: { audience, fromSchoolYearId: fromYear, toSchoolYearId: toYearId, before, after, dropped } };
}
