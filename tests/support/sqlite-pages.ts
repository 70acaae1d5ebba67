import { sql } from 'kysely';
import type { DB } from '../../src/server/db/connect.js';

/** The offsets where `needle` lies in `haystack` (a database file read whole). */
export function places(haystack: Buffer, needle: string): number[] {
  const n = Buffer.from(needle);
  const at: number[] = [];
  for (let i = haystack.indexOf(n); i !== -1; i = haystack.indexOf(n, i + 1)) at.push(i);
  return at;
}

/**
 * SQLite: the table or index each page of the main file belongs to, by a byte's offset in the
 * file ('free' for a page of none: the free list, whose pages secure_delete zeroes). Read through
 * dbstat, which names a b-tree's overflow pages by their table too.
 */
export async function pageOwners(db: DB): Promise<{ size: number; pages: { pageno: number; name: string }[]; owner: (offset: number) => string }> {
  const { rows: [{ page_size: size }] } = await sql<{ page_size: number }>`pragma page_size`.execute(db);
  const { rows: pages } = await sql<{ pageno: number; name: string }>`select pageno, name from dbstat`.execute(db);
  const byPage = new Map(pages.map((r) => [r.pageno, r.name]));
  return { size, pages, owner: (offset) => byPage.get(Math.floor(offset / size) + 1) ?? 'free' };
}
