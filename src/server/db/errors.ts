import SQLite from 'better-sqlite3';
import pg from 'pg';

/**
 * Did the database refuse a value the request brought (a number out of its column's range, text
 * it cannot hold)? PostgreSQL says so with SQLSTATE class 22 "data exception" (22003 an int4
 * overflow, 22021 a NUL in text, 22P02 bad text for a number, 22007/22008 bad dates); SQLite with
 * a datatype mismatch or a value too big. Route schemas refuse such values first; this is the
 * safety net, so the caller gets 400 rather than a server error.
 */
export function isDataException(error: unknown): boolean {
  if (error instanceof pg.DatabaseError) return typeof error.code === 'string' && error.code.startsWith('22');
  if (error instanceof SQLite.SqliteError) return error.code === 'SQLITE_MISMATCH' || error.code === 'SQLITE_TOOBIG';
  return false;
}
