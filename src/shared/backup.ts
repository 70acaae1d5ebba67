/**
 * Backups as the server answers them and the Backup screen shows them (GET /v1/backups): the
 * types read from the calls' schemas (src/shared/calls/backup.ts).
 */
export type { BackupEntry, JobState, Schedule, BackupList, RestoreResult } from './calls/backup.js';

