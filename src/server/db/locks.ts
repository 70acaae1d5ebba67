import { sql, type Transaction } from 'kysely';
import { isPostgres } from './connect.js';
import type { Database } from './schema.js';

/**
 * Kinds of work that must never run beside themselves, across every instance on one database.
 * Each is one PostgreSQL advisory-lock key (any fixed number QE uses for nothing else).
 */
const LOCKS = {
  /** changes to menus, actions, roles and who holds them: the own-access guard reads what they write */
  developerArea: 1_101_001,
  /** students' places in classes: a class number is checked free, then given, by one writer at a time */
  classNumbers: 1_101_002,
} as const;

/**
 * Takes a lock that the transaction holds until it commits or rolls back; call it first in the
 * transaction. On PostgreSQL a transaction-level advisory lock: a second transaction asking for
 * it waits until the first has ended, and (READ COMMITTED: each statement reads a fresh snapshot)
 * its statements after the lock then see what the first wrote. On SQLite nothing is needed: QE
 * keeps one connection to the file and Kysely runs one transaction at a time on it.
 */
export async function lockFor(trx: Transaction<Database>, work: keyof typeof LOCKS): Promise<void> {
  if (isPostgres(trx)) await sql`select pg_advisory_xact_lock(${LOCKS[work]})`.execute(trx);
}

/** Kinds of work that must never run beside themselves for the same questionnaire (the second key). */
const QUESTIONNAIRE_LOCKS = {
  /** writing a questionnaire's pending replies into its countable rows and counters (statistics/counting.ts) */
  replyCounting: 1_101_101,
} as const;

/** As `lockFor`, for one questionnaire: work on others goes on beside it. */
export async function lockForQuestionnaire(trx: Transaction<Database>, work: keyof typeof QUESTIONNAIRE_LOCKS, questionnaireId: number): Promise<void> {
  if (isPostgres(trx)) await sql`select pg_advisory_xact_lock(${QUESTIONNAIRE_LOCKS[work]}::int4, ${questionnaireId}::int4)`.execute(trx);
}
