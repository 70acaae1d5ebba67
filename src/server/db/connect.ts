import SQLite from 'better-sqlite3';
import { Kysely, PostgresAdapter, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { join } from 'node:path';
import type { Config } from '../config.js';
import type { Database } from './schema.js';
import { ownerOnlyFile } from './files.js';

// int8 (counts, epoch milliseconds) as JS numbers rather than strings: every value QE
// keeps there is far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));

export type DB = Kysely<Database>;

export function createDb(config: Pick<Config, 'databaseUrl' | 'dataDir'>): DB {
  if (config.databaseUrl) {
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 20 });
    // An idle client whose backend goes away (server restart, a terminated connection) is
    // reported here; without a listener that 'error' event would end the process. The pool
    // has already dropped the client and opens a new one when needed.
    pool.on('error', () => undefined);
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  const file = join(config.dataDir, 'qe.sqlite');
  // the pupils' replies: readable by QE's own user only (SQLite gives -wal and -shm the file's mode)
  for (const f of [file, `${file}-wal`, `${file}-shm`]) ownerOnlyFile(f, f === file);
  const sqlite = new SQLite(file);
  // WAL lets readers run beside the one writer; busy_timeout makes concurrent writers wait instead of failing.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // what is deleted or moved is overwritten with zeros, not left in free space where a reader of
  // the file could find an anonymous reply's earlier place beside its respondent's (DESIGN.md §5)
  sqlite.pragma('secure_delete = ON');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
}

export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
