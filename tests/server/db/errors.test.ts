import SQLite from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, isDiskFull } from '../../../src/server/db/errors.js';

/** Which failures are "the database is away, try again" (762) and which "the disk is full" (763): the errors pg, Node and SQLite raise. */
const pgError = (code: string) => Object.assign(new pg.DatabaseError('x', 1, 'error'), { code });
const nodeError = (code: string) => Object.assign(new Error(code), { code });
const sqliteError = (code: string) => new SQLite.SqliteError('x', code);

describe('database failure classes', () => {
  it('the database away: PostgreSQL class 08, 57P01–57P03, 53300; broken sockets; pg\'s own messages; SQLite busy or failing I/O', () => {
    for (const code of ['08000', '08003', '08006', '08001', '57P01', '57P02', '57P03', '53300']) expect(isDatabaseUnavailable(pgError(code)), code).toBe(true);
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT']) expect(isDatabaseUnavailable(nodeError(code)), code).toBe(true);
    for (const message of ['Connection terminated unexpectedly', 'Client has encountered a connection error and is not queryable', 'timeout exceeded when trying to connect']) expect(isDatabaseUnavailable(new Error(message)), message).toBe(true);
    for (const code of ['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_IOERR', 'SQLITE_IOERR_WRITE', 'SQLITE_LOCKED']) expect(isDatabaseUnavailable(sqliteError(code)), code).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('wrapped'), { cause: nodeError('ECONNRESET') }))).toBe(true);
  });

  it('not the database away: a constraint, bad data, a programming error, a full disk', () => {
    for (const code of ['23505', '22003', '42P01', '40001']) expect(isDatabaseUnavailable(pgError(code)), code).toBe(false);
    for (const code of ['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_ERROR', 'SQLITE_FULL']) expect(isDatabaseUnavailable(sqliteError(code)), code).toBe(false);
    expect(isDatabaseUnavailable(new TypeError('x is undefined'))).toBe(false);
  });

  it('the disk full: ENOSPC, EDQUOT, SQLITE_FULL, PostgreSQL 53100', () => {
    expect(isDiskFull(nodeError('ENOSPC'))).toBe(true);
    expect(isDiskFull(nodeError('EDQUOT'))).toBe(true);
    expect(isDiskFull(sqliteError('SQLITE_FULL'))).toBe(true);
    expect(isDiskFull(pgError('53100'))).toBe(true);
    expect(isDiskFull(nodeError('EACCES'))).toBe(false);
    expect(isDiskFull(pgError('53300'))).toBe(false);
  });
});
