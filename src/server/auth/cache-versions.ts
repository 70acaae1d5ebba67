import SQLite from 'better-sqlite3';
import { sqliteHandleOf, type DB } from '../db/connect.js';

/**
 * The counters of cache_versions (migrations 0017, 0021, 0023) as read at one moment: `auth`,
 * `calendar`, `profile` and a `rows:<table>` per master-data table. What is kept in memory under
 * a counter counts only while the counter is where it was when the value was read.
 */
export interface Versions {
  readonly auth: number;
  readonly calendar: number;
  readonly profile: number;
  /** every counter by name, 0 for one that does not exist */
  of(name: string): number;
}

function versionsOf(rows: { name: string; version: number | string }[]): Versions {
  const all = new Map(rows.map((r) => [r.name, Number(r.version)]));
  const of = (name: string) => all.get(name) ?? 0;
  return { auth: of('auth'), calendar: of('calendar'), profile: of('profile'), of };
}

/**
 * Reads the counters for a request that has begun: what it gets was read after it asked, so a
 * change committed before the request began is always seen (the promise of session-cache.ts).
 */
export interface CacheVersions {
  read(): Versions | Promise<Versions>;
}

const counterQuery = (db: DB) => db.selectFrom('cache_versions').select(['name', 'version']).compile();

/** The counters read as any query: waiting for the connection like the others. */
const readQueued = (db: DB, query: ReturnType<typeof counterQuery>) => db.executeQuery<{ name: string; version: number | string }>(query).then(({ rows }) => versionsOf(rows));

export function cacheVersions(db: DB): CacheVersions {
  const sqlite = sqliteHandleOf(db);
  const query = counterQuery(db);
  if (!sqlite) return new TurnVersions(() => readQueued(db, query));
  let statement: SQLite.Statement | null = null;
  return new TurnVersions(() => {
    // while a transaction is open on the app's one connection (a submission's, an import's,
    // across turns of the event loop) the read waits for its end as any query does: the open
    // transaction may have moved a counter it will roll back, and the next change would move it to
    // the same number again, so a value kept under it would pass for current
    if (sqlite.inTransaction) return readQueued(db, query);
    statement ??= sqlite.prepare(query.sql);
    return versionsOf(statement.all() as { name: string; version: number }[]);
  });
}

/**
 * The requests that ask in the same turn of the event loop share one read, made once that turn is
 * over (setImmediate): each still gets counters read after it asked, and under load one read
 * serves every request that came in together instead of one each — on PostgreSQL one round trip,
 * on SQLite one read transaction (its locks cost more than reading the dozen rows).
 *
 * SQLite reads on the app's own connection, not one of its own: a second connection's read
 * snapshots change what the write-ahead log's checkpoints copy into the file, and
 * tests/server/attack/anonymity-at-rest.test.ts found an anonymous reply's earlier copy in the
 * file with one. (Such a copy has since been found with QE's one connection too: SQLite's b-tree
 * balance left it, and new replies now wait apart so that it cannot,
 * docs/security.md#anonymous-means-unlinkable. A second reading connection may well be harmless.)
 */
class TurnVersions implements CacheVersions {
  private next: Promise<Versions> | null = null;

  constructor(private readonly readNow: () => Versions | Promise<Versions>) {}

  read(): Promise<Versions> {
    this.next ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      this.next = null;
      return this.readNow();
    });
    return this.next;
  }
}
