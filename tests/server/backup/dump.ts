import type { DB } from '../../../src/server/db/connect.js';
import { ARCHIVED_TABLES } from '../../../src/server/backup/format.js';
import { SIGN_IN_COLUMNS } from '../../../src/server/db/migrations/0030_sign_in_stamps.js';

/**
 * Every archived table's rows as sorted JSON lines, keys sorted: what a restore must give back,
 * compared table by table — but for the sign-in stamps, which a restore renews on purpose (every
 * reminder's link dies with it: tests/server/filling/sign-in-link-death.test.ts). `roundFloats`: numbers to 6 significant digits, for a comparison
 * across databases (PostgreSQL's real is single precision, SQLite's double).
 */
export async function dumpTables(db: DB, options: { roundFloats?: boolean } = {}): Promise<Record<string, string[]>> {
  const value = (v: unknown) => (options.roundFloats && typeof v === 'number' && !Number.isInteger(v) ? Number(v.toPrecision(6)) : v);
  const out: Record<string, string[]> = {};
  for (const table of ARCHIVED_TABLES) {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- every table by its name
    const rows: Record<string, unknown>[] = await (db as any).selectFrom(table).selectAll().execute();
    out[table] = rows.map((r) => JSON.stringify(Object.fromEntries(Object.entries(r).filter(([k]) => !SIGN_IN_COLUMNS.includes(k)).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, value(v)])))).sort();
  }
  return out;
}
