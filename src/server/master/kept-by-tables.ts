import type { CacheVersions } from '../auth/cache-versions.js';

interface Kept<T> {
  versions: string;
  value: T;
}

/**
 * Values read from master-data tables — a list's total, a page of a list — kept while the row
 * counters (migration 0021) of the tables they were read from stay where they were: paging
 * through a searched list of 5,000 students counted them all again for every page, and the pages
 * staff open most (a list's first page, the page they come back to) were read again each time.
 * The counters are read before the value, so a change committed meanwhile can only make the next
 * call read again, never keep an older value. A table without a counter (an entity added since)
 * is read every time.
 */
export class KeptByTables<T> {
  private kept = new Map<string, Kept<T>>();

  /** `counters`: the app's, which the session cache reads too; `most`: values kept at most, past it the oldest go */
  constructor(
    private readonly counters: CacheVersions,
    private readonly most: number,
  ) {}

  async get(tables: string[], key: string, read: () => Promise<T>): Promise<T> {
    const names = tables.map((t) => `rows:${t}`);
    const counters = await this.counters.read();
    if (names.some((n) => counters.of(n) === 0)) return read();
    const versions = names.map((n) => counters.of(n)).join(',');
    const kept = this.kept.get(key);
    if (kept?.versions === versions) return kept.value;
    const value = await read();
    this.kept.delete(key);
    if (this.kept.size >= this.most) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(key, { versions, value });
    return value;
  }
}
