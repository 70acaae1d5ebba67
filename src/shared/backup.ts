/** Backups as the server answers them and the Backup screen shows them (GET /v1/backups). */

export interface BackupEntry {
  name: string;
  size: number;
  createdAt: string;
  createdBy: { id: number; name: string; nameEn?: string } | null;
  scheduled: boolean;
  uploaded: boolean;
  encrypted: boolean;
}

/** A backup or restore under way, or the last one (done or failed): its rows written of all. */
export interface JobState {
  id: string;
  kind: 'backup' | 'restore';
  state: 'running' | 'done' | 'failed';
  done: number;
  total: number;
  name: string | null;
  error: { code: number; message: string } | null;
}

/** How often a backup is made (hours; 0: off) and how many scheduled ones are kept. */
export interface Schedule {
  everyHours: number;
  keep: number;
}
