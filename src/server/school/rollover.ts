import { schoolClock } from './clock.js';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/connect.js';
import type { Database } from '../db/schema.js';
import { BusinessError } from '../plugins/errors.js';
import type { ClassMove, RolloverPreview, RolloverRequest } from '../../shared/school/rollover.js';

export type { ClassMove, RolloverPreview, RolloverRequest };

/**
 * The "new school year" roll-over. Grades and classes are global tables: next year
 * uses the same ones, and a student's class is per year (student_classes). The roll-over
 * prepares next year — the year itself with its terms copied a year on, and a class and number
 * for every active student one grade up — and switches the current year at once or on a day
 * the administrator picks. Students of the graduating grade get no class next year; at the
 * switch, an active student who had a class in the old year and has none in the new one leaves
 * (status '2'). Past questionnaires keep the class each respondent had when they opened
 * (feedback.grade_id/class_id), so nothing of last year is rewritten.
 */

type Db = Kysely<Database> | Transaction<Database>;

interface ClassRow { id: number; grade_id: number; code: string; name_hk: string; name_en: string; seq: number }
interface GradeRow { id: number; code: string; name_hk: string; name_en: string; seq: number }

// the school's day (schoolClock): a switch date comes at midnight on the school's clock, not the server's or UTC's
const todayOf = (db: DB) => schoolClock(db).today();

/** The same day a year on (29 February becomes 28 February). */
export function yearOn(date: string): string {
  const [y, m, d] = date.split('-').map(Number);
  const day = m === 2 && d === 29 ? 28 : d;
  return `${y + 1}-${String(m).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** "2026-2027" → "2027-2028": every four-digit year in the name one on. */
function nextName(name: string, beginDate: string): string {
  return /\d{4}/.test(name) ? name.replace(/\d{4}/g, (y) => String(Number(y) + 1)) : `${Number(beginDate.slice(0, 4)) + 1}-${Number(beginDate.slice(0, 4)) + 2}`;
}

/** The letter part of a class code ("1A" → "A"); the code itself when it has none. */
const letterOf = (code: string) => /[A-Za-z]+$/.exec(code)?.[0] ?? code;

interface Plan {
  preview: RolloverPreview;
  current: { id: number; name: string; begin_date: string; end_date: string };
  next: { id: number | null; name: string; begin_date: string; end_date: string };
  /** students to place: user, from class, from number */
  placements: { userId: number; fromClassId: number; number: number }[];
  target: Map<number, ClassMove>;
}

async function plan(db: Db, req: RolloverRequest, today: string): Promise<Plan> {
  const current = await db.selectFrom('school_years').select(['id', 'name', 'begin_date', 'end_date']).where('year_status', '=', '1').orderBy('id').executeTakeFirst();
  if (!current) throw new BusinessError('ROLLOVER_NO_CURRENT_YEAR');
  // next year: the first one after the current (an administrator may have made it already), else a new one a year on
  const existing = await db
    .selectFrom('school_years')
    .selectAll()
    .where('begin_date', '>', current.begin_date)
    // one beginning within a year after next year's first day; a year further on is not next year
    .where('begin_date', '<', yearOn(yearOn(current.begin_date)))
    .orderBy('begin_date')
    .executeTakeFirst();
  if (existing?.rolled_over_at) throw new BusinessError('ROLLOVER_DONE', { year: existing.name });
  const next = existing
    ? { id: existing.id, name: existing.name, begin_date: existing.begin_date, end_date: existing.end_date }
    : { id: null, name: nextName(current.name, current.begin_date), begin_date: yearOn(current.begin_date), end_date: yearOn(current.end_date) };
  const switchDate = req.switchDate && req.switchDate > today ? req.switchDate : null;
  if (switchDate && switchDate > next.end_date) throw new BusinessError('ROLLOVER_SWITCH_DATE');

  const grades: GradeRow[] = await db.selectFrom('grades').select(['id', 'code', 'name_hk', 'name_en', 'seq']).orderBy('seq').orderBy('id').execute();
  const classes: ClassRow[] = await db.selectFrom('classes').select(['id', 'grade_id', 'code', 'name_hk', 'name_en', 'seq']).orderBy('seq').orderBy('id').execute();
  const school = await db.selectFrom('school').select('graduate_grade').orderBy('id').executeTakeFirst();
  const schoolGraduate = grades.find((g) => school?.graduate_grade && (g.code === school.graduate_grade || String(g.id) === school.graduate_grade));
  const graduate = grades.find((g) => g.id === req.graduateGradeId) ?? schoolGraduate ?? grades[grades.length - 1];
  const gradeIndex = new Map(grades.map((g, i) => [g.id, i]));
  const classById = new Map(classes.map((c) => [c.id, c]));

  const placed = next.id
    ? await db.selectFrom('student_classes').select(['user_id', 'class_id', 'student_number']).where('school_year_id', '=', next.id).execute()
    : [];
  const placedUsers = new Set(placed.map((p) => p.user_id));
  const rows = await db
    .selectFrom('student_classes as sc')
    .innerJoin('users as u', 'u.id', 'sc.user_id')
    .select(['sc.user_id', 'sc.class_id', 'sc.student_number'])
    .where('sc.school_year_id', '=', current.id)
    .where('u.user_type', '=', 'STUDENT')
    .where('u.status', '=', '1')
    .orderBy('sc.class_id')
    .orderBy('sc.student_number')
    .execute();
  const count = new Map<number, number>();
  for (const r of rows) count.set(r.class_id, (count.get(r.class_id) ?? 0) + 1);

  const override = new Map((req.mapping ?? []).map((m) => [m.fromClassId, m.toClassId]));
  const bad: string[] = [];
  const moves: ClassMove[] = [];
  const missing = new Map<string, { gradeId: number; code: string; nameHk: string; nameEn: string }>();
  for (const c of classes) {
    const grade = grades[gradeIndex.get(c.grade_id)!];
    const base = { fromClassId: c.id, fromCode: c.code, fromNameHk: c.name_hk, fromNameEn: c.name_en, students: count.get(c.id) ?? 0 };
    if (!grade || grade.id === graduate?.id) {
      moves.push({ ...base, graduates: true, toClassId: null, toCode: null, toNameHk: null, toNameEn: null, missing: false });
      continue;
    }
    const chosen = override.get(c.id);
    if (chosen !== undefined) {
      const to = classById.get(chosen);
      if (!to) bad.push(c.code);
      else moves.push({ ...base, graduates: false, toClassId: to.id, toCode: to.code, toNameHk: to.name_hk, toNameEn: to.name_en, missing: false });
      continue;
    }
    const nextGrade = grades[gradeIndex.get(c.grade_id)! + 1];
    if (!nextGrade) {
      // a grade above the graduating one has nowhere to go: its students stay in their class
      moves.push({ ...base, graduates: false, toClassId: c.id, toCode: c.code, toNameHk: c.name_hk, toNameEn: c.name_en, missing: false });
      continue;
    }
    const letter = letterOf(c.code);
    const to = classes.find((x) => x.grade_id === nextGrade.id && letterOf(x.code) === letter);
    if (to) {
      moves.push({ ...base, graduates: false, toClassId: to.id, toCode: to.code, toNameHk: to.name_hk, toNameEn: to.name_en, missing: false });
      continue;
    }
    // the class to create: named like its would-be neighbours in the next grade, else after the grade
    const sibling = classes.find((x) => x.grade_id === nextGrade.id);
    const code = sibling ? sibling.code.slice(0, sibling.code.length - letterOf(sibling.code).length) + letter : `${nextGrade.code}${letter}`;
    const nameHk = c.name_hk.includes(grade.name_hk) ? c.name_hk.replace(grade.name_hk, nextGrade.name_hk) : `${nextGrade.name_hk}${letter}`;
    const nameEn = c.name_en === c.code ? code : c.name_en.includes(grade.name_en) ? c.name_en.replace(grade.name_en, nextGrade.name_en) : `${nextGrade.name_en} ${letter}`;
    missing.set(code, { gradeId: nextGrade.id, code, nameHk, nameEn });
    moves.push({ ...base, graduates: false, toClassId: null, toCode: code, toNameHk: nameHk, toNameEn: nameEn, missing: true });
  }
  if (bad.length) throw new BusinessError('ROLLOVER_BAD_MAPPING', { classes: bad.join(', ') });
  const target = new Map(moves.map((m) => [m.fromClassId, m]));

  const placements = rows.filter((r) => !placedUsers.has(r.user_id)).map((r) => ({ userId: r.user_id, fromClassId: r.class_id, number: r.student_number }));
  let promoted = 0;
  let graduates = 0;
  const after = new Map<string, { classId: number | null; code: string; nameHk: string; nameEn: string; students: number }>();
  const bump = (classId: number | null, code: string, nameHk: string, nameEn: string) => {
    const key = classId ? `#${classId}` : code;
    const a = after.get(key) ?? { classId, code, nameHk, nameEn, students: 0 };
    a.students++;
    after.set(key, a);
  };
  for (const p of placed) {
    const c = classById.get(p.class_id);
    if (c) bump(c.id, c.code, c.name_hk, c.name_en);
  }
  for (const p of placements) {
    const m = target.get(p.fromClassId)!;
    if (m.graduates) graduates++;
    else {
      promoted++;
      bump(m.toClassId, m.toCode!, m.toNameHk!, m.toNameEn!);
    }
  }
  const order = (x: { classId: number | null; code: string }) => (x.classId ? classes.findIndex((c) => c.id === x.classId) : classes.length);
  const preview: RolloverPreview = {
    fromYear: { id: current.id, name: current.name },
    nextYear: { id: next.id, name: next.name, beginDate: next.begin_date, endDate: next.end_date, terms: await db.selectFrom('terms').select('id').where('school_year_id', '=', next.id ?? current.id).execute().then((t) => t.length) },
    graduateGradeId: graduate?.id ?? 0,
    grades: grades.map((g) => ({ id: g.id, code: g.code, nameHk: g.name_hk, nameEn: g.name_en })),
    classes: classes.map((c) => ({ id: c.id, gradeId: c.grade_id, code: c.code, nameHk: c.name_hk, nameEn: c.name_en })),
    moves,
    after: [...after.values()].sort((a, b) => order(a) - order(b) || a.code.localeCompare(b.code)),
    promoted,
    graduates,
    alreadyPlaced: placed.length,
    missingClasses: [...missing.values()],
    switchDate,
  };
  return { preview, current, next, placements, target };
}

/** What the roll-over would do; writes nothing. */
export async function previewRollover(db: DB, req: RolloverRequest): Promise<RolloverPreview> {
  return (await plan(db, req, await todayOf(db))).preview;
}

/**
 * Runs the roll-over: all or nothing in one transaction. The next year is claimed with a
 * conditional update of rolled_over_at, so two administrators (or instances) running it at
 * once cannot both fill it.
 */
export async function runRollover(db: DB, req: RolloverRequest, at = new Date().toISOString()): Promise<RolloverPreview> {
  const today = await todayOf(db);
  return db.transaction().execute(async (trx) => {
    const { preview, current, next, placements, target } = await plan(trx, req, today);
    let nextId = next.id;
    if (nextId === null) {
      nextId = (await trx
        .insertInto('school_years')
        .values({ name: next.name, begin_date: next.begin_date, end_date: next.end_date, year_status: '0', rolled_over_at: at })
        .returning('id')
        .executeTakeFirstOrThrow()).id;
    } else {
      const claimed = await trx.updateTable('school_years').set({ rolled_over_at: at }).where('id', '=', nextId).where('rolled_over_at', 'is', null).executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) throw new BusinessError('ROLLOVER_DONE', { year: next.name });
    }
    const nextTerms = await trx.selectFrom('terms').select('id').where('school_year_id', '=', nextId).execute();
    if (!nextTerms.length) {
      const terms = await trx.selectFrom('terms').selectAll().where('school_year_id', '=', current.id).orderBy('seq').execute();
      if (terms.length) {
        await trx.insertInto('terms').values(terms.map((t) => ({ school_year_id: nextId, name_hk: t.name_hk, name_en: t.name_en, begin_date: yearOn(t.begin_date), end_date: yearOn(t.end_date), seq: t.seq }))).execute();
      }
    }

    // the missing target classes: created when asked, refused otherwise (students would lose their class)
    const needed = preview.moves.filter((m) => m.missing && m.students > 0);
    const created = new Map<string, number>();
    if (needed.length && !req.createMissingClasses) throw new BusinessError('ROLLOVER_CLASS_MISSING', { classes: [...new Set(needed.map((m) => m.toCode))].join(', ') });
    if (req.createMissingClasses) {
      for (const info of preview.missingClasses) {
        const top = await trx.selectFrom('classes').select((eb) => eb.fn.max('seq').as('seq')).where('grade_id', '=', info.gradeId).executeTakeFirst();
        const { id } = await trx.insertInto('classes').values({ grade_id: info.gradeId, code: info.code, name_hk: info.nameHk, name_en: info.nameEn, seq: Number(top?.seq ?? 0) + 1 }).returning('id').executeTakeFirstOrThrow();
        created.set(info.code, id);
      }
    }

    // numbers next year: the incoming students of a class in the order of their old class and number, after any entered beforehand
    const taken = new Map<number, number>();
    for (const r of await trx.selectFrom('student_classes').select(['class_id', 'student_number']).where('school_year_id', '=', nextId).execute()) {
      taken.set(r.class_id, Math.max(taken.get(r.class_id) ?? 0, r.student_number));
    }
    const classSeq = new Map(preview.classes.map((c, i) => [c.id, i]));
    const ordered = [...placements].sort((a, b) => classSeq.get(a.fromClassId)! - classSeq.get(b.fromClassId)! || a.number - b.number);
    const values: { user_id: number; school_year_id: number; class_id: number; student_number: number }[] = [];
    for (const p of ordered) {
      const m = target.get(p.fromClassId)!;
      if (m.graduates) continue;
      const classId = m.toClassId ?? created.get(m.toCode!)!;
      const n = (taken.get(classId) ?? 0) + 1;
      taken.set(classId, n);
      values.push({ user_id: p.userId, school_year_id: nextId, class_id: classId, student_number: n });
    }
    for (let i = 0; i < values.length; i += 500) await trx.insertInto('student_classes').values(values.slice(i, i + 500)).execute();

    if (preview.switchDate) await trx.updateTable('school_years').set({ switch_date: preview.switchDate }).where('id', '=', nextId).execute();
    else await switchYear(trx, nextId, today);
    return { ...preview, nextYear: { ...preview.nextYear, id: nextId } };
  });
}

/**
 * Makes a year the current one, claimed by a conditional update (the year is not current
 * yet); the students who had a class in the year left behind and none in the new one leave
 * with the switch date as their leave date. Answers whether this call did the switch.
 */
async function switchYear(trx: Transaction<Database>, yearId: number, date: string): Promise<boolean> {
  const old = await trx.selectFrom('school_years').select('id').where('year_status', '=', '1').where('id', '!=', yearId).execute();
  const claimed = await trx.updateTable('school_years').set({ year_status: '1', switch_date: null }).where('id', '=', yearId).where('year_status', '=', '0').executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return false;
  if (old.length) {
    const oldIds = old.map((o) => o.id);
    await trx.updateTable('school_years').set({ year_status: '0' }).where('id', 'in', oldIds).execute();
    await trx
      .updateTable('users')
      .set({ status: '2', leave_date: date, updated_at: new Date().toISOString() })
      .where('user_type', '=', 'STUDENT')
      .where('status', '=', '1')
      .where((eb) => eb.exists(eb.selectFrom('student_classes as o').select('o.id').whereRef('o.user_id', '=', 'users.id').where('o.school_year_id', 'in', oldIds)))
      .where((eb) => eb.not(eb.exists(eb.selectFrom('student_classes as n').select('n.id').whereRef('n.user_id', '=', 'users.id').where('n.school_year_id', '=', yearId))))
      .execute();
  }
  return true;
}

/** The scheduled switches due by `date` (YYYY-MM-DD); several instances may run it at once. */
export async function switchDueYears(db: DB, on?: string): Promise<number[]> {
  const date = on ?? (await todayOf(db));
  const due = await db.selectFrom('school_years').select(['id', 'switch_date']).where('switch_date', 'is not', null).where('switch_date', '<=', date).orderBy('switch_date').execute();
  const switched: number[] = [];
  for (const y of due) {
    const done = await db.transaction().execute(async (trx) => {
      // the claim: only the instance that clears the switch date goes on
      const claim = await trx.updateTable('school_years').set({ switch_date: null }).where('id', '=', y.id).where('switch_date', '=', y.switch_date!).executeTakeFirst();
      if (Number(claim.numUpdatedRows) !== 1) return false;
      return switchYear(trx, y.id, y.switch_date!);
    });
    if (done) switched.push(y.id);
  }
  return switched;
}

/** Runs due switches every `seconds` until stopped (the questionnaire scheduler's pattern). */
export function startYearSwitcher(db: DB, seconds: number, log: { error: (o: object, m: string) => void }): () => void {
  if (seconds <= 0) return () => undefined;
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    switchDueYears(db)
      .catch((err) => log.error({ err }, 'school year switch round failed'))
      .finally(() => (running = false));
  }, seconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
