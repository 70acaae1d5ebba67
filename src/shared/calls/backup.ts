import { envelopeOf, REFUSALS, type Shape } from './envelope.js';

/**
 * Backup and restore (src/server/backup/routes.ts): the list, a backup now and its job, delete,
 * upload, restore and the schedule, described once (docs/conventions.md#call-shapes). The
 * download answers the archive itself, not an envelope: only its refusals are described. The
 * Backup screen reads these schemas' types (src/client/backup/api.ts, through src/shared/backup.ts).
 */

/** An archive's file name: qe-YYYYMMDD-HHmmss[-n].qe.zip; nothing else is read from or written to the backups folder. */
export const ARCHIVE_NAME = /^qe-\d{8}-\d{6}(-[a-z0-9]{1,12})?\.qe\.zip$/;

const text = { type: 'string' } as const;
const integer = { type: 'integer' } as const;
const passphrase = { type: 'string', minLength: 8, maxLength: 200 } as const;

// ---- requests

/** `/:name`: an archive of the list */
export const nameParams = { type: 'object', required: ['name'], additionalProperties: false, properties: { name: { type: 'string', minLength: 1, maxLength: 64, pattern: ARCHIVE_NAME.source } } } as const;
export type NameParams = Shape<typeof nameParams>;

/** POST /v1/backups: sealed with the passphrase when one is given */
export const startBody = { type: 'object', additionalProperties: false, properties: { passphrase } } as const;
export type StartBody = Shape<typeof startBody>;

/** POST /v1/backups/:name/restore: `confirm` repeats the archive's name */
export const restoreBody = {
  type: 'object',
  required: ['confirm'],
  additionalProperties: false,
  properties: {
    passphrase,
    confirm: { type: 'string', maxLength: 64 },
    school: { type: 'string', maxLength: 200, description: "the archive's school name, typed when it is another school's or not made by this QE (765 says the name)" },
  },
} as const;
export type RestoreBody = Shape<typeof restoreBody>;

/** PUT /v1/backups/schedule; also what GET answers */
export const schedule = {
  type: 'object',
  required: ['everyHours', 'keep'],
  additionalProperties: false,
  properties: { everyHours: { type: 'integer', minimum: 0, maximum: 720, description: 'hours; 0: off' }, keep: { type: 'integer', minimum: 1, maximum: 100, description: 'scheduled archives kept' } },
} as const;
/** How often a backup is made (hours; 0: off) and how many scheduled ones are kept. */
export type Schedule = Shape<typeof schedule>;

// ---- answers

/** One archive of the list. */
export const backupEntry = {
  type: 'object',
  required: ['name', 'size', 'createdAt', 'createdBy', 'scheduled', 'uploaded', 'encrypted'],
  additionalProperties: false,
  properties: {
    name: text,
    size: { type: 'integer', description: 'bytes' },
    createdAt: text,
    createdBy: {
      anyOf: [{ type: 'object', required: ['id', 'name'], additionalProperties: false, properties: { id: integer, name: text, nameEn: text } }, { type: 'null' }],
    },
    scheduled: { type: 'boolean' },
    uploaded: { type: 'boolean' },
    encrypted: { type: 'boolean', description: 'sealed with a passphrase' },
  },
} as const;
export type BackupEntry = Shape<typeof backupEntry>;

/** A backup or restore under way, or the last one (done or failed): its rows written of all. */
export const jobState = {
  type: 'object',
  required: ['id', 'kind', 'state', 'done', 'total', 'name', 'error'],
  additionalProperties: false,
  properties: {
    id: text,
    kind: { type: 'string', enum: ['backup', 'restore'] },
    state: { type: 'string', enum: ['running', 'done', 'failed'] },
    done: integer,
    total: integer,
    name: { type: ['string', 'null'] },
    error: { anyOf: [{ type: 'object', required: ['code', 'message'], additionalProperties: false, properties: { code: integer, message: text } }, { type: 'null' }] },
  },
} as const;
export type JobState = Shape<typeof jobState>;

const maybeJob = { anyOf: [jobState, { type: 'null' }] } as const;

/** GET /v1/backups: the backups (newest first), the schedule and the running job */
export const backupList = {
  type: 'object',
  required: ['list', 'schedule', 'job'],
  additionalProperties: false,
  properties: { list: { type: 'array', items: backupEntry }, schedule, job: maybeJob },
} as const;
export type BackupList = Shape<typeof backupList>;

/** POST /v1/backups/:name/restore: how much was restored */
export const restoreResult = { type: 'object', required: ['tables', 'rows'], additionalProperties: false, properties: { tables: integer, rows: integer } } as const;
export type RestoreResult = Shape<typeof restoreResult>;

/**
 * The answers of each call, per HTTP status: the start of a backup answers 202 (accepted: the
 * archive is written in the background) and an upload 201, so their envelopes are declared under
 * those statuses.
 */
export const BACKUP_ANSWERS = {
  /** GET /v1/backups */
  list: { 200: envelopeOf(backupList), ...REFUSALS },
  /** POST /v1/backups: the job started (HTTP 202) */
  started: { 202: envelopeOf(jobState), ...REFUSALS },
  /** GET /v1/backups/job: the latest job, whichever instance runs or ran it, or null */
  job: { 200: envelopeOf(maybeJob), ...REFUSALS },
  /** GET /v1/backups/:name/download: the archive itself (application/zip), no envelope */
  download: { ...REFUSALS },
  /** POST /v1/backups/upload: the archive kept (HTTP 201) */
  uploaded: { 201: envelopeOf(backupEntry), ...REFUSALS },
  /** POST /v1/backups/:name/restore */
  restored: { 200: envelopeOf(restoreResult), ...REFUSALS },
  /** GET, PUT /v1/backups/schedule */
  schedule: { 200: envelopeOf(schedule), ...REFUSALS },
  /** DELETE /v1/backups/:name: nothing in `data` */
  deleted: { 200: envelopeOf({ type: 'null' }), ...REFUSALS },
} as const;
