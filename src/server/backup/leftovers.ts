import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { sql } from 'kysely';
import type { Config } from '../config.js';
import { isPostgres, type DB } from '../db/connect.js';
import { STAGING_SCHEMA_PREFIX } from './restore.js';
import { STALE_MS } from './restore-hold.js';

/** What a restore, an upload or a backup killed midway leaves, by name. */
// (a backup's archive being written and a restore's local copy of a stored archive: backup/service.ts, storage/file-store.ts)
const DATA_DIR_LEFTOVER = /^(restore-[0-9a-f]+|upload-[0-9a-f]+\.part|\.backup-[0-9a-f]{16}\.qe\.zip(\.partial)?|\.local-[0-9a-f]{12}-.+|.+\.qe\.zip\.[0-9a-f]{12}\.open)$/;
const BACKUPS_LEFTOVER = /\.(partial|[0-9a-f]+\.open)$/;

function removeMatching(dir: string, pattern: RegExp): string[] {
  if (!existsSync(dir)) return [];
  const removed: string[] = [];
  for (const name of readdirSync(dir)) {
    if (!pattern.test(name)) continue;
    rmSync(join(dir, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

/**
 * At a start, what an instance killed midway (kill -9, a power cut) left is removed: a restore's
 * staging copy (a `restore-*` folder on SQLite; a `qe_restore_<instance>_<tag>` schema inside the
 * PostgreSQL database, with every password hash of the archive — never one whose instance is
 * still alive and restoring), the storage folder's `.restore-*`/`.old-*` copies, uploads cut
 * short (`upload-*.part`), backups cut short (`.partial`) and decrypted archives (`.open`).
 * Answers what it removed. An instance killed a moment ago still looks alive for STALE_MS: its
 * schema goes at the pass `schemasOnly` made that long after the start (app.ts).
 */
export async function removeLeftovers(db: DB, config: Pick<Config, 'dataDir' | 'storageDir'>, options: { schemasOnly?: boolean } = {}): Promise<string[]> {
  const now = Date.now();
  let live = new Set<string>();
  let restoring = false;
  if (isPostgres(db)) {
    live = new Set((await db.selectFrom('instances').select('id').where('seen_at', '>=', now - STALE_MS).execute()).map((r) => r.id));
    const hold = await db.selectFrom('restore_holds').select('instance_id').executeTakeFirst();
    restoring = Boolean(hold && live.has(hold.instance_id));
  }
  const removed = options.schemasOnly ? [] : [...removeMatching(config.dataDir, DATA_DIR_LEFTOVER), ...removeMatching(join(config.dataDir, 'backups'), BACKUPS_LEFTOVER)];

  // the storage folder's copies: a living instance's restore may be using them when the folder is shared
  if (!restoring && !options.schemasOnly) {
    const parent = dirname(config.storageDir);
    const base = basename(config.storageDir);
    const copies = existsSync(parent) ? readdirSync(parent).filter((n) => n.startsWith(`${base}.restore-`) || n.startsWith(`${base}.old-`)) : [];
    if (!existsSync(config.storageDir)) {
      // killed between the two renames of the swap, after its commit: the archive's files belong in place
      const incoming = copies.find((n) => n.startsWith(`${base}.restore-`)) ?? copies.find((n) => n.startsWith(`${base}.old-`));
      if (incoming) renameSync(join(parent, incoming), config.storageDir);
    }
    // an upload cut short in the folder (file-store.ts writes `.<tag>.partial` beside its target)
    if (existsSync(config.storageDir)) {
      for (const folder of readdirSync(config.storageDir, { withFileTypes: true })) {
        if (folder.isDirectory()) removed.push(...removeMatching(join(config.storageDir, folder.name), /^\.[0-9a-f]{12}\.partial$/));
      }
    }
    for (const name of copies) {
      if (!existsSync(join(parent, name))) continue;
      rmSync(join(parent, name), { recursive: true, force: true });
      removed.push(name);
    }
  }

  if (isPostgres(db) && !restoring) {
    // a killed restore's files staged in the file store (area `storage.restore-*`): no living restore will swap them in
    const staged = await db.deleteFrom('stored_files').where('area', 'like', '%.restore-%').executeTakeFirst();
    if (Number(staged.numDeletedRows)) removed.push(`${staged.numDeletedRows} staged files`);
  }

  if (isPostgres(db)) {
    const { rows } = await sql<{ name: string }>`select nspname as name from pg_namespace where nspname like ${`${STAGING_SCHEMA_PREFIX}%`}`.execute(db);
    for (const { name } of rows) {
      const owner = /^qe_restore_([0-9a-f]+|none)_[0-9a-f]+$/.exec(name)?.[1];
      // an older name says no owner: kept only while some living instance restores
      const inUse = owner ? live.has(owner) : restoring;
      if (inUse) continue;
      await sql`drop schema if exists ${sql.id(name)} cascade`.execute(db);
      removed.push(name);
    }
  }
  return removed;
}
