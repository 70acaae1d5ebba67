import { Worker } from 'node:worker_threads';
import type { Compilable, Kysely } from 'kysely';

const WORKER = new URL('./read-aside.worker.mjs', import.meta.url);
/** A thread idle this long ends (a test's or a closed app's file is not kept open for good). */
const IDLE_MS = 30_000;

/** The SQLite file behind each database QE opened (connect.ts registers it). */
const files = new WeakMap<Kysely<any>, string>();
export const registerSqliteFile = (db: Kysely<any>, file: string) => files.set(db, file);

type Pending = { resolve: (rows: unknown[]) => void; reject: (error: Error) => void };

/** One thread per SQLite file, started when first asked and ended when idle; queries run one after another. */
class ReadThread {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private next = 0;
  private idle: NodeJS.Timeout | undefined;
  /** holds under way (`hold`): queries wait in `held` meanwhile; `drained` wait for the thread to finish what it has */
  private holds = 0;
  private held: (() => void)[] = [];
  private drained: (() => void)[] = [];

  constructor(private readonly file: string) {}

  async all(sql: string, parameters: readonly unknown[]): Promise<unknown[]> {
    while (this.holds > 0) await new Promise<void>((resolve) => this.held.push(resolve));
    const worker = this.start();
    clearTimeout(this.idle);
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, sql, parameters });
    });
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER, { workerData: { file: this.file } });
    worker.unref();
    worker.on('message', ({ id, rows, error }: { id: number; rows?: unknown[]; error?: string }) => {
      const waiting = this.pending.get(id);
      this.pending.delete(id);
      if (error !== undefined) waiting?.reject(new Error(error));
      else waiting?.resolve(rows!);
      if (this.pending.size === 0) {
        this.idle = setTimeout(() => this.stop(), IDLE_MS);
        this.idle.unref();
        this.wakeDrained();
      }
    });
    const failAll = (error: Error) => {
      this.worker = null;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
      this.wakeDrained();
    };
    worker.on('error', failAll);
    worker.on('exit', (code) => failAll(new Error(`the reading thread ended (${code})`)));
    this.worker = worker;
    return worker;
  }

  /** Answers once the queries already sent are answered; none is sent until the function it answers is called (once). */
  async hold(): Promise<() => void> {
    this.holds++;
    if (this.pending.size) await new Promise<void>((resolve) => this.drained.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.holds > 0) return;
      const held = this.held;
      this.held = [];
      for (const resume of held) resume();
    };
  }

  private wakeDrained(): void {
    const drained = this.drained;
    this.drained = [];
    for (const resume of drained) resume();
  }

  private stop(): void {
    const worker = this.worker;
    this.worker = null;
    if (worker && this.pending.size === 0) void worker.terminate();
  }
}

const threads = new Map<string, ReadThread>();

/**
 * A long read (a sort of every reply of a questionnaire) without holding the event loop. On
 * SQLite, whose driver runs a query within the calling thread, the compiled query runs on a
 * thread of its own with a read-only connection — it sees what was committed when it starts, as
 * any reader beside the one writer does; on PostgreSQL the driver waits without holding the loop,
 * and the query runs as usual.
 */
export async function readAside<R>(db: Kysely<any>, query: Compilable<R> & { execute(): Promise<R[]> }): Promise<R[]> {
  const file = files.get(db);
  // PostgreSQL's databases are not registered
  if (!file) return query.execute();
  const { sql, parameters } = query.compile();
  let thread = threads.get(file);
  if (!thread) threads.set(file, (thread = new ReadThread(file)));
  return (await thread.all(sql, parameters)) as R[];
}

/**
 * Runs `work` with the reading thread of `db` kept out of SQLite's write-ahead log: once the
 * queries it was given are answered, and sending it no other until `work` is done (they wait
 * meanwhile). A read transaction of its own would otherwise keep the log from being truncated:
 * the anonymity scrub (scrub.ts) needs no reader in it, and a caller who keeps the thread reading
 * without a pause (statistics called in a loop) must not keep a submission's pages in the log.
 */
export async function withReadsAsideHeld<T>(db: Kysely<any>, work: () => Promise<T>): Promise<T> {
  const file = files.get(db);
  const thread = file ? threads.get(file) : undefined;
  if (!thread) return work();
  const release = await thread.hold();
  try {
    return await work();
  } finally {
    release();
  }
}
