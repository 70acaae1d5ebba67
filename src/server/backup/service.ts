import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { ERRORS, errorText } from '../../shared/errors.js';
import type { BackupEntry, JobState, Schedule } from '../../shared/backup.js';
import { join } from 'node:path';
import type { Config } from '../config.js';
import type { DB } from '../db/connect.js';
import { BusinessError } from '../plugins/errors.js';
import { ARCHIVE_NAME } from './format.js';
import { ArchiveRefused, archiveKind, openArchive, type RefusalReason } from './read.js';
import { restoreArchive } from './restore.js';
import { countPassphraseGuess } from './passphrase-guesses.js';
import type { WriteGate } from '../plugins/write-gate.js';

/** How long a restore waits for calls that may write to finish before it swaps the data. */
const WRITES_WAITED_MS = 60_000;
import { writeBackup } from './write.js';

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

/** The archive's name for a moment: qe-YYYYMMDD-HHmmss (UTC), with a suffix when taken. */
function archiveName(dir: string, at = new Date()): string {
  const stamp = at.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  let name = `qe-${stamp}.qe.zip`;
  for (let n = 2; existsSync(join(dir, name)); n++) name = `qe-${stamp}-${n}.qe.zip`;
  return name;
}

/**
 * The backups of this QE: the archives in DATA_DIR/backups (each with a small .json beside it
 * saying who made it and how), one backup or restore at a time, and the schedule.
 */
export class BackupService {
  readonly dir: string;
  private job: JobState | null = null;

  constructor(
    private readonly db: DB,
    private readonly config: Config,
    /** the app's writes, held back while a restore swaps the data */
    private readonly gate?: WriteGate,
  ) {
    this.dir = join(config.dataDir, 'backups');
  }

  private ensureDir() {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
  }

  /** An archive's path by its name, refused unless the name is an archive's (no path can be named). */
  path(name: string): string {
    if (!ARCHIVE_NAME.test(name)) throw new BusinessError('BACKUP_NOT_FOUND');
    const path = join(this.dir, name);
    if (!existsSync(path)) throw new BusinessError('BACKUP_NOT_FOUND');
    return path;
  }

  list(): BackupEntry[] {
    if (!existsSync(this.dir)) return [];
    const entries: BackupEntry[] = [];
    for (const name of readdirSync(this.dir)) {
      if (!ARCHIVE_NAME.test(name)) continue;
      const path = join(this.dir, name);
      const stat = statSync(path);
      let meta: Partial<BackupEntry> = {};
      try {
        meta = JSON.parse(readFileSync(`${path}.json`, 'utf8')) as Partial<BackupEntry>;
      } catch {
        // an archive copied in by hand: what the file itself says
      }
      entries.push({
        name,
        size: stat.size,
        createdAt: meta.createdAt ?? stat.mtime.toISOString(),
        createdBy: meta.createdBy ?? null,
        scheduled: Boolean(meta.scheduled),
        uploaded: Boolean(meta.uploaded),
        encrypted: archiveKind(path) === 'sealed',
      });
    }
    return entries.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.name.localeCompare(a.name));
  }

  currentJob(): JobState | null {
    return this.job;
  }

  private claim(kind: JobState['kind']): JobState {
    if (this.job?.state === 'running') throw new BusinessError('BACKUP_RUNNING');
    this.job = { id: randomUUID(), kind, state: 'running', done: 0, total: 0, name: null, error: null };
    return this.job;
  }

  /** Starts a backup in the background; answers its job at once. */
  start(options: { passphrase?: string; createdBy?: { id: number; name: string } | null; scheduled?: boolean } = {}): { job: JobState; finished: Promise<BackupEntry | null> } {
    const job = this.claim('backup');
    this.ensureDir();
    const name = archiveName(this.dir);
    job.name = name;
    const path = join(this.dir, name);
    const createdAt = new Date().toISOString();
    const finished = writeBackup(this.config, path, {
      passphrase: options.passphrase,
      createdBy: options.createdBy ?? null,
      onProgress: ({ done, total }) => Object.assign(job, { done, total }),
    }).then(
      () => {
        const entry: BackupEntry = { name, size: statSync(path).size, createdAt, createdBy: options.createdBy ?? null, scheduled: Boolean(options.scheduled), uploaded: false, encrypted: Boolean(options.passphrase) };
        writeFileSync(`${path}.json`, JSON.stringify(entry), { mode: 0o600 });
        job.state = 'done';
        return entry;
      },
      (error: unknown) => {
        job.state = 'failed';
        job.error = { code: 400, message: error instanceof Error ? error.message : String(error) };
        return null;
      },
    );
    return { job, finished };
  }

  delete(name: string): void {
    const path = this.path(name);
    rmSync(path, { force: true });
    rmSync(`${path}.json`, { force: true });
  }

  /** An uploaded archive, already on disk under a temporary name: checked as far as it can be without its passphrase, then kept under an archive's name. */
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
      this.ensureDir();
      const name = archiveName(this.dir);
      const path = join(this.dir, name);
      renameSync(tmpPath, path);
      const entry: BackupEntry = { name, size: statSync(path).size, createdAt: new Date().toISOString(), createdBy, scheduled: false, uploaded: true, encrypted: kind === 'sealed' };
      writeFileSync(`${path}.json`, JSON.stringify(entry), { mode: 0o600 });
      return entry;
    } finally {
      rmSync(tmpPath, { force: true });
    }
  }

  /** Restores an archive of the list: checked whole first; every session ends. */
  async restore(name: string, passphrase?: string, more: { school?: string; by?: number } = {}): Promise<{ tables: number; rows: number }> {
    const path = this.path(name);
    // a passphrase tried is a guess, counted like a login's (passphrase-guesses.ts)
    const guess = passphrase && archiveKind(path) === 'sealed' ? await countPassphraseGuess(this.db, this.config, more.by ?? 0) : null;
    const job = this.claim('restore');
    job.name = name;
    try {
      const gate = this.gate;
      // every instance's writes on PostgreSQL (restore-hold.ts), this one's on SQLite
      const holdWrites = gate && (() => gate.holdEverywhere(WRITES_WAITED_MS));
      const result = await restoreArchive(this.db, this.config, path, { passphrase, holdWrites, instanceId: gate?.instanceId, school: { confirm: more.school }, onProgress: ({ done, total }) => Object.assign(job, { done, total }) });
      await guess?.right();
      job.state = 'done';
      return result;
    } catch (error) {
      if (!(error instanceof ArchiveRefused && error.reason === 'passphrase')) await guess?.right();
      job.state = 'failed';
      const answer = error instanceof ArchiveRefused ? refusalError(error) : error;
      job.error = answer instanceof BusinessError ? { code: ERRORS[answer.key].code, message: errorText(answer.key, 'en', answer.params) } : { code: 400, message: answer instanceof Error ? answer.message : String(answer) };
      throw answer;
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
    if (this.job?.state === 'running') return false;
    const claimed = await this.db
      .updateTable('school')
      .set({ backup_last_at: now.toISOString() })
      .where('id', '=', school.id)
      .where((eb) => (school.backup_last_at === null ? eb('backup_last_at', 'is', null) : eb('backup_last_at', '=', school.backup_last_at)))
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return false;
    const entry = await this.start({ scheduled: true }).finished;
    if (!entry) return false;
    const scheduled = this.list().filter((b) => b.scheduled);
    for (const old of scheduled.slice(Math.max(1, school.backup_keep))) this.delete(old.name);
    return true;
  }

  /** Checks for a due backup every `seconds`; answers the stop. */
  startScheduler(seconds: number, log: { error: (o: object, m: string) => void }): () => void {
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
