import SQLite from 'better-sqlite3';
import type { DB } from '../db/connect.js';
import { sqliteFileOf } from '../db/read-aside.js';

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
  close(): void;
}

export function cacheVersions(db: DB): CacheVersions {
  const file = sqliteFileOf(db);
  return file ? new SqliteVersions(file) : new CoalescedVersions(db);
}

/**
 * SQLite: one statement on a read-only connection of its own, run at once. A read there costs a
 * few microseconds and never waits behind the app's connection, which a submission's or an
 * import's transaction may hold across many turns of the event loop; and it sees committed
 * counters only — never a counter moved by a transaction still open (and perhaps rolled back)
 * on the app's connection. Nothing committed since the last read (SQLite's data_version, which
 * every commit by another connection moves on): the counters read then.
 */
class SqliteVersions implements CacheVersions {
  private connection: SQLite.Database | null = null;
  private statements: { counters: SQLite.Statement; dataVersion: SQLite.Statement } | null = null;
  private last: { dataVersion: number; versions: Versions } | null = null;

  constructor(private readonly file: string) {}

  read(): Versions {
    if (!this.statements) {
      this.connection = new SQLite(this.file, { readonly: true, fileMustExist: true });
      this.statements = {
        counters: this.connection.prepare('select name, version from cache_versions'),
        // moves on whenever another connection — the app's among them — commits to the file
        dataVersion: this.connection.prepare('pragma data_version').pluck(),
      };
    }
    const dataVersion = this.statements.dataVersion.get() as number;
    if (this.last?.dataVersion === dataVersion) return this.last.versions;
    const versions = versionsOf(this.statements.counters.all() as { name: string; version: number }[]);
    this.last = { dataVersion, versions };
    return versions;
  }

  close() {
    this.connection?.close();
    this.connection = this.statements = this.last = null;
  }
}

/**
 * PostgreSQL: the requests that ask in the same turn of the event loop share one read, sent once
 * that turn is over (setImmediate): each still gets counters read after it asked, and under load
 * one round trip serves every request that came in together instead of one each.
 */
class CoalescedVersions implements CacheVersions {
  private next: Promise<Versions> | null = null;
  private readonly query;

  constructor(private readonly db: DB) {
    this.query = db.selectFrom('cache_versions').select(['name', 'version']).compile();
  }

  read(): Promise<Versions> {
    this.next ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      this.next = null;
      return this.db.executeQuery<{ name: string; version: number | string }>(this.query).then(({ rows }) => versionsOf(rows));
    });
    return this.next;
  }

  close() {}
}
