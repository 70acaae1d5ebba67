import { Migrator, type MigrationProvider } from 'kysely';
import type { DB } from './connect.js';
import { migrations } from './generated/migrations.js';
// its class-number index is made after the migrations, once an install's duplicates are fixed
import * as m0010 from './migrations/0010_class_numbers.js';

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
