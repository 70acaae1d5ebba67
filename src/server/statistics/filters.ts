import type { SelectQueryBuilder } from 'kysely';
import type { DB } from '../db/connect.js';
import type { StatisticsFilter } from '../../shared/statistics/types.js';

/** The filter's keys and the group columns they match: replies, feedback, reply_answers and answer_counts all carry the three. */
export const FILTER_KEYS = [
  ['role', 'respondent_role'],
  ['gradeId', 'grade_id'],
  ['classId', 'class_id'],
] as const;

/** Adds the filter to a query over replies (as r) or feedback (as f): both carry respondent_role, grade_id and class_id. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- builders over different joins share only those three columns
export function filtered<QB extends SelectQueryBuilder<any, any, any>>(qb: QB, alias: 'r' | 'f', filter: StatisticsFilter): QB {
  let q = qb;
  for (const [key, column] of FILTER_KEYS) {
    const value = filter[key];
    if (value !== undefined) q = q.where(`${alias}.${column}`, '=', value) as QB;
  }
  return q;
}

/** The filter as the group columns say it; null: everyone. */
export interface Group {
  role?: string;
  gradeId?: number;
  classId?: number;
  /** no reply can match (a teacher in a class) */
  none: boolean;
}

/**
 * The filter as the group columns say it (reply_answers and answer_counts have the same): a
 * grade or class means students, and a class its grade — said outright, so that what the filter
 * leaves out is plain to the planner.
 */
export async function groupOf(db: DB, filter: StatisticsFilter): Promise<Group | null> {
  if (!FILTER_KEYS.some(([key]) => filter[key] !== undefined)) return null;
  let gradeId = filter.gradeId;
  if (filter.classId !== undefined && gradeId === undefined) {
    gradeId = (await db.selectFrom('classes').select('grade_id').where('id', '=', filter.classId).executeTakeFirst())?.grade_id ?? -1;
  }
  const role = gradeId !== undefined ? 'STUDENT' : filter.role;
  return { role, gradeId, classId: filter.classId, none: filter.role !== undefined && role !== filter.role };
}
