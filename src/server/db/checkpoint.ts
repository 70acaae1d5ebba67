import { Worker } from 'node:worker_threads';

const WORKER = new URL('./checkpoint.worker.mjs', import.meta.url);

/** How often the thread checkpoints: small enough that the log stays a few megabytes under a whole school's submissions. */
const EVERY_MS = 200;

/**
 * SQLite copies its write-ahead log back into the database file (a checkpoint, with the file's
 * sync) on the connection whose commit crosses `wal_autocheckpoint` pages: on QE's one connection
 * that is the event loop, and under a burst of submissions it was a third of the server's time.
 * A thread of its own checkpoints instead, beside the writer; the server's own connection keeps a
 * far higher threshold only as a safety net, should the thread fall behind or be gone.
 */
export class Checkpointer {
  private worker: Worker | null = null;

  constructor(private readonly file: string) {}

  /** Starts the thread (at the first write; a server that only reads never needs it). */
  start(): void {
    if (this.worker) return;
    const worker = new Worker(WORKER, { workerData: { file: this.file, everyMs: EVERY_MS } });
    worker.unref();
    worker.on('error', () => undefined);
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = null;
    });
    this.worker = worker;
  }

  /** Ends the thread: its last turn done, its connection closed. */
  stop(): void {
    const worker = this.worker;
    this.worker = null;
    worker?.postMessage('stop');
  }
}

/** The safety net's threshold (pages of 4 KiB): 64 MiB of log before the server's own connection checkpoints. */
export const FALLBACK_AUTOCHECKPOINT_PAGES = 16384;
