import type { DB } from '../db/connect.js';
import type { AuthUser } from '../plugins/guard.js';
import type { Lang } from '../../shared/errors.js';
import type { StatisticsComparison, StatisticsFilter } from '../../shared/calls/statistics.js';
import { BusinessError } from '../plugins/errors.js';
import { readableAmong } from './scoped.js';
import { resultsOf } from './detail.js';
import { countPendingNow } from './counting.js';
import type { Definition } from '../../shared/questionnaire/definition.js';

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
 * What each year's questions are across the years, by question id. Two questions are one when
 * they have the same id (copies and templates keep ids) or the same bank origin — the bank
 * question they were inserted from (`bankId`) or saved to the bank as (its source) — so one bank
 * question asked in two years under two ids lines up, and a copy of a question saved to the bank
 * afterwards still lines up with the year it was copied from. A question that would be a second
 * of one year's goes by itself.
 */
export async function matchKeys(db: DB, members: { id: number; definition: Definition }[]): Promise<Map<string, string>[]> {
  const saved = members.length
    ? await db
        .selectFrom('question_bank')
        .select(['id', 'source_questionnaire_id', 'source_question_id'])
        .where('source_questionnaire_id', 'in', members.map((m) => m.id))
        .orderBy('id')
        .execute()
    : [];
  // the bank questions each year's question was saved as, by questionnaire and question id
  const savedAs = new Map<string, number[]>();
  for (const b of saved) {
    const at = `${b.source_questionnaire_id}:${b.source_question_id}`;
    savedAs.set(at, [...(savedAs.get(at) ?? []), b.id]);
  }
  // one set of labels (`id:…`, `bank:…`) per question across the years, joined as they are met
  const parent = new Map<string, string>();
  const find = (label: string): string => {
    let root = label;
    while (parent.has(root) && parent.get(root) !== root) root = parent.get(root)!;
    parent.set(label, root);
    return root;
  };
  const join = (a: string, b: string) => {
    const [ra, rb] = [find(a), find(b)];
    if (ra !== rb) parent.set(rb, ra);
  };
  const questions = members.map((m) => m.definition.sections.flatMap((s) => s.questions));
  questions.forEach((qs, i) => {
    for (const q of qs) {
      find(`id:${q.id}`);
      if (q.bankId !== undefined) join(`id:${q.id}`, `bank:${q.bankId}`);
      for (const bankId of savedAs.get(`${members[i].id}:${q.id}`) ?? []) join(`id:${q.id}`, `bank:${bankId}`);
    }
  });
  return questions.map((qs, i) => {
    const keys = new Map<string, string>();
    const used = new Set<string>();
    for (const q of qs) {
      const root = find(`id:${q.id}`);
      const key = used.has(root) ? `own:${i}:${q.id}` : root;
      used.add(root);
      keys.set(q.id, key);
    }
    return keys;
  });
}

/**
 * Comparison across years (docs/product-rules.md#comparison-across-years): every questionnaire of
 * the series the caller may read that has results, oldest school year first, each with its own
 * results for the filter — grades and classes as each year's respondents were in them, an
 * anonymous year's small groups withheld by its own rules — and its questions matched by their
 * origin (`matchKeys`: the id a copy or template keeps, or the bank question it came from).
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

  // each year's questions by what they are across years: the bank question they came from or were saved as, else their id
  const keys = await matchKeys(db, members);
  const keyed = results.map((r, i) => r.questions.map((q) => ({ key: keys[i].get(q.id) ?? `own:${i}:${q.id}`, q })));
  // the chosen questionnaire's questions first, in its order; then those only other years have
  const chosenAt = members.indexOf(chosen);
  const order: string[] = [];
  const idOf = new Map<string, string>();
  for (const list of [keyed[chosenAt], ...keyed]) {
    for (const { key, q } of list) {
      if (idOf.has(key)) continue;
      idOf.set(key, q.id);
      order.push(key);
    }
  }
  const byKey = keyed.map((list) => new Map(list.map(({ key, q }) => [key, q])));
  const questions = order.map((key) => {
    const years = byKey.map((qs) => qs.get(key) ?? null);
    // named as the newest year that has it names it
    const newest = [...years].reverse().find((q) => q !== null)!;
    return { id: idOf.get(key)!, type: newest.type, title: newest.title, years };
  });
  return {
    series: members.map(({ definition: _definition, beginDate: _beginDate, ...questionnaire }, i) => ({ questionnaire, replyCount: results[i].replyCount, withheld: results[i].withheld })),
    questions,
  };
}
