import type { Selectable, Transaction } from 'kysely';
import { isPostgres, type DB } from '../db/connect.js';
import type { Database, ImportJobsTable } from '../db/schema.js';
import type { ImportJobView } from '../../shared/master/import-job.js';

export type { ImportJobView };
import { hashPassword } from '../auth/passwords.js';
import { hashQueue } from '../auth/hash-queue.js';
import type { WriteGate } from '../plugins/write-gate.js';
import { ImportClaim, STALE_MS } from './import-claims.js';

/** How often a running job says it is alive, and after how long without that it is taken for cut off. */
const HEARTBEAT_MS = 2_000;
export { STALE_MS };

/** The part of an import that runs after its passwords are hashed: one transaction that writes every row. */
export type ImportWrite = (hashes: Map<string, string>, within: (trx: Transaction<Database>) => Promise<void>) => Promise<void>;

export type ImportCounts = { added: number; updated: number; skipped: number };

/**
 * Imports whose rows bring many different initial passwords (a school's usual file): the file
 * is checked in the request, which answers at once with the job; the passwords are hashed
 * afterwards — in the shared hash queue (auth/hash-queue.ts), so the libuv pool does the work,
 * logins keep their turn and the event loop stays free — with the progress in `import_jobs`;
 * then every row is written in one transaction that also marks the job done. A restart
 * mid-way leaves the job running with a stopped heartbeat: it is shown as interrupted, and
 * nothing of it was written.
 */
export class ImportJobs {
  private readonly running = new Map<number, { stop: boolean }>();

  constructor(
    private readonly db: DB,
    private readonly gate: WriteGate,
  ) {}

  /** Jobs a previous run of QE left running: on SQLite (one server) all of them, on PostgreSQL those whose heartbeat stopped. */
  async markInterrupted(): Promise<void> {
    await ImportClaim.clearLeftOver(this.db);
    const now = Date.now();
    let q = this.db.updateTable('import_jobs').set({ status: 'interrupted', finished_at: now }).where('status', '=', 'running');
    if (isPostgres(this.db)) q = q.where('heartbeat_at', '<', now - STALE_MS);
    await q.execute();
  }

  /** Claims a list for one import (import-claims.ts): refused with 761 while another import, on any instance, holds it. */
  claim(resource: string): Promise<ImportClaim> {
    return ImportClaim.take(this.db, resource);
  }

  /** Starts the job and answers it as it is now; the hashing and writing go on after the answer. */
  async start(input: JobInput & { claim: ImportClaim; userId: number; rows: number }): Promise<ImportJobView> {
    const now = Date.now();
    const { id } = await this.db
      .insertInto('import_jobs')
      .values({ resource: input.claim.resource, user_id: input.userId, status: 'running', rows: input.rows, passwords: input.passwords.length, hashed: 0, ...input.counts, created_at: now, heartbeat_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const state = { stop: false };
    this.running.set(id, state);
    // the job holds the list from here until it ends
    input.claim.handedOver = true;
    void this.run(id, state, input).finally(() => {
      this.running.delete(id);
      return input.claim.release().catch(() => undefined);
    });
    return (await this.view(id, input.userId))!;
  }

  private async run(id: number, state: { stop: boolean }, input: JobInput & { claim: ImportClaim }) {
    let hashed = 0;
    const heartbeat = setInterval(() => {
      void this.db.updateTable('import_jobs').set({ hashed, heartbeat_at: Date.now() }).where('id', '=', id).where('status', '=', 'running').execute().catch(() => undefined);
    }, HEARTBEAT_MS);
    heartbeat.unref();
    const fail = async (lines: string[]) => {
      await this.db.updateTable('import_jobs').set({ status: 'failed', errors: JSON.stringify(lines), hashed, finished_at: Date.now() }).where('id', '=', id).where('status', '=', 'running').execute();
    };
    try {
      const hashes = new Map<string, string>();
      // a hash more in flight than the queue runs at once keeps its slots busy; in the job's own
      // lane, so the queue gives logins their turn between the job's hashes
      let next = 0;
      const worker = async () => {
        while (!state.stop && next < input.passwords.length) {
          const password = input.passwords[next++];
          hashes.set(password, await hashPassword(password, `import:${id}`));
          hashed++;
        }
      };
      await Promise.all(Array.from({ length: hashQueue.slots + 1 }, worker));
      if (state.stop) return;
      try {
        this.gate.enter();
      } catch {
        await fail([input.lines.restoring]);
        return;
      }
      try {
        await input.write(hashes, async (trx) => {
          // the job is done in the transaction that writes its rows: both or neither; and only
          // while the list is still its own (a claim gone stale may have been taken over)
          await input.claim.assertHeld(trx);
          await trx.updateTable('import_jobs').set({ status: 'done', hashed, heartbeat_at: Date.now(), finished_at: Date.now() }).where('id', '=', id).execute();
        });
      } finally {
        this.gate.leave();
      }
    } catch (error) {
      if (state.stop) return;
      await fail(error instanceof ImportRefused ? error.lines : [input.lines.failed]).catch(() => undefined);
    } finally {
      clearInterval(heartbeat);
    }
  }

  /** A job of this user, or null; a running job whose heartbeat stopped is shown as interrupted. */
  async view(id: number, userId: number): Promise<ImportJobView | null> {
    const row = await this.db.selectFrom('import_jobs').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    return row ? this.shown(row) : null;
  }

  /** This user's latest job for a list, or null. */
  async latest(resource: string, userId: number): Promise<ImportJobView | null> {
    const row = await this.db.selectFrom('import_jobs').selectAll().where('user_id', '=', userId).where('resource', '=', resource).orderBy('id', 'desc').limit(1).executeTakeFirst();
    return row ? this.shown(row) : null;
  }

  private shown(row: Selectable<ImportJobsTable>): ImportJobView {
    const alive = this.running.has(row.id) || Date.now() - Number(row.heartbeat_at) < STALE_MS;
    const status = row.status === 'running' && !alive ? 'interrupted' : row.status;
    return {
      id: row.id,
      resource: row.resource,
      status,
      rows: row.rows,
      passwords: row.passwords,
      hashed: row.hashed,
      added: row.added,
      updated: row.updated,
      skipped: row.skipped,
      errors: row.errors ? (JSON.parse(row.errors) as string[]) : null,
      createdAt: Number(row.created_at),
      finishedAt: row.finished_at === null ? null : Number(row.finished_at),
    };
  }

  /** Stops the jobs of this process (QE is closing): what they did not write stays unwritten. */
  async close(): Promise<void> {
    for (const state of this.running.values()) state.stop = true;
  }
}

interface JobInput {
  /** the distinct passwords to hash */
  passwords: string[];
  /** what the rows will add, update and skip (known once the file is checked) */
  counts: ImportCounts;
  /** the importer's lines for a job stopped by a restore, and for one that failed otherwise */
  lines: { restoring: string; failed: string };
  write: ImportWrite;
}

/** A job's write refused for reasons the importer can act on (a class number taken meanwhile), line by line. */
export class ImportRefused extends Error {
  constructor(readonly lines: string[]) {
    super(lines.join('\n'));
  }
}
