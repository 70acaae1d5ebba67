import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { BusinessError } from './errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** the route goes on while a restore holds writes back (the backup routes themselves) */
    duringRestore?: boolean;
  }
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Writes held back while a restore replaces the data (backup/restore.ts): a call that may write
 * is refused at the door with RESTORING, and the restore waits for those already inside before it
 * swaps the tables — so none lands after the swap on data it was not meant for, and a school's
 * user is told to try again instead of losing what they saved.
 */
export class WriteGate {
  private inside = 0;
  /** restores holding writes back: this instance's own and, on PostgreSQL, another instance's (backup/restore-hold.ts) */
  private holds = 0;
  private waiting: (() => void)[] = [];

  /** true while this instance holds writes back for a restore, its own or another instance's */
  get isClosed(): boolean {
    return this.holds > 0;
  }

  /**
   * Holds writes back for a restore of this instance and answers how to let them go again: here
   * this instance's only; on PostgreSQL every live instance's (restore-hold.ts puts its own here).
   */
  holdEverywhere: (timeoutMs: number) => Promise<() => Promise<void> | void> = async (timeoutMs) => {
    await this.close(timeoutMs);
    return () => this.open();
  };

  /** the instance's id on a shared database (restore-hold.ts): names what its restore leaves behind a crash */
  instanceId?: string;

  enter(): void {
    if (this.holds > 0) throw new BusinessError('RESTORING');
    this.inside++;
  }

  leave(): void {
    this.inside--;
    if (this.inside === 0) for (const resolve of this.waiting.splice(0)) resolve();
  }

  /** Closes the gate (one hold more) and waits until every call inside has left; refused (the hold let go) after `timeoutMs` (Infinity: no bound). */
  async close(timeoutMs: number): Promise<void> {
    this.holds++;
    if (this.inside === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const drained = new Promise<boolean>((resolve) => this.waiting.push(() => resolve(true)));
    // another instance's restore: its own wait bounds it (restore-hold.ts)
    if (timeoutMs === Infinity) {
      await drained;
      return;
    }
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    const done = await Promise.race([drained, late]);
    clearTimeout(timer);
    if (!done) {
      this.open();
      throw new BusinessError('RESTORE_WAITED');
    }
  }

  /** Lets one hold go; writes pass again once none is left. */
  open(): void {
    if (this.holds > 0) this.holds--;
  }
}

/** Counts the calls that may write (every API call but reads) in and out of the gate. */
export const writeGatePlugin = fp<{ gate: WriteGate }>(async function writeGate(app: FastifyInstance, { gate }) {
  const entered = new WeakSet<FastifyRequest>();
  const leave = (request: FastifyRequest) => {
    if (entered.delete(request)) gate.leave();
  };
  app.addHook('onRequest', (request, _reply, done) => {
    const config = request.routeOptions.config;
    if (!config?.permission || READS.has(request.method) || config.duringRestore) return done();
    try {
      gate.enter();
    } catch (error) {
      return done(error as Error);
    }
    entered.add(request);
    done();
  });
  app.addHook('onResponse', (request, _reply, done) => {
    leave(request);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    leave(request);
    done();
  });
});
