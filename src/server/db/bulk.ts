import { CompiledQuery } from 'kysely';
import { isPostgres, type DB } from './connect.js';
import type { Database } from './schema.js';

/**
 * Many rows into one table, written as plain SQL with bound values: the hot paths of submissions
 * and counting write hundreds of rows a moment, and Kysely's builder spent more time assembling
 * and compiling such an insert, value by value, than the database spent storing it. On SQLite the
 * rows go in statements of 64, 32, … 1 rows, so a table has at most seven statement texts, each
 * prepared once (connect.ts keeps them); on PostgreSQL, where each statement is a round trip, of
 * up to 512. Table and column names come from the code, never from input.
 */
export async function insertRows<T extends keyof Database & string>(
  db: DB,
  table: T,
  columns: readonly (keyof Database[T] & string)[],
  rows: readonly (readonly unknown[])[],
  /** e.g. an upsert's `on conflict (…) do update set …`, the same on both databases */
  onConflict = '',
): Promise<void> {
  const postgres = isPostgres(db);
  for (let at = 0; at < rows.length; ) {
    let size = postgres ? 512 : 64;
    while (size > rows.length - at) size /= 2;
    const values: unknown[] = [];
    for (let i = at; i < at + size; i++) {
      const row = rows[i];
      if (row.length !== columns.length) throw new Error(`a row for ${table} has ${row.length} values for ${columns.length} columns`);
      for (const v of row) values.push(v);
    }
    await db.executeQuery(CompiledQuery.raw(statementText(postgres, table, columns, size, onConflict), values));
    at += size;
  }
}

const texts = new Map<string, string>();

function statementText(postgres: boolean, table: string, columns: readonly string[], rows: number, onConflict: string): string {
  const key = `${postgres}\u0000${table}\u0000${columns.join(',')}\u0000${rows}\u0000${onConflict}`;
  let text = texts.get(key);
  if (!text) {
    let n = 0;
    const tuple = () => `(${columns.map(() => (postgres ? `$${++n}` : '?')).join(', ')})`;
    text = `insert into "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) values ${Array.from({ length: rows }, tuple).join(', ')}${onConflict ? ` ${onConflict}` : ''}`;
    texts.set(key, text);
  }
  return text;
}

/** The upsert of a counter table: a row already there has the new row's `n` added to its own. */
export const addingToCount = (table: string, key: readonly string[]) => `on conflict (${key.map((c) => `"${c}"`).join(', ')}) do update set "n" = "${table}"."n" + excluded."n"`;
