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

/** Node's words for a connection that could not be made or broke off. */
const BROKEN_CONNECTION = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
/** pg's own messages (no code) for a connection that went away or never came. */
const PG_CONNECTION_MESSAGE = /Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Connection terminated due to connection timeout|Client was closed and is not queryable|Cannot use a pool after calling end/i;

/**
 * Is this the database being away for a moment rather than a fault of QE or the request?
 * PostgreSQL: SQLSTATE class 08 (connection exception), 57P01/57P02/57P03 (the backend was
 * terminated, the server is shutting down or not yet accepting), 53300 (too many connections);
 * Node's refused or reset socket; pg's messages for a terminated connection or a connect
 * timeout. SQLite: another writer held the lock past busy_timeout, or the disk failed a read or
 * write. The caller is told DATABASE_UNAVAILABLE (try again); the process carries on.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (e instanceof SQLite.SqliteError) return /^SQLITE_(BUSY|LOCKED|IOERR|CANTOPEN|PROTOCOL)/.test(e.code) && !isDiskFull(e);
    if (typeof code === 'string') {
      if (/^08/.test(code) || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300') return true;
      if (BROKEN_CONNECTION.has(code)) return true;
    }
    if (PG_CONNECTION_MESSAGE.test(e.message)) return true;
  }
  return false;
}

/**
 * Is the disk (or the database's) full? Node's ENOSPC and EDQUOT on a file QE writes, SQLite's
 * SQLITE_FULL (and an IOERR that was a short write on a full disk), PostgreSQL's 53100
 * (disk_full). The caller is told DISK_FULL; nothing half-written is kept.
 */
export function isDiskFull(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_FULL' || code === '53100') return true;
  }
  return false;
}
