import type { DB } from '../db/connect.js';
import type { StatisticsFilter, StatisticsRow, Withheld } from '../../shared/statistics/types.js';
import { FILTER_KEYS } from './filters.js';
import { readAside } from '../db/read-aside.js';

/** How many released replies one group (role, grade, class) has. */
export type GroupRow = { respondent_role: string | null; grade_id: number | null; class_id: number | null; n: number };

/**
 * Whether an anonymous questionnaire's results for `filter` must be withheld, so that no
 * filter, nor any difference of filters, shows the answers of fewer than `min` replies.
 * Groups nest: roles in everyone, grades in the students, classes in a grade. At each level
 * a group with 1 to min-1 replies is withheld; when the withheld groups of a level hold
 * fewer than min replies together, the smallest of the others is withheld too (else the
 * parent minus the shown ones would be them); and a withheld group withholds what it holds.
 */
export function isWithheld(groups: GroupRow[], filter: StatisticsFilter, min: number): boolean {
  const keys = FILTER_KEYS.filter(([key]) => filter[key] !== undefined);
  if (!keys.length) return false;
  const matches = (g: GroupRow) => keys.every(([key, column]) => g[column] === filter[key]);
  const rows = groups.filter(matches);
  if (!rows.reduce((sum, g) => sum + Number(g.n), 0)) return false;
  // the path from everyone down to the filter's group: a grade or class means students, a class its grade
  const gradeId = filter.gradeId ?? rows[0].grade_id;
  const role = filter.gradeId !== undefined || filter.classId !== undefined ? 'STUDENT' : filter.role;
  const levels: { within: (g: GroupRow) => boolean; key: (g: GroupRow) => string; target: string }[] = [];
  if (role !== undefined) levels.push({ within: () => true, key: (g) => String(g.respondent_role), target: role });
  if (filter.gradeId !== undefined || filter.classId !== undefined) levels.push({ within: (g) => g.respondent_role === 'STUDENT', key: (g) => String(g.grade_id), target: String(gradeId) });
  if (filter.classId !== undefined) levels.push({ within: (g) => g.respondent_role === 'STUDENT' && g.grade_id === gradeId, key: (g) => String(g.class_id), target: String(filter.classId) });
  for (const level of levels) {
    const counts = new Map<string, number>();
    for (const g of groups) if (level.within(g)) counts.set(level.key(g), (counts.get(level.key(g)) ?? 0) + Number(g.n));
    const small = [...counts].filter(([, n]) => n > 0 && n < min);
    const withheld = new Set(small.map(([k]) => k));
    const smallTotal = small.reduce((sum, [, n]) => sum + n, 0);
    if (smallTotal > 0 && smallTotal < min) {
      const next = [...counts].filter(([k, n]) => n >= min && !withheld.has(k)).sort((x, y) => x[1] - y[1] || x[0].localeCompare(y[0]))[0];
      if (next) withheld.add(next[0]);
    }
    if (withheld.has(level.target)) return true;
  }
  return false;
}

/** The released replies of a questionnaire, counted by group (aside: a row per reply is read). */
export async function replyGroups(db: DB, id: number): Promise<GroupRow[]> {
  const rows = await readAside(
    db,
    db
      .selectFrom('replies')
      .select((eb) => ['respondent_role', 'grade_id', 'class_id', eb.fn.countAll<number>().as('n')])
      .where('questionnaire_id', '=', id)
      .where('released', '=', 1)
      .groupBy(['respondent_role', 'grade_id', 'class_id']),
  );
  return rows.map((r) => ({ ...r, respondent_role: r.respondent_role ?? null, grade_id: r.grade_id ?? null, class_id: r.class_id ?? null, n: Number(r.n) }));
}

/**
 * Whether results for the filter are withheld (anonymous questionnaires only): a group too
 * small to show, and any view of a questionnaire that has fewer replies than the minimum in all.
 */
export async function withheldResults(db: DB, row: StatisticsRow, filter: StatisticsFilter, minGroupSize: number): Promise<Withheld | null> {
  if (row.type !== 'ANONYMOUS') return null;
  return withheldIn(await replyGroups(db, row.id), filter, minGroupSize);
}

/** The same from the released replies' groups already read. */
export function withheldIn(groups: GroupRow[], filter: StatisticsFilter, minGroupSize: number): Withheld | null {
  const total = groups.reduce((sum, g) => sum + g.n, 0);
  if (total > 0 && total < minGroupSize) return { minGroupSize, reason: 'total' };
  return isWithheld(groups, filter, minGroupSize) ? { minGroupSize, reason: 'group' } : null;
}
