import { randomUUID } from 'node:crypto';
import type { DB } from '../db/connect.js';
import { BusinessError } from '../plugins/errors.js';
import type { JobState } from '../../shared/backup.js';

/** How often a running job says it is alive (with its progress), and after how long without that it is taken for cut off. */
const HEARTBEAT_MS = 1_000;
export const STALE_MS = 15_000;

/** What a job whose instance stopped answers (its heartbeat ended while it ran). */
const INTERRUPTED = { code: 500, message: 'interrupted: the instance running it stopped' };

/**
 * How a job of this instance ended when that could not be written (a full disk holding SQLite's
 * file, the database away): answered for its row, and written again until it is.
 */
const unsaved = new WeakMap<DB, JobState>();

/**
 * The one backup or restore job of this QE, in the database (backup_job, migration 0032): any
 * instance answers its progress, and one conditional update claims it, so two instances cannot
 * run one each. A job whose instance died stops holding the claim once its heartbeat is stale.
 */
export class BackupJob {
  private state: JobState;
  private timer: NodeJS.Timeout;
  private written: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly db: DB,
    state: JobState,
  ) {
    this.state = state;
    this.timer = setInterval(() => void this.save().catch(() => undefined), HEARTBEAT_MS);
    this.timer.unref();
  }

  /** Claims the job or refuses with BACKUP_RUNNING. */
  static async claim(db: DB, kind: JobState['kind'], name: string | null = null): Promise<BackupJob> {
    const now = Date.now();
    const state: JobState = { id: randomUUID(), kind, state: 'running', done: 0, total: 0, name, error: null };
    const claimed = await db
      .updateTable('backup_job')
      .set({ job_id: state.id, kind, state: 'running', done: 0, total: 0, name, error_code: null, error_message: null, heartbeat_at: now })
      .where('id', '=', 1)
      // free, ended, cut off — or ended on this instance though that could not be written then
      .where((eb) => eb.or([eb('state', 'is', null), eb('state', '!=', 'running'), eb('heartbeat_at', '<', now - STALE_MS), eb('job_id', '=', unsaved.get(db)?.id ?? '')]))
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) throw new BusinessError('BACKUP_RUNNING');
    unsaved.delete(db);
    return new BackupJob(db, state);
  }

  /** The latest job, as any instance sees it; null before the first. */
  static async current(db: DB): Promise<JobState | null> {
    const row = await db.selectFrom('backup_job').selectAll().where('id', '=', 1).executeTakeFirst();
    if (!row?.job_id || !row.kind || !row.state) return null;
    const ended = unsaved.get(db);
    if (ended && ended.id === row.job_id && row.state === 'running') return { ...ended };
    const job: JobState = {
      id: row.job_id,
      kind: row.kind as JobState['kind'],
      state: row.state as JobState['state'],
      done: row.done,
      total: row.total,
      name: row.name,
      error: row.error_code === null ? null : { code: row.error_code, message: row.error_message ?? '' },
    };
    if (job.state === 'running' && Number(row.heartbeat_at) < Date.now() - STALE_MS) return { ...job, state: 'failed', error: INTERRUPTED };
    return job;
  }

  /** Whether a job runs now (on any instance). */
  static async running(db: DB): Promise<boolean> {
    return (await BackupJob.current(db))?.state === 'running';
  }

  get view(): JobState {
    return { ...this.state };
  }

  set name(name: string) {
    this.state.name = name;
  }

  progress(done: number, total: number) {
    Object.assign(this.state, { done, total });
  }

  private save(): Promise<unknown> {
    const s = this.state;
    // one write at a time, in order: the last one says how the job ended
    this.written = this.written.catch(() => undefined).then(() =>
      this.db
        .updateTable('backup_job')
        .set({ state: s.state, done: s.done, total: s.total, name: s.name, error_code: s.error?.code ?? null, error_message: s.error?.message ?? null, heartbeat_at: Date.now() })
        .where('id', '=', 1)
        .where('job_id', '=', s.id)
        .execute(),
    );
    return this.written;
  }

  async finish(error: { code: number; message: string } | null): Promise<void> {
    clearInterval(this.timer);
    if (error) Object.assign(this.state, { state: 'failed', error });
    else {
      const all = Math.max(this.state.total, this.state.done);
      Object.assign(this.state, { state: 'done', done: all, total: all });
    }
    // a database gone away or a full disk leaves the row running: this instance answers how the
    // job ended meanwhile and writes it again until it can (other instances see it cut off, by its heartbeat)
    await this.save().catch(() => {
      unsaved.set(this.db, { ...this.state });
      let tries = 0;
      const again = setInterval(() => {
        if (++tries > 150) return clearInterval(again);
        void this.save().then(
          () => {
            clearInterval(again);
            if (unsaved.get(this.db)?.id === this.state.id) unsaved.delete(this.db);
          },
          () => undefined,
        );
      }, 2_000);
      again.unref();
    });
  }
}
