import SQLite from 'better-sqlite3';
import { Kysely, PostgresAdapter, PostgresDialect, SqliteDialect, type SqliteDatabase } from 'kysely';
import pg from 'pg';
import { join } from 'node:path';
import type { Config } from '../config.js';
import type { Database } from './schema.js';
import { createPool } from './pool.js';
import { ownerOnlyFile } from './files.js';
import { registerSqliteFile } from './read-aside.js';
import { Checkpointer, FALLBACK_AUTOCHECKPOINT_PAGES, registerCheckpointer } from './checkpoint.js';

// int8 (counts, epoch milliseconds) as JS numbers rather than strings: every value QE
// keeps there is far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));

export type DB = Kysely<Database>;

export function createDb(config: Pick<Config, 'databaseUrl' | 'dataDir' | 'sqliteBusyMs'>): DB {
  if (config.databaseUrl) {
    // a backend that goes away (server restart, a terminated connection) rejects the queries
    // on it and never ends the process (pool.ts); the pool opens a new one when needed
    const pool = createPool({ connectionString: config.databaseUrl, max: 20 });
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
  sqlite.pragma(`busy_timeout = ${config.sqliteBusyMs ?? 5000}`);
  // what is deleted or moved is overwritten with zeros, not left in free space where a reader of
  // the file could find an anonymous reply's earlier place beside its respondent's (docs/security.md#anonymous-means-unlinkable)
  sqlite.pragma('secure_delete = ON');
  // a school's database is tens of megabytes: 64 MiB of page cache and the file mapped into memory
  // (reads without a copy through the page cache), temporary sort trees in memory
  sqlite.pragma('cache_size = -65536');
  sqlite.pragma('mmap_size = 268435456');
  sqlite.pragma('temp_store = MEMORY');
  // fresh planner statistics where the tables changed much since the last time (cheap when nothing did)
  sqlite.pragma('optimize = 0x10002');
  // checkpoints on a thread of their own (checkpoint.ts), this connection's only as a safety net
  sqlite.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
  const checkpointer = new Checkpointer(file);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: keptStatements(sqlite, checkpointer) }) });
  registerSqliteFile(db, file);
  registerCheckpointer(db, checkpointer);
  handles.set(db, sqlite);
  return db;
}

const handles = new WeakMap<Kysely<any>, SQLite.Database>();
/** The better-sqlite3 connection behind a database QE opened on SQLite; undefined on PostgreSQL. */
export const sqliteHandleOf = (db: Kysely<any>): SQLite.Database | undefined => handles.get(db);

/**
 * better-sqlite3 as Kysely sees it, with prepared statements kept by their SQL (the most recently
 * used STATEMENTS_KEPT). Kysely prepares every query anew, and parsing and planning cost more than
 * running most of QE's queries. A kept statement is never used twice at once: Kysely's SQLite
 * connection runs one query at a time, a streamed one included.
 */
const STATEMENTS_KEPT = 500;
const BEGIN = /^\s*begin\b/i;
const ROLLBACK = /^\s*rollback\s*;?\s*$/i;
const NOTHING_TO_ROLL_BACK = { reader: false, run: () => ({ changes: 0, lastInsertRowid: 0 }) } as unknown as SQLite.Statement;
const TRANSACTION_CONTROL = /^\s*(commit|end|rollback|savepoint|release)\b/i;
function keptStatements(sqlite: SQLite.Database, checkpointer: Checkpointer): SqliteDatabase {
  const kept = new Map<string, SQLite.Statement>();
  const begins = new WeakSet<SQLite.Statement>();
  const controls = new WeakSet<SQLite.Statement>();
  // whether the transaction under way wrote: a read in a transaction wakes no checkpoint, a write
  // wakes it when its transaction ends (committed frames are what a checkpoint copies)
  let wroteInTransaction = false;
  return {
    close: () => {
      checkpointer.stop();
      sqlite.close();
    },
    prepare(sql: string) {
      // SQLite itself ends a transaction that met a full disk, an I/O error or a lack of memory:
      // Kysely's ROLLBACK after it would fail ("no transaction is active") and hide the error
      // that says what happened (DISK_FULL, DATABASE_UNAVAILABLE), so it does nothing then
      if (!sqlite.inTransaction && ROLLBACK.test(sql)) return NOTHING_TO_ROLL_BACK;
      let statement = kept.get(sql);
      if (statement) kept.delete(sql);
      else {
        statement = sqlite.prepare(sql);
        if (BEGIN.test(sql)) begins.add(statement);
        else if (TRANSACTION_CONTROL.test(sql)) controls.add(statement);
      }
      kept.set(sql, statement);
      if (kept.size > STATEMENTS_KEPT) kept.delete(kept.keys().next().value!);
      if (!statement.reader) {
        if (begins.has(statement)) wroteInTransaction = false;
        else if (controls.has(statement)) {
          if (wroteInTransaction) checkpointer.wrote();
        } else if (sqlite.inTransaction) wroteInTransaction = true;
        else checkpointer.wrote();
      }
      return statement;
    },
  };
}

export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
