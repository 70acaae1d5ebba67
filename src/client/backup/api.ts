import type { BackupEntry, BackupList, JobState, RestoreResult, Schedule } from '../../shared/backup';
import { request } from '../providers/http';
import { upload } from '../providers/upload';

export type { BackupEntry, JobState, Schedule } from '../../shared/backup';

export const BACKUPS_KEY = ['backups'];
/** A restore or an archive's upload may take many minutes on a large school. */
const LONG_MS = 60 * 60_000;

export const listBackups = () => request<BackupList>('/v1/backups');
export const startBackup = (passphrase?: string) => request<JobState>('/v1/backups', { method: 'POST', body: passphrase ? { passphrase } : {} });
/** The job's state; `quiet` while a restore runs: its end ends this session too, which is no news then. */
export const backupJob = (quiet = false) => request<JobState | null>('/v1/backups/job', quiet ? { quietSession: true, ignoreErr: true } : {});
export const deleteBackup = (name: string) => request<null>(`/v1/backups/${encodeURIComponent(name)}`, { method: 'DELETE' });
export const saveSchedule = (schedule: Schedule) => request<Schedule>('/v1/backups/schedule', { method: 'PUT', body: schedule });
/** The restore: errors come back to the dialog (wrong passphrase…) rather than as a toast. */
export const restoreBackup = (name: string, confirm: string, passphrase?: string, school?: string) =>
  request<RestoreResult>(`/v1/backups/${encodeURIComponent(name)}/restore`, { method: 'POST', body: { confirm, ...(passphrase ? { passphrase } : {}), ...(school ? { school } : {}) }, ignoreErr: true, timeoutMs: LONG_MS });
export function uploadArchive(file: File, onProgress: (fraction: number | null) => void): Promise<BackupEntry> {
  const form = new FormData();
  form.append('file', file, file.name);
  return upload<BackupEntry>('/v1/backups/upload', form, onProgress, LONG_MS);
}

/** 1.5 MB, 320 KB: sizes as people read them. */
export function sizeText(bytes: number): string {
  if (bytes >= 2 ** 30) return `${(bytes / 2 ** 30).toFixed(1)} GB`;
  if (bytes >= 2 ** 20) return `${(bytes / 2 ** 20).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}
