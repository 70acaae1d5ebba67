import { sql } from 'kysely';
import type { DB } from '../db/connect.js';
import type { Lang } from '../../shared/errors.js';
import type { RespondentRole, StatisticsDetail, StatisticsFilter } from '../../shared/statistics/types.js';
import { summarise, type Counts } from './summaries.js';
import { definitionIn } from '../../shared/questionnaire/languages.js';
import { REPLY_QUESTION_ID } from './answerRows.js';
import { filtered, groupOf } from './filters.js';
import { readAside } from '../db/read-aside.js';
import { replyGroups, withheldIn, type GroupRow } from './withholding.js';
import type { RespondentCell, Scoped } from './scoped.js';
import type { Definition } from '../../shared/questionnaire/definition.js';

/**
 * The one grouped count every summary is made of (see answerRows.ts for the rows it counts):
 * the counters of the filter's groups summed (answer_counts, kept as rows are written), or for
 * everyone their totals (answer_totals), so its cost follows the questionnaire's size, not its
 * number of replies.
 */
export async function answerCounts(db: DB, id: number, filter: StatisticsFilter): Promise<Counts> {
  const group = await groupOf(db, filter);
  let rows: { question_id: string; item: string; col: string; n: number | string }[];
  if (!group) {
    // everyone: the counters' totals (migration 0022), one row per counted thing
    rows = await readAside(db, db.selectFrom('answer_totals').select(['question_id', 'item', 'col', 'n']).where('questionnaire_id', '=', id));
  } else {
    let q = db.selectFrom('answer_counts as ac').where('ac.questionnaire_id', '=', id);
    if (group.none) q = q.where(sql<boolean>`1 = 0`);
    if (group.role !== undefined) q = q.where('ac.respondent_role', '=', group.role);
    if (group.gradeId !== undefined) q = q.where('ac.grade_id', '=', group.gradeId);
    if (group.classId !== undefined) q = q.where('ac.class_id', '=', group.classId);
    rows = await readAside(db, q.select((eb) => ['ac.question_id', 'ac.item', 'ac.col', eb.fn.sum<number>('ac.n').as('n')]).groupBy(['ac.question_id', 'ac.item', 'ac.col']));
  }
  const counts: Counts = { cells: [], answered: new Map(), rowBases: new Map() };
  for (const r of rows) {
    const n = Number(r.n);
    if (n === 0) continue;
    if (r.item === '' && r.col === '') counts.answered.set(r.question_id, n);
    else if (r.col === '') {
      counts.rowBases.set(`${r.question_id}\u0000${r.item}`, n);
      counts.cells.push({ questionId: r.question_id, item: r.item, col: r.col, n });
    } else counts.cells.push({ questionId: r.question_id, item: r.item, col: r.col, n });
  }
  return counts;
}

/** The results of a questionnaire the caller may read (see `scoped`), for the filter's respondents. */
export async function statisticsDetail(db: DB, minGroupSize: number, scoped: Scoped, filter: StatisticsFilter, lang: Lang): Promise<StatisticsDetail> {
  const anonymous = scoped.row.type === 'ANONYMOUS';
  const cells = scoped.cells;
  const [results, groups] = await Promise.all([
    resultsOf(db, minGroupSize, scoped.row, scoped.definition, filter, lang),
    // the groups of an anonymous questionnaire are its released replies', read by resultsOf
    anonymous ? null : respondentGroups(db, cells, null),
  ]);
  const asked = cells.filter((c) => (filter.role === undefined || c.role === filter.role) && (filter.gradeId === undefined || c.gradeId === filter.gradeId) && (filter.classId === undefined || c.classId === filter.classId));
  const people = { total: asked.reduce((sum, c) => sum + c.n, 0), submitted: asked.filter((c) => c.submitted).reduce((sum, c) => sum + c.n, 0) };
  return {
    questionnaire: scoped.row,
    filter,
    groups: groups ?? (await respondentGroups(db, cells, results.released)),
    replyCount: results.replyCount,
    respondentNum: people.total,
    // anonymous: the released replies, never the live count of who has submitted
    submittedNum: anonymous ? results.replyCount : people.submitted,
    releaseBatch: anonymous ? minGroupSize : null,
    withheld: results.withheld,
    questions: results.questions,
  };
}

/**
 * A questionnaire's figures for the filter's respondents: how many replies, each question's
 * statistics — or, for an anonymous questionnaire's group below the minimum, what is withheld and
 * no statistics. The detail and the comparison across years both read results through it.
 */
export async function resultsOf(db: DB, minGroupSize: number, q: { id: number; type: string }, definition: Definition, filter: StatisticsFilter, lang: Lang) {
  // anonymous: the released replies by group, read once for what is withheld and for the groups
  const released = q.type === 'ANONYMOUS' ? await replyGroups(db, q.id) : null;
  const withheld = released ? withheldIn(released, filter, minGroupSize) : null;
  const counts = withheld ? null : await answerCounts(db, q.id, filter);
  // the replies' own counter (answerRows.ts), read with the others; counted when the results are withheld
  const replyCount = counts
    ? (counts.answered.get(REPLY_QUESTION_ID) ?? 0)
    : Number((await releasedReplies(db, q.id, filter).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
  return { released, withheld, replyCount, questions: summarise(definitionIn(definition, lang), counts, lang) };
}

/** The replies in results (released ones), of the filter's group. */
export function releasedReplies(db: DB, id: number, filter: StatisticsFilter) {
  return filtered(db.selectFrom('replies as r').where('r.questionnaire_id', '=', id).where('r.released', '=', 1), 'r', filter);
}

/**
 * Roles, grades and classes with respondents, and how many of each submitted: from the
 * feedback records, or for an anonymous questionnaire from its released replies (`released`).
 */
async function respondentGroups(db: DB, cells: RespondentCell[], released: GroupRow[] | null): Promise<StatisticsDetail['groups']> {
  const tally = <K>(key: (c: RespondentCell) => K | null) => {
    const out = new Map<K, { respondentNum: number; submittedNum: number }>();
    for (const c of cells) {
      const k = key(c);
      if (k === null) continue;
      const t = out.get(k) ?? { respondentNum: 0, submittedNum: 0 };
      t.respondentNum += c.n;
      if (c.submitted) t.submittedNum += c.n;
      out.set(k, t);
    }
    return out;
  };
  const byRole = tally((c) => c.role);
  const byGrade = tally((c) => c.gradeId);
  const byClass = tally((c) => c.classId);
  // at once: on PostgreSQL each waits for a round trip of its own
  const [grades, classes] = await Promise.all([
    byGrade.size ? db.selectFrom('grades').select(['id', 'name_hk', 'name_en']).where('id', 'in', [...byGrade.keys()]).orderBy('seq').orderBy('id').execute() : [],
    byClass.size ? db.selectFrom('classes').select(['id', 'grade_id', 'name_hk', 'name_en']).where('id', 'in', [...byClass.keys()]).orderBy('seq').orderBy('id').execute() : [],
  ]);
  let submittedIn = {
    role: (role: string) => byRole.get(role)?.submittedNum ?? 0,
    grade: (gradeId: number) => byGrade.get(gradeId)?.submittedNum ?? 0,
    class: (classId: number) => byClass.get(classId)?.submittedNum ?? 0,
  };
  if (released) {
    const sum = (match: (g: GroupRow) => boolean) => released.filter(match).reduce((total, g) => total + g.n, 0);
    submittedIn = {
      role: (role) => sum((g) => g.respondent_role === role),
      grade: (gradeId) => sum((g) => g.respondent_role === 'STUDENT' && g.grade_id === gradeId),
      class: (classId) => sum((g) => g.respondent_role === 'STUDENT' && g.class_id === classId),
    };
  }
  return {
    roles: [...byRole.keys()].sort().map((role) => ({ role: role as RespondentRole, respondentNum: byRole.get(role)!.respondentNum, submittedNum: submittedIn.role(role) })),
    grades: grades.map((g) => ({ id: g.id, nameHk: g.name_hk, nameEn: g.name_en, respondentNum: byGrade.get(g.id)!.respondentNum, submittedNum: submittedIn.grade(g.id) })),
    classes: classes.map((c) => ({ id: c.id, gradeId: c.grade_id, nameHk: c.name_hk, nameEn: c.name_en, respondentNum: byClass.get(c.id)!.respondentNum, submittedNum: submittedIn.class(c.id) })),
  };
}
