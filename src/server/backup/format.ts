/**
 * QE's backup archive (docs/backup-format.md): one .zip of `manifest.json`, `tables/<table>.jsonl`
 * (one JSON object per row, columns by name) and `files/<path>` (the storage folder's uploads),
 * optionally wrapped whole in AES-256-GCM under a key derived from a passphrase with scrypt.
 */

import { masterEntities } from '../../shared/generated/master-entities.js';
import { propertyMeta, type MasterEntity } from '../../shared/master/entity.js';

export const FORMAT = 'qe-backup';
export const FORMAT_VERSION = 1;

/**
 * The tables QE itself keeps, in the order their rows are written and restored (every table
 * before those that refer to it). Sessions, login counters and sign-ins under way are left out: a
 * restore ends every session, and a failed-login window is no school data.
 */
export const CORE_TABLES = [
  'school',
  'positions',
  'users',
  'menus',
  'actions',
  'roles',
  'role_actions',
  'user_roles',
  'school_years',
  'terms',
  'grades',
  'classes',
  'student_classes',
  'teacher_groups',
  'teacher_group_members',
  'mail_settings',
  // before the questionnaires made from them
  'questionnaire_templates',
  'questionnaires',
  'questionnaire_assistants',
  // after the questionnaires it was saved from
  'question_bank',
  'feedback',
  'replies',
  'waiting_replies',
  'reply_answers',
  'text_answer_marks',
  'result_releases',
  'result_release_staff',
  'personal_data_requests',
  'seeded_codes',
  // sign-in with the school's accounts: the providers (their secrets sealed as the SMTP password
  // is), the accounts' links to them, and the password login per user type
  'identity_providers',
  'sign_in_links',
  'sign_in_password_policy',
] as const;
export type CoreTable = (typeof CORE_TABLES)[number];

/**
 * The tables of master-data entities that CORE_TABLES does not name, read from their schemas
 * (docs/recipes/add-master-entity.md): each entity's table, then the tables its properties keep
 * rows in (children, links, yearly values). They come after every core table, which they may
 * refer to, and each entity's own table before the rows that hang on it.
 */
export function masterTablesBeyond(core: readonly string[], entities: readonly MasterEntity[]): string[] {
  const tables: string[] = [];
  const add = (table: string) => {
    if (!core.includes(table) && !tables.includes(table)) tables.push(table);
  };
  for (const entity of entities) {
    add(entity.meta.table);
    for (const property of Object.values(entity.schema.properties)) {
      const meta = propertyMeta(property);
      for (const kept of [meta.children, meta.links, meta.yearly]) if (kept) add(kept.table);
    }
  }
  return tables;
}

/** Added master-data tables: archived after the core ones, their sequences set past the restored ids where they have one. */
export const MASTER_TABLES: readonly string[] = masterTablesBeyond(CORE_TABLES, Object.values(masterEntities));

/** Every table an archive holds, in the order their rows are written and restored. */
export const ARCHIVED_TABLES: readonly string[] = [...CORE_TABLES, ...MASTER_TABLES];

/** Cleared by a restore and not archived. */
export const TRANSIENT_TABLES = ['sessions', 'login_failures', 'import_jobs', 'import_claims', 'mail_outbox', 'reply_drafts', 'sign_in_flows'] as const;

/**
 * Neither archived nor cleared by a restore: the instances on the database and the restore under
 * way (migration 0033, restore-hold.ts) — they describe the running processes, and the swap itself
 * depends on them.
 */
export const INSTANCE_TABLES = ['instances', 'restore_holds'] as const;

/**
 * Not archived either: derived from archived rows and made again by a restore — answer_counts and answer_totals
 * (recounted from the replies' answers), text_terms, term_counts and term_totals (from the stored
 * texts, statistics/terms.ts), cache_versions (moved on by the restore's own writes).
 */
export const DERIVED_TABLES = ['answer_counts', 'answer_totals', 'text_terms', 'term_counts', 'term_totals', 'cache_versions'] as const;

/**
 * Not archived and left alone by a restore: the file store's own tables (storage/file-store.ts;
 * the uploaded files go into an archive under files/ as ever, and an archive never holds other
 * archives) and the running backup or restore job itself.
 */
export const STORE_TABLES = ['stored_files', 'stored_file_chunks', 'backup_job'] as const;

/**
 * Rows whose place in the file must not tell when they came (an anonymous reply's): written in
 * the order of their primary key, which begins with the reply's id — a random UUID (v4) given
 * at submission — so the order is a random one, read by index as it streams, with no sort of
 * millions of rows that would hold the database (and on SQLite the event loop) meanwhile.
 */
export const UNLINKED_ORDER: Readonly<Partial<Record<string, string>>> = {
  replies: 'id',
  waiting_replies: 'id',
  reply_answers: 'reply_id, question_id, item, col',
  text_answer_marks: 'reply_id, question_id',
} satisfies Partial<Record<CoreTable, string>>;

/** Tables whose `id` is a sequence (PostgreSQL's serial, SQLite's autoincrement): set past the restored ids. */
export const SERIAL_ID_TABLES: readonly CoreTable[] = ['school', 'positions', 'users', 'menus', 'actions', 'roles', 'school_years', 'terms', 'grades', 'classes', 'student_classes', 'teacher_groups', 'mail_settings', 'questionnaire_templates', 'questionnaires', 'question_bank', 'feedback', 'personal_data_requests', 'identity_providers', 'sign_in_links'];

export interface Manifest {
  format: typeof FORMAT;
  formatVersion: number;
  qeVersion: string;
  /** every migration applied to the database the archive was made from */
  migrations: string[];
  createdAt: string;
  createdBy: { id: number; name: string } | null;
  /** 'sqlite' | 'postgres' */
  database: string;
  /** rows per archived table */
  tables: Record<string, number>;
  /** SHA-256 (hex) of every other entry, by its name */
  sha256: Record<string, string>;
  /** the uploaded files, by their path under the storage folder */
  files: number;
  /** HMAC of the rest under a key from the making QE's secret (signature.ts); archives before it have none */
  signature?: string;
}

/** The first bytes of an encrypted archive; a plain one begins with a zip's "PK". */
export const SEALED_MAGIC = Buffer.from('QEBACKUP-AES256GCM\n');
/** An encrypted archive with a key check after its IV (KEY_CHECK_BYTES): a wrong passphrase is told without decrypting. */
export const SEALED_MAGIC_CHECKED = Buffer.from('QEBACKUP-AES256GCK\n');
export const KEY_CHECK_BYTES = 16;
export const SALT_BYTES = 16;
export const IV_BYTES = 12;
export const TAG_BYTES = 16;
/** scrypt for the passphrase: N=2^15, r=8, p=1 (32 MiB, about 0.1 s) */
export const SCRYPT = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;

/** An archive's file name (src/shared/calls/backup.ts, whose schemas read it too). */
export { ARCHIVE_NAME } from '../../shared/calls/backup.js';

/** A storage file's path inside an archive: plain names in plain folders, never up or absolute. */
export const STORED_FILE = /^files\/([A-Za-z0-9_-][A-Za-z0-9._-]{0,200}\/){0,4}[A-Za-z0-9_-][A-Za-z0-9._-]{0,200}$/;

/**
 * What a zip may unpack to, against the bytes of it read so far: a real archive's JSON lines and
 * files compress 3–15 times at level 6 (the demo school's archive: see docs/backup-format.md), a
 * crafted "bomb" about 1000 times. Refused (767) beyond `ratio` times once past `floorBytes`.
 */
export const EXPANSION = { ratio: 100, floorBytes: 64 * 2 ** 20, chunkBytes: 16 * 1024 } as const;

/** Limits a read archive is held to: a crafted file cannot make QE unpack without end. */
export const READ_LIMITS = {
  /** bytes all entries unpack to */
  unpackedBytes: 50 * 2 ** 30,
  /** one JSON line */
  lineBytes: 64 * 2 ** 20,
  entries: 100_000,
} as const;
