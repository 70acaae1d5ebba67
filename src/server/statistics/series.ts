import type { DB } from '../db/connect.js';
import type { AuthUser } from '../plugins/guard.js';
import type { Lang } from '../../shared/errors.js';
import type { StatisticsComparison, StatisticsFilter } from '../../shared/calls/statistics.js';
import { BusinessError } from '../plugins/errors.js';
import { readableAmong } from './scoped.js';
import { resultsOf } from './detail.js';
import { countPendingNow } from './counting.js';

/** A series this long is more than a school runs: the walk stops there. */
const MAX_SERIES = 30;

/**
 * The questionnaires linked to `id` by `source_id`, either way and transitively (migration 0036),
 * or made from the same template (`template_id`, migration 0037): the same survey run again,
 * year after year, or by another teacher from the school's template.
 */
async function linked(db: DB, id: number): Promise<number[]> {
  const found = new Set([id]);
  const templates = new Set<number>();
  let frontier = [id];
  const add = (other: number | null | undefined, next: number[]) => {
    if (other !== null && other !== undefined && !found.has(other) && found.size < MAX_SERIES) {
      found.add(other);
      next.push(other);
    }
  };
  while (frontier.length && found.size < MAX_SERIES) {
    const rows = await db
      .selectFrom('questionnaires')
      .select(['id', 'source_id', 'template_id'])
      .where((eb) => eb.or([eb('id', 'in', frontier), eb('source_id', 'in', frontier)]))
      .orderBy('id')
      .execute();
    const next: number[] = [];
    const fresh: number[] = [];
    for (const r of rows) {
      for (const other of [r.id, r.source_id]) add(other, next);
      if (r.template_id !== null && r.template_id !== undefined && !templates.has(r.template_id)) {
        templates.add(r.template_id);
        fresh.push(r.template_id);
      }
    }
    if (fresh.length) {
      const siblings = await db.selectFrom('questionnaires').select('id').where('template_id', 'in', fresh).orderBy('id').execute();
      for (const r of siblings) add(r.id, next);
    }
    frontier = next;
  }
  return [...found];
}

/**
 * Comparison across years (docs/product-rules.md#comparison-across-years): every questionnaire of
 * the series the caller may read that has results, oldest school year first, each with its own
 * results for the filter — grades and classes as each year's respondents were in them, an
 * anonymous year's small groups withheld by its own rules — and its questions matched by id.
 * Each year's figures are read as the detail reads them (`resultsOf`), all years at once: the
 * counters' totals, not the replies, so the cost follows the questionnaires' size.
 */
export async function comparison(db: DB, minGroupSize: number, user: AuthUser, id: number, filter: StatisticsFilter, lang: Lang): Promise<StatisticsComparison> {
  // one the caller may not read, or that has not opened, is left out without a word; the chosen one is a 404
  const members = await readableAmong(db, user, await linked(db, id));
  const chosen = members.find((m) => m.id === id);
  if (!chosen) throw new BusinessError('RECORD_NOT_FOUND');
  const when = (m: (typeof members)[number]) => `${m.beginDate ?? ''}\u0000${m.openDate ?? ''}\u0000${String(m.id).padStart(12, '0')}`;
  members.sort((a, b) => (when(a) < when(b) ? -1 : when(a) > when(b) ? 1 : 0));
  const results = await Promise.all(
    members.map(async (m) => {
      await countPendingNow(db, m.id);
      return resultsOf(db, minGroupSize, m, m.definition, filter, lang);
    }),
  );

  // the chosen questionnaire's questions first, in its order; then those only other years have
  const order: string[] = [];
  const seen = new Set<string>();
  for (const r of [results[members.indexOf(chosen)], ...results]) {
    for (const q of r.questions) {
      if (seen.has(q.id)) continue;
      seen.add(q.id);
      order.push(q.id);
    }
  }
  const byId = results.map((r) => new Map(r.questions.map((q) => [q.id, q])));
  const questions = order.map((qid) => {
    const years = byId.map((qs) => qs.get(qid) ?? null);
    // named as the newest year that has it names it
    const newest = [...years].reverse().find((q) => q !== null)!;
    return { id: qid, type: newest.type, title: newest.title, years };
  });
  return {
    series: members.map(({ definition: _definition, beginDate: _beginDate, ...questionnaire }, i) => ({ questionnaire, replyCount: results[i].replyCount, withheld: results[i].withheld })),
    questions,
  };
}
