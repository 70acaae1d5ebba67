import { randomBytes } from 'node:crypto';
import { readdirSync, rmSync, statSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { ERRORS, errorText } from '../../shared/errors.js';
import type { BackupEntry, JobState, Schedule } from '../../shared/backup.js';
import { join } from 'node:path';
import type { Config } from '../config.js';
import type { DB } from '../db/connect.js';
import { BusinessError } from '../plugins/errors.js';
import { isDatabaseUnavailable, isDiskFull } from '../db/errors.js';
import { fileStore, type FileStore } from '../storage/file-store.js';
import { ARCHIVE_NAME, SEALED_MAGIC } from './format.js';
import { BackupJob } from './job.js';
import { ArchiveRefused, archiveKind, openArchive, type RefusalReason } from './read.js';
import { restoreArchive } from './restore.js';
import { countPassphraseGuess } from './passphrase-guesses.js';
import type { WriteGate } from '../plugins/write-gate.js';
import { writeBackup } from './write.js';

/** A temporary file of this instance's: a backup being written (temp() below, .partial while it grows), a restore's copy (FileStore.local), an upload (routes.ts). */
const LEFTOVER = /^(\.backup-[0-9a-f]{16}\.qe\.zip(\.partial)?|\.local-[0-9a-f]{12}-.+|upload-[0-9a-f]{16}\.part)$/;

/** How long a restore waits for calls that may write to finish before it swaps the data. */
const WRITES_WAITED_MS = 60_000;

export type { BackupEntry, JobState, Schedule };

/** What an archive refused for a reason answers the caller (src/shared/errors.ts 752–757). */
export function refusalError(error: ArchiveRefused): BusinessError {
  const key: Record<RefusalReason, ConstructorParameters<typeof BusinessError>[0]> = {
    foreign: 'BACKUP_FOREIGN',
    corrupt: 'BACKUP_CORRUPT',
    tampered: 'BACKUP_TAMPERED',
    passphrase: 'BACKUP_PASSPHRASE',
    passphraseNeeded: 'BACKUP_PASSPHRASE_NEEDED',
    newer: 'BACKUP_NEWER',
    content: 'BACKUP_CONTENT_REFUSED',
    expands: 'BACKUP_EXPANDS',
    checking: 'BACKUP_CHECKING',
    school: 'BACKUP_SCHOOL_CONFIRM',
  };
  if (error.reason === 'school') return new BusinessError('BACKUP_SCHOOL_CONFIRM', { school: error.detail }, { school: error.detail });
  return new BusinessError(key[error.reason], { detail: error.detail || '—' });
}

/** What a failed job says: a refusal or business error by its key, a full disk as DISK_FULL (763), anything else as it is. */
export function jobError(error: unknown): { code: number; message: string } {
  // ENOSPC: this instance's disk; 53100 (disk_full): PostgreSQL's, where the store keeps the archive
  // and the database away (a connection terminated, the server restarted): try again
  const answer = error instanceof ArchiveRefused ? refusalError(error) : isDiskFull(error) ? new BusinessError('DISK_FULL') : isDatabaseUnavailable(error) ? new BusinessError('DATABASE_UNAVAILABLE') : error;
  if (answer instanceof BusinessError) return { code: ERRORS[answer.key].code, message: errorText(answer.key, 'en', answer.params) };
  return { code: 400, message: answer instanceof Error ? answer.message : String(answer) };
}

/**
 * The backups of this QE: the archives in the file store's `backups` area (DATA_DIR/backups on
 * SQLite, the database on PostgreSQL, so every instance lists and serves every archive), each
 * with a small .json beside it saying who made it and how; one backup or restore at a time
 * across every instance (job.ts); and the schedule.
 */
export class BackupService {
  readonly store: FileStore;

  constructor(
    private readonly db: DB,
    private readonly config: Config,
    /** the app's writes, held back while a restore swaps the data */
    private readonly gate?: WriteGate,
  ) {
    this.store = fileStore(db, config, 'backups');
  }

  /** The archive's name for a moment: qe-YYYYMMDD-HHmmss (UTC), with a suffix when taken. */
  private async archiveName(at = new Date()): Promise<string> {
    const stamp = at.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
    let name = `qe-${stamp}.qe.zip`;
    for (let n = 2; await this.store.stat(name); n++) name = `qe-${stamp}-${n}.qe.zip`;
    return name;
  }

  /** An archive's bytes and size by its name, refused unless the name is an archive's (no path can be named). */
  async open(name: string): Promise<{ size: number; stream: Readable }> {
    if (!ARCHIVE_NAME.test(name)) throw new BusinessError('BACKUP_NOT_FOUND');
    const file = await this.store.stat(name);
    const stream = file && (await this.store.open(name));
    if (!file || !stream) throw new BusinessError('BACKUP_NOT_FOUND');
    return { size: file.size, stream };
  }

  async list(): Promise<BackupEntry[]> {
    const files = await this.store.list();
    const entries: BackupEntry[] = [];
    for (const file of files) {
      const name = file.path;
      if (!ARCHIVE_NAME.test(name)) continue;
      let meta: Partial<BackupEntry> = {};
      try {
        const stream = await this.store.open(`${name}.json`);
        if (stream) meta = JSON.parse(Buffer.concat(await stream.toArray()).toString('utf8')) as Partial<BackupEntry>;
      } catch {
        // an archive copied in by hand: what the file itself says
      }
      const head = meta.encrypted === undefined ? await this.store.head(name, SEALED_MAGIC.length) : null;
      entries.push({
        name,
        size: file.size,
        createdAt: meta.createdAt ?? new Date(file.createdAt).toISOString(),
        createdBy: meta.createdBy ?? null,
        scheduled: Boolean(meta.scheduled),
        uploaded: Boolean(meta.uploaded),
        encrypted: meta.encrypted ?? Boolean(head?.equals(SEALED_MAGIC)),
      });
    }
    return entries.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.name.localeCompare(a.name));
  }

  /** The latest backup or restore job, whichever instance runs or ran it. */
  currentJob(): Promise<JobState | null> {
    return BackupJob.current(this.db);
  }

  /** A temporary file on this instance's disk (hidden: a dot name), removed by whoever made it. */
  private temp(what: string): string {
    return join(this.config.dataDir, `.${what}-${randomBytes(8).toString('hex')}.qe.zip`);
  }

  private async keep(entry: BackupEntry): Promise<void> {
    await this.store.write(`${entry.name}.json`, Buffer.from(JSON.stringify(entry)));
  }

  /** Starts a backup in the background; answers its job at once (BACKUP_RUNNING while another runs on any instance). */
  async start(options: { passphrase?: string; createdBy?: { id: number; name: string } | null; scheduled?: boolean } = {}): Promise<{ job: JobState; finished: Promise<BackupEntry | null> }> {
    const job = await BackupJob.claim(this.db, 'backup');
    let name: string;
    try {
      name = await this.archiveName();
    } catch (error) {
      await job.finish(jobError(error));
      throw error;
    }
    job.name = name;
    // written on this instance's disk (a .partial removed on any failure), then taken into the store
    const tmp = this.temp('backup');
    const createdAt = new Date().toISOString();
    const finished = (async () => {
      try {
        await writeBackup({ ...this.config, db: this.db }, tmp, {
          passphrase: options.passphrase,
          createdBy: options.createdBy ?? null,
          onProgress: ({ done, total }) => job.progress(done, total),
        });
        const file = await this.store.take(name, tmp);
        const entry: BackupEntry = { name, size: file.size, createdAt, createdBy: options.createdBy ?? null, scheduled: Boolean(options.scheduled), uploaded: false, encrypted: Boolean(options.passphrase) };
        await this.keep(entry);
        await job.finish(null);
        return entry;
      } catch (error) {
        rmSync(tmp, { force: true });
        await this.store.delete(name).catch(() => undefined);
        await job.finish(jobError(error));
        return null;
      }
    })();
    return { job: job.view, finished };
  }

  async delete(name: string): Promise<void> {
    if (!ARCHIVE_NAME.test(name) || !(await this.store.delete(name))) throw new BusinessError('BACKUP_NOT_FOUND');
    await this.store.delete(`${name}.json`);
  }

  /** An uploaded archive, already on this instance's disk under a temporary name: checked as far as it can be without its passphrase, then kept under an archive's name. */
  async adopt(tmpPath: string, createdBy: { id: number; name: string } | null): Promise<BackupEntry> {
    try {
      const kind = archiveKind(tmpPath);
      if (kind === 'foreign') throw refusalError(new ArchiveRefused('foreign'));
      if (kind === 'zip') {
        try {
          (await openArchive(tmpPath)).close();
        } catch (error) {
          if (error instanceof ArchiveRefused) throw refusalError(error);
          throw error;
        }
      }
      const name = await this.archiveName();
      const file = await this.store.take(name, tmpPath);
      const entry: BackupEntry = { name, size: file.size, createdAt: new Date().toISOString(), createdBy, scheduled: false, uploaded: true, encrypted: kind === 'sealed' };
      await this.keep(entry);
      return entry;
    } finally {
      rmSync(tmpPath, { force: true });
    }
  }

  /** Restores an archive of the list: checked whole first; every session ends. */
  async restore(name: string, passphrase?: string, more: { school?: string; by?: number } = {}): Promise<{ tables: number; rows: number }> {
    if (!ARCHIVE_NAME.test(name) || !(await this.store.stat(name))) throw new BusinessError('BACKUP_NOT_FOUND');
    const job = await BackupJob.claim(this.db, 'restore', name);
    let copy: { file: string; done: () => void } | null = null;
    let guess: Awaited<ReturnType<typeof countPassphraseGuess>> | null = null;
    try {
      // read from a file on this instance's disk (the archive itself on SQLite, a copy on PostgreSQL)
      copy = await this.store.local(name, this.config.dataDir);
      if (!copy) throw new BusinessError('BACKUP_NOT_FOUND');
      // a passphrase tried is a guess, counted like a login's (passphrase-guesses.ts)
      guess = passphrase && archiveKind(copy.file) === 'sealed' ? await countPassphraseGuess(this.db, this.config, more.by ?? 0) : null;
      const gate = this.gate;
      // every instance's writes on PostgreSQL (restore-hold.ts), this one's on SQLite
      const holdWrites = gate && (() => gate.holdEverywhere(WRITES_WAITED_MS));
      const result = await restoreArchive(this.db, this.config, copy.file, { passphrase, holdWrites, instanceId: gate?.instanceId, school: { confirm: more.school }, onProgress: ({ done, total }) => job.progress(done, total) });
      await guess?.right();
      await job.finish(null);
      return result;
    } catch (error) {
      if (!(error instanceof ArchiveRefused && error.reason === 'passphrase')) await guess?.right();
      await job.finish(jobError(error));
      throw error instanceof ArchiveRefused ? refusalError(error) : error;
    } finally {
      copy?.done();
    }
  }

  async schedule(): Promise<Schedule> {
    const row = await this.db.selectFrom('school').select(['backup_every_hours', 'backup_keep']).orderBy('id').executeTakeFirst();
    return { everyHours: row?.backup_every_hours ?? 0, keep: row?.backup_keep ?? 7 };
  }

  async setSchedule(schedule: Schedule): Promise<Schedule> {
    await this.db.updateTable('school').set({ backup_every_hours: schedule.everyHours, backup_keep: schedule.keep }).execute();
    return this.schedule();
  }

  /**
   * A scheduled backup when one is due: the instance whose conditional update moves the last
   * time on makes it (several instances on PostgreSQL: exactly one). Then only the newest `keep`
   * scheduled archives are kept. Answers whether it made one.
   */
  async runDue(now = new Date()): Promise<boolean> {
    const school = await this.db.selectFrom('school').select(['id', 'backup_every_hours', 'backup_keep', 'backup_last_at']).orderBy('id').executeTakeFirst();
    if (!school || school.backup_every_hours <= 0) return false;
    const dueBefore = new Date(now.getTime() - school.backup_every_hours * 3_600_000).toISOString();
    if (school.backup_last_at && school.backup_last_at > dueBefore) return false;
    if (await BackupJob.running(this.db)) return false;
    const claimed = await this.db
      .updateTable('school')
      .set({ backup_last_at: now.toISOString() })
      .where('id', '=', school.id)
      .where((eb) => (school.backup_last_at === null ? eb('backup_last_at', 'is', null) : eb('backup_last_at', '=', school.backup_last_at)))
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return false;
    let started;
    try {
      started = await this.start({ scheduled: true });
    } catch (error) {
      if (error instanceof BusinessError && error.key === 'BACKUP_RUNNING') return false;
      throw error;
    }
    const entry = await started.finished;
    if (!entry) return false;
    const scheduled = (await this.list()).filter((b) => b.scheduled);
    for (const old of scheduled.slice(Math.max(1, school.backup_keep))) await this.delete(old.name);
    return true;
  }

  /**
   * The temporary files a backup or restore of this instance left when it was stopped mid-way
   * (killed, a power cut): removed once an hour old — one being written is touched as it grows.
   */
  sweepLeftovers(now = Date.now()): void {
    let names: string[];
    try {
      names = readdirSync(this.config.dataDir);
    } catch {
      return;
    }
    for (const name of names) {
      if (!LEFTOVER.test(name)) continue;
      const path = join(this.config.dataDir, name);
      try {
        if (statSync(path).mtimeMs < now - 3_600_000) rmSync(path, { force: true });
      } catch {
        // gone meanwhile
      }
    }
  }

  /** Checks for a due backup every `seconds`; answers the stop. */
  startScheduler(seconds: number, log: { error: (o: object, m: string) => void }): () => void {
    this.sweepLeftovers();
    if (seconds <= 0) return () => undefined;
    let busy = false;
    const timer = setInterval(() => {
      if (busy) return;
      busy = true;
      this.runDue()
        .catch((err: unknown) => log.error({ err }, 'scheduled backup failed'))
        .finally(() => (busy = false));
    }, seconds * 1000);
    timer.unref();
    return () => clearInterval(timer);
  }
}
