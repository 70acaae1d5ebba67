import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { isPostgres, type DB } from '../db/connect.js';
import type { Database } from '../db/schema.js';
import { BusinessError } from '../plugins/errors.js';

/** How often a held claim says it is alive, and after how long without that it is taken over. */
const HEARTBEAT_MS = 2_000;
export const STALE_MS = 15_000;

/**
 * One import's hold on a list (`import_claims`, migration 0034): from the moment its file is
 * checked until its rows are written or it fails — its password job included. Taken by one
 * atomic statement, so two imports into one list at once, through any instances on the
 * database, never both go on: the second is refused with 761. A claim whose heartbeat stopped
 * (its instance died, or was cut off) is taken over, so a dead import blocks a list for
 * STALE_MS at most.
 */
export class ImportClaim {
  /** set when a job takes the claim over from its request: the job releases it */
  handedOver = false;
  private readonly heartbeat: NodeJS.Timeout;
  private released = false;

  private constructor(
    private readonly db: DB,
    readonly resource: string,
    private readonly holder: string,
  ) {
    this.heartbeat = setInterval(() => {
      void db.updateTable('import_claims').set({ heartbeat_at: Date.now() }).where('resource', '=', resource).where('holder', '=', holder).execute().catch(() => undefined);
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /** Claims `resource` for one import, or refuses with 761 while another import holds it. */
  static async take(db: DB, resource: string): Promise<ImportClaim> {
    const holder = randomUUID();
    const now = Date.now();
    // a conflicting row is taken over only when its heartbeat stopped; PostgreSQL makes a
    // simultaneous second insert wait for the first and then see its row
    const row = await db
      .insertInto('import_claims')
      .values({ resource, holder, heartbeat_at: now })
      .onConflict((oc) => oc.column('resource').doUpdateSet({ holder, heartbeat_at: now }).where('import_claims.heartbeat_at', '<', now - STALE_MS))
      .returning('holder')
      .executeTakeFirst();
    if (row?.holder !== holder) throw new BusinessError('IMPORT_RUNNING');
    return new ImportClaim(db, resource, holder);
  }

  /** Claims left by a previous run of QE: on SQLite (one server) all of them go, on PostgreSQL they go stale. */
  static async clearLeftOver(db: DB): Promise<void> {
    if (!isPostgres(db)) await db.deleteFrom('import_claims').execute();
  }

  /**
   * Throws unless the claim is still this import's, read in the transaction that writes the rows:
   * an import whose claim went stale and was taken over writes nothing.
   */
  async assertHeld(trx: Kysely<Database>): Promise<void> {
    let q = trx.selectFrom('import_claims').select('holder').where('resource', '=', this.resource);
    // PostgreSQL: a takeover waits for this transaction's end
    if (isPostgres(trx)) q = q.forUpdate();
    const row = await q.executeTakeFirst();
    if (row?.holder !== this.holder) throw new BusinessError('IMPORT_RUNNING');
  }

  /** Lets the list go (the import is written, failed or stopped). */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    clearInterval(this.heartbeat);
    await this.db.deleteFrom('import_claims').where('resource', '=', this.resource).where('holder', '=', this.holder).execute();
  }
}
