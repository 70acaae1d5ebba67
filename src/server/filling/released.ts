import type { DB } from '../db/connect.js';
import { readAside } from '../db/read-aside.js';

/**
 * How many replies of each questionnaire are in results. A named reply is released as it is
 * stored; anonymous ones in batches (mixing.ts), so what staff see of an anonymous
 * questionnaire — results, reply lists, submitted counts — only ever moves by a batch.
 */
export async function releasedCounts(db: DB, ids: number[]): Promise<Map<number, number>> {
  if (!ids.length) return new Map();
  // aside: a row per released reply is counted
  const rows = await readAside(
    db,
    db
      .selectFrom('replies')
      .select((eb) => ['questionnaire_id', eb.fn.countAll<number>().as('n')])
      .where('questionnaire_id', 'in', ids)
      .where('released', '=', 1)
      .groupBy('questionnaire_id'),
  );
  return new Map(rows.map((r) => [r.questionnaire_id, Number(r.n)]));
}
