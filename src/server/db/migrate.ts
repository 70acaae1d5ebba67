import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { DB } from './connect.js';
import * as m0001 from './migrations/0001_foundation.js';
import * as m0002 from './migrations/0002_master_data.js';
import * as m0003 from './migrations/0003_questionnaires.js';
import * as m0004 from './migrations/0004_replies.js';
import * as m0005 from './migrations/0005_quick_links.js';
import * as m0006 from './migrations/0006_reply_mixing.js';
import * as m0007 from './migrations/0007_statistics.js';
import * as m0008 from './migrations/0008_anonymous_release.js';
import * as m0009 from './migrations/0009_mail_security.js';
import * as m0010 from './migrations/0010_class_numbers.js';
import * as m0011 from './migrations/0011_school_settings.js';
import * as m0014 from './migrations/0014_defaults_that_stick.js';
import * as m0013 from './migrations/0013_personal_data.js';
import * as m0012 from './migrations/0012_year_rollover.js';
import * as m0015 from './migrations/0015_backups.js';
import * as m0016 from './migrations/0016_read_indexes.js';
import * as m0017 from './migrations/0017_cache_versions.js';
import * as m0018 from './migrations/0018_answer_counts.js';
import * as m0019 from './migrations/0019_import_jobs.js';
import * as m0020 from './migrations/0020_reply_counting.js';
import * as m0021 from './migrations/0021_row_versions.js';
import * as m0022 from './migrations/0022_answer_totals.js';
import * as m0023 from './migrations/0023_profile_version.js';

/** Migrations in order; a new one is a new file and one line here. */
const migrations: Record<string, Migration> = {
  '0001_foundation': m0001,
  '0002_master_data': m0002,
  '0003_questionnaires': m0003,
  '0004_replies': m0004,
  '0005_quick_links': m0005,
  '0006_reply_mixing': m0006,
  '0007_statistics': m0007,
  '0008_anonymous_release': m0008,
  '0009_mail_security': m0009,
  '0010_class_numbers': m0010,
  '0011_school_settings': m0011,
  '0014_defaults_that_stick': m0014,
  '0013_personal_data': m0013,
  '0012_year_rollover': m0012,
  '0015_backups': m0015,
  '0016_read_indexes': m0016,
  '0017_cache_versions': m0017,
  '0018_answer_counts': m0018,
  '0019_import_jobs': m0019,
  '0020_reply_counting': m0020,
  '0021_row_versions': m0021,
  '0022_answer_totals': m0022,
  '0023_profile_version': m0023,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** The migrations this QE knows, by name (a backup made by a newer QE names others). */
export const knownMigrations = (): string[] => Object.keys(migrations).sort();

/** Migrates to the latest level; answers the names of the migrations applied now. */
export async function migrateToLatest(db: DB, migrationTableSchema?: string): Promise<string[]> {
  const migrator = new Migrator({ db, provider, migrationTableSchema });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
  // the class-number index waits for an install's duplicate numbers to be fixed (see 0010)
  await m0010.classNumberIndex(db);
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * Migrates up or down to the named migration (tests of a migration's backfill; a restore's
 * fresh copy, whose bookkeeping lives in its own PostgreSQL schema: `migrationTableSchema`).
 */
export async function migrateTo(db: DB, name: string, migrationTableSchema?: string): Promise<void> {
  const { error, results } = await new Migrator({ db, provider, migrationTableSchema }).migrateTo(name);
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`migration to ${name} failed: ${String(error)}`);
}
