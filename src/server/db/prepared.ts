import type { Compilable, CompiledQuery } from 'kysely';
import type { DB } from './connect.js';

/** A stand-in for an argument while the query is compiled: found again among the compiled parameters by identity. */
class Argument {
  constructor(readonly index: number) {}
}

/**
 * A query of the hot paths built and compiled once, then run with each call's arguments: every
 * request of a whole school submitting at once rebuilt and recompiled the same query tree, which
 * cost more of the server's one thread than SQLite spent running it. `build` must place each of
 * its arguments as a bound value (a `where` value, not a table or column name) and branch on none
 * of them; the values it writes itself stay as compiled.
 */
export function preparedQuery<A extends unknown[], R>(db: DB, arity: A['length'], build: (...args: A) => Compilable<R>): (...args: A) => Promise<R[]> {
  const marks = Array.from({ length: arity }, (_, i) => new Argument(i));
  const compiled: CompiledQuery<R> = build(...(marks as unknown as A)).compile();
  const from = compiled.parameters.map((p) => (p instanceof Argument ? p.index : -1));
  const missing = marks.filter((m) => !from.includes(m.index));
  if (missing.length) throw new Error(`preparedQuery: argument ${missing[0].index} is not a bound value of ${compiled.sql}`);
  return async (...args: A) => {
    const parameters = from.map((i, k) => (i >= 0 ? args[i] : compiled.parameters[k]));
    const { rows } = await db.executeQuery<R>({ ...compiled, parameters });
    return rows;
  };
}
