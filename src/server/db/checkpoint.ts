import { Worker } from 'node:worker_threads';
import type { Kysely } from 'kysely';

const WORKER = new URL('./checkpoint.worker.mjs', import.meta.url);
/** How often the thread looks for new writes to copy: the log stays a few megabytes under a whole school's submissions. */
const EVERY_MS = 100;
/** A thread that found nothing to copy this long ends (the next write starts another). */
const IDLE_MS = 30_000;
/** How long closing the database waits for the thread to close its connection first. */
const CLOSE_WAIT_MS = 2_000;

/**
 * The threshold (pages of 4 KiB, 16 MiB) at which QE's own connection still checkpoints: a safety
 * net for when the thread falls behind or is gone.
 */
export const FALLBACK_AUTOCHECKPOINT_PAGES = 4096;

// the words of `shared`, as checkpoint.worker.mjs reads them
const STATE = 0;
const WRITES = 1;
const CLOSED = 2;
const FREE = 0;
const HELD = 2;

/**
 * SQLite copies its write-ahead log back into the database file (a checkpoint, with the file's
 * sync) on the connection whose commit crosses `wal_autocheckpoint` pages: on QE's one connection
 * that is the event loop, and under a burst of submissions it was half of every commit. A thread of
 * its own checkpoints instead, beside the writer (PASSIVE: it never waits for the writer or a
 * reader), once the server has written since its last copy.
 *
 * The thread and the server share three words: the state (free, checkpointing, or held by the
 * server), the server's count of writes, and whether the thread has closed its connection.
 */
export class Checkpointer {
  private worker: Worker | null = null;
  private readonly shared = new Int32Array(new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT));
  private holds = 0;
  private acquired: Promise<void> | null = null;

  constructor(private readonly file: string) {}

  /** Called for each write outside a transaction and as each transaction that wrote ends; starts the thread at need. */
  wrote(): void {
    Atomics.add(this.shared, WRITES, 1);
    if (this.worker) return;
    Atomics.store(this.shared, CLOSED, 0);
    const worker = new Worker(WORKER, { workerData: { file: this.file, everyMs: EVERY_MS, idleMs: IDLE_MS, shared: this.shared } });
    worker.unref();
    // a thread that failed (a file being replaced) is started again at the next write;
    // meanwhile the safety net checkpoints
    worker.on('error', () => undefined);
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = null;
    });
    this.worker = worker;
  }

  /**
   * Answers once the thread is not checkpointing, and keeps it from starting a checkpoint until the
   * function it answers is called (once): the anonymity scrub truncates the log itself, which it
   * cannot while another connection checkpoints.
   */
  async hold(): Promise<() => void> {
    this.holds++;
    this.acquired ??= this.acquire();
    await this.acquired;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.holds > 0) return;
      this.acquired = null;
      Atomics.store(this.shared, STATE, FREE);
    };
  }

  private async acquire(): Promise<void> {
    // while the thread is checkpointing (a few milliseconds), asks again each turn of a short timer
    while (Atomics.compareExchange(this.shared, STATE, FREE, HELD) !== FREE) await new Promise((resolve) => setTimeout(resolve, 2));
  }

  /**
   * Ends the thread, waiting (briefly) until it has closed its connection: QE's own connection,
   * closed next, is then the file's last and leaves it checkpointed with no log beside it.
   */
  stop(): void {
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    worker.postMessage('stop');
    Atomics.wait(this.shared, CLOSED, 0, CLOSE_WAIT_MS);
  }
}

const checkpointers = new WeakMap<Kysely<any>, Checkpointer>();
export const registerCheckpointer = (db: Kysely<any>, checkpointer: Checkpointer) => checkpointers.set(db, checkpointer);

/**
 * Runs `work` with the checkpointing thread of `db` (SQLite) idle throughout: the anonymity scrub
 * (scrub.ts) truncates the log, which it cannot do while another connection checkpoints.
 */
export async function withCheckpointsHeld<T>(db: Kysely<any>, work: () => Promise<T>): Promise<T> {
  const checkpointer = checkpointers.get(db);
  if (!checkpointer) return work();
  const release = await checkpointer.hold();
  try {
    return await work();
  } finally {
    release();
  }
}
