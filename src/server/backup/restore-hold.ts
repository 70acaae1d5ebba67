import { randomBytes, randomUUID } from 'node:crypto';
import type { DB } from '../db/connect.js';
import { BusinessError } from '../plugins/errors.js';
import type { WriteGate } from '../plugins/write-gate.js';

/** How often an instance looks for a restore under way (and beats its heart, every fourth look). */
const POLL_MS = 250;
const BEAT_EVERY = 4;
/** An instance not heard of for this long is gone (killed, or its database connection lost). */
export const STALE_MS = 10_000;
/** Instances' rows kept this long after their last heartbeat, then removed at a start. */
const FORGOTTEN_MS = 3_600_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A restore's write hold across every instance on one PostgreSQL (migration 0033). The restoring
 * instance puts a row in `restore_holds` and closes its own gate; every other instance sees the
 * row within a poll, closes its gate, waits for its calls inside to finish and acknowledges in
 * `instances.held_for`; the restore swaps only once every live instance (heartbeat within
 * STALE_MS) has, bounded by the restore's wait (RESTORE_WAITED). Removing the row opens them all.
 * A hold whose instance stopped beating died with it, and is removed by whoever sees it first.
 * On SQLite (one process) the gate alone holds.
 */
export class RestoreHolds {
  readonly instanceId = randomBytes(6).toString('hex');
  private timer: NodeJS.Timeout | null = null;
  private looks = 0;
  private busy = false;
  /** the other instance's restore this one holds writes back for */
  private heldFor: string | null = null;

  constructor(
    private readonly db: DB,
    private readonly gate: WriteGate,
    /** several instances may share the database (PostgreSQL) */
    private readonly shared: boolean,
    private readonly log: { error: (o: object, m: string) => void } = { error: () => undefined },
  ) {
    gate.holdEverywhere = (timeoutMs) => this.hold(timeoutMs);
    gate.instanceId = this.instanceId;
  }

  /** Registers the instance and looks once before the app answers anyone: a restore under way holds it from its first call. */
  async start(): Promise<void> {
    if (!this.shared) return;
    const now = Date.now();
    await this.db.deleteFrom('instances').where('seen_at', '<', now - FORGOTTEN_MS).execute();
    await this.db.insertInto('instances').values({ id: this.instanceId, started_at: now, seen_at: now, held_for: null }).execute();
    await this.look();
    this.timer = setInterval(() => void this.look(), POLL_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (!this.shared) return;
    await this.db.deleteFrom('restore_holds').where('instance_id', '=', this.instanceId).execute().catch(() => undefined);
    await this.db.deleteFrom('instances').where('id', '=', this.instanceId).execute().catch(() => undefined);
  }

  /** The instances heard of within STALE_MS (this one included). */
  async liveInstances(now = Date.now()): Promise<{ id: string; held_for: string | null }[]> {
    return this.db.selectFrom('instances').select(['id', 'held_for']).where('seen_at', '>=', now - STALE_MS).execute();
  }

  private async look(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const now = Date.now();
      if (this.looks++ % BEAT_EVERY === 0) {
        const beat = await this.db.updateTable('instances').set({ seen_at: now }).where('id', '=', this.instanceId).executeTakeFirst();
        // removed by a start that took this instance for gone (a long pause): here again
        if (Number(beat.numUpdatedRows) === 0) await this.db.insertInto('instances').values({ id: this.instanceId, started_at: now, seen_at: now, held_for: this.heldFor }).execute();
      }
      let hold = await this.db.selectFrom('restore_holds').selectAll().where('slot', '=', 1).executeTakeFirst();
      if (hold && hold.instance_id !== this.instanceId) {
        const owner = await this.db.selectFrom('instances').select('seen_at').where('id', '=', hold.instance_id).executeTakeFirst();
        if (!owner || Number(owner.seen_at) < now - STALE_MS) {
          // its restore died with its instance: the swap never came, writes may go on
          await this.db.deleteFrom('restore_holds').where('slot', '=', 1).where('id', '=', hold.id).execute();
          hold = undefined;
        }
      }
      const foreign = hold && hold.instance_id !== this.instanceId ? hold.id : null;
      if (foreign && this.heldFor !== foreign) {
        if (this.heldFor) this.gate.open();
        this.heldFor = foreign;
        // the wait for calls inside runs beside the looks: the heartbeat must go on meanwhile
        void this.acknowledge(foreign);
      } else if (!foreign && this.heldFor) {
        this.heldFor = null;
        this.gate.open();
        await this.db.updateTable('instances').set({ held_for: null }).where('id', '=', this.instanceId).execute();
      }
    } catch (err) {
      this.log.error({ err }, 'restore hold: looking for a restore failed');
    } finally {
      this.busy = false;
    }
  }

  /** Closes this instance's gate for another instance's restore and says so once every call inside has finished. */
  private async acknowledge(id: string): Promise<void> {
    try {
      // no bound here: the restoring instance's own wait bounds the restore, and its hold's end opens this gate
      await this.gate.close(Infinity);
      if (this.heldFor !== id) return;
      await this.db.updateTable('instances').set({ held_for: id }).where('id', '=', this.instanceId).execute();
    } catch (err) {
      this.log.error({ err }, 'restore hold: acknowledging a restore failed');
    }
  }

  /** This instance's restore: every live instance's writes held back (or RESTORE_WAITED after `timeoutMs`, nothing held). */
  private async hold(timeoutMs: number): Promise<() => Promise<void>> {
    const deadline = Date.now() + timeoutMs;
    if (!this.shared) {
      await this.gate.close(timeoutMs);
      return async () => this.gate.open();
    }
    const id = randomUUID();
    try {
      await this.db.insertInto('restore_holds').values({ slot: 1, id, instance_id: this.instanceId, started_at: Date.now() }).execute();
    } catch {
      // another instance restores (or its dead hold is not removed yet)
      throw new BusinessError('BACKUP_RUNNING');
    }
    const release = async () => {
      await this.db.deleteFrom('restore_holds').where('slot', '=', 1).where('id', '=', id).execute();
    };
    try {
      await this.gate.close(timeoutMs);
    } catch (error) {
      await release();
      throw error;
    }
    try {
      for (;;) {
        const others = (await this.liveInstances()).filter((i) => i.id !== this.instanceId);
        if (others.every((i) => i.held_for === id)) break;
        if (Date.now() > deadline) throw new BusinessError('RESTORE_WAITED');
        await sleep(50);
      }
    } catch (error) {
      this.gate.open();
      await release();
      throw error;
    }
    return async () => {
      try {
        await release();
      } finally {
        this.gate.open();
      }
    };
  }
}
