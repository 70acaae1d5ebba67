import { sql } from 'kysely';
import { isPostgres, type DB } from './connect.js';
import { withReadsAsideHeld } from './read-aside.js';
import { withCheckpointsHeld } from './checkpoint.js';

/** The tables whose rows are rewritten to keep anonymous replies apart from their respondents. */
const ANONYMITY_TABLES = ['feedback', 'replies', 'waiting_replies', 'reply_answers'] as const;

/**
 * After anonymous replies and their respondents' feedback were rewritten (filling/mixing.ts):
 * nothing of their earlier versions may stay in the database files.
 *
 * - SQLite: what was deleted is zeroed in the main file (secure_delete, connect.ts); the
 *   write-ahead log still holds the pages of each submission, reply beside feedback update, so
 *   it is checkpointed into the main file and truncated to nothing.
 * - PostgreSQL: the earlier row versions are dead tuples whose xmin is the submitting
 *   transaction's on both sides; VACUUM removes them (index entries too) so no system column
 *   pairs them any more. What PostgreSQL keeps outside the tables — its WAL segments and any
 *   WAL archive — is beyond QE's reach (README).
 *
 * Answers false when another reader kept SQLite's log from being truncated (the next round
 * retries). On PostgreSQL a transaction open elsewhere in the database may keep dead versions
 * until the next round's VACUUM.
 */
export async function scrubRewrittenRows(db: DB): Promise<boolean> {
  if (isPostgres(db)) {
    // VACUUM cannot run inside a transaction: on a pool connection of its own, autocommit
    await sql.raw(`vacuum (index_cleanup on) ${ANONYMITY_TABLES.join(', ')}`).execute(db);
    return true;
  }
  // another process reading the file (a backup, the sqlite3 shell) holds the log: the checkpoint
  // must not wait for it — better-sqlite3 would wait on the event loop — but give up at once and
  // be tried again next round. The connection is held throughout, so nothing else runs without
  // the usual busy timeout meanwhile.
  // QE's own reading and checkpointing threads (read-aside.ts, checkpoint.ts) are kept out of the
  // log meanwhile
  return withLogToItself(db, () =>
    db.connection().execute(async (conn) => {
      const { rows: [before] } = await sql<{ timeout: number }>`pragma busy_timeout`.execute(conn);
      await sql`pragma busy_timeout = 0`.execute(conn);
      try {
        const { rows } = await sql<{ busy: number; log: number; checkpointed: number }>`pragma wal_checkpoint(TRUNCATE)`.execute(conn);
        return rows[0]?.busy === 0;
      } finally {
        await sql.raw(`pragma busy_timeout = ${Number(before?.timeout ?? 5000)}`).execute(conn);
      }
    }),
  );
}

/**
 * Once, when QE first runs with this protection: files written before it may hold free space
 * and log pages from earlier submissions, so the whole database is compacted.
 */
export async function compactDatabase(db: DB): Promise<void> {
  if (isPostgres(db)) {
    await scrubRewrittenRows(db);
    return;
  }
  await sql`vacuum`.execute(db);
  await withLogToItself(db, () => sql`pragma wal_checkpoint(TRUNCATE)`.execute(db));
}

/** Runs `work` with QE's other connections to the SQLite file (reading, checkpointing) idle. */
const withLogToItself = <T>(db: DB, work: () => Promise<T>): Promise<T> => withCheckpointsHeld(db, () => withReadsAsideHeld(db, work));
