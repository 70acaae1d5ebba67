import { availableParallelism } from 'node:os';

/**
 * Password hashing is deliberately slow and runs on libuv's thread pool (4 threads). Left alone,
 * a burst of logins fills every pool thread — the file reads and other work sharing the pool
 * wait behind it — and the logins of other people queue behind a flood from one place. So hashes
 * run at most one per core at a time, and waiting hashes are taken in turn from each lane (a
 * client address, an import job), so a flood from one address does not queue everybody else's
 * login behind it. One per core, not one core left for the event loop: a class logging in at the
 * start of a lesson is when logins/s matter most (50 at once: 35/s with one hash at a time on 2
 * cores, 49–67/s with two), and the event loop still gets its share of the cores from the
 * system — user-info answered meanwhile with p99 3 ms (npm run bench, logins).
 *
 * One queue per process: it shares out the process's own cores, which is process-wide state
 * by nature (several apps in one process, as in the tests, share the same cores).
 */
export class HashQueue {
  private running = 0;
  private readonly lanes = new Map<string, (() => void)[]>();
  private readonly order: string[] = [];
  private next = 0;

  constructor(readonly slots: number) {}

  /** Runs `work` when a slot is free and it is this lane's turn. */
  async run<T>(lane: string, work: () => Promise<T>): Promise<T> {
    await this.acquire(lane);
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  /** How many hashes wait for a slot (all lanes). */
  get waiting(): number {
    let n = 0;
    for (const q of this.lanes.values()) n += q.length;
    return n;
  }

  private acquire(lane: string): Promise<void> {
    if (this.running < this.slots && this.waiting === 0) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      let q = this.lanes.get(lane);
      if (!q) {
        q = [];
        this.lanes.set(lane, q);
        this.order.push(lane);
      }
      q.push(resolve);
    });
  }

  private release(): void {
    this.running--;
    // round robin over the lanes that wait
    while (this.running < this.slots && this.order.length) {
      if (this.next >= this.order.length) this.next = 0;
      const lane = this.order[this.next];
      const q = this.lanes.get(lane)!;
      const resolve = q.shift()!;
      if (q.length === 0) {
        this.lanes.delete(lane);
        this.order.splice(this.next, 1);
      } else {
        this.next++;
      }
      this.running++;
      resolve();
    }
  }
}

/** One hash per core at a time. */
export const hashQueue = new HashQueue(Math.max(1, availableParallelism()));
