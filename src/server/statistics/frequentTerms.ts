import { sql } from 'kysely';
import type { DB } from '../db/connect.js';
import { BusinessError } from '../plugins/errors.js';
import { OTHER } from '../../shared/questionnaire/answers.js';
import { normalWord } from '../../shared/statistics/terms.js';
import type { StatisticsTermsQuery, TermList } from '../../shared/calls/statistics.js';
import { groupOf } from './filters.js';
import { withheldResults } from './withholding.js';
import type { Scoped } from './scoped.js';

/**
 * The read side of the texts' words and phrases (written by terms.ts): the most frequent of a
 * question for the filter's respondents, and the answers that use one.
 */

/** The answers of one question and part that use a term: for the texts' own filter (replies.ts). */
export function answersUsing(db: DB, questionnaireId: number, questionId: string, item: string, term: string) {
  return db
    .selectFrom('text_terms')
    .select('reply_id')
    .where('questionnaire_id', '=', questionnaireId)
    .where('question_id', '=', questionId)
    .where('item', '=', item)
    .where('term', '=', term);
}

/** A term as the texts' filter takes it: as it was counted (NFKC, lower case). */
export const termOfQuery = normalWord;

/** The most frequent terms of a text question's answers, or of a choice question's 'other' texts, for the filter's respondents. */
export async function topTerms(db: DB, minGroupSize: number, scoped: Scoped, query: StatisticsTermsQuery): Promise<TermList> {
  const id = scoped.row.id;
  const question = scoped.definition.sections.flatMap((s) => s.questions).find((q) => q.id === query.questionId);
  if (!question) throw new BusinessError('RECORD_NOT_FOUND');
  const withheld = await withheldResults(db, scoped.row, query, minGroupSize);
  if (withheld) return { list: [], withheld };
  const item = query.part === 'other' ? OTHER : '';
  const size = query.size ?? 30;
  const group = await groupOf(db, query);
  let rows: { term: string; n: number | string }[];
  if (!group) {
    rows = await db
      .selectFrom('term_totals')
      .select(['term', 'n'])
      .where('questionnaire_id', '=', id)
      .where('question_id', '=', query.questionId)
      .where('item', '=', item)
      .where('n', '>', 0)
      .orderBy('n', 'desc')
      .orderBy('term')
      .limit(size)
      .execute();
  } else {
    let q = db.selectFrom('term_counts').where('questionnaire_id', '=', id).where('question_id', '=', query.questionId).where('item', '=', item);
    if (group.none) q = q.where(sql<boolean>`1 = 0`);
    if (group.role !== undefined) q = q.where('respondent_role', '=', group.role);
    if (group.gradeId !== undefined) q = q.where('grade_id', '=', group.gradeId);
    if (group.classId !== undefined) q = q.where('class_id', '=', group.classId);
    const n = sql<number>`sum(n)`;
    rows = await q.select(['term', n.as('n')]).groupBy('term').having(n, '>', 0).orderBy(n, 'desc').orderBy('term').limit(size).execute();
  }
  return { list: rows.map((r) => ({ term: r.term, n: Number(r.n) })), withheld: null };
}
