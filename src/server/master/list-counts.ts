import type { DB } from '../db/connect.js';

/** Totals kept at most; past it the oldest go. */
const KEPT = 500;

interface Kept {
  versions: string;
  total: number;
}

/**
 * A list's total, kept while the row counters (migration 0021) of the tables it counts stay where
 * they were: paging through a searched list of 5,000 students counted them all again for every
 * page — most of the call's time. The counters are read before counting, so a change committed
 * meanwhile can only make the next call count again, never keep an older total. A table without a
 * counter (an entity added since) is counted every time.
 */
export class ListCounts {
  private kept = new Map<string, Kept>();

  constructor(private readonly db: DB) {}

  async total(tables: string[], key: string, count: () => Promise<number>): Promise<number> {
    const names = tables.map((t) => `rows:${t}`);
    const rows = await this.db.selectFrom('cache_versions').select(['name', 'version']).where('name', 'in', names).execute();
    if (rows.length !== names.length) return count();
    const versions = names.map((n) => String(rows.find((r) => r.name === n)!.version)).join(',');
    const kept = this.kept.get(key);
    if (kept?.versions === versions) return kept.total;
    const total = await count();
    this.kept.delete(key);
    if (this.kept.size >= KEPT) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(key, { versions, total });
    return total;
  }
}
