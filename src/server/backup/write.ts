import { createCipheriv, createHash, createHmac, randomBytes, scrypt as scryptCb } from 'node:crypto';
import { createWriteStream, renameSync, rmSync, fsyncSync, openSync, closeSync } from 'node:fs';
import { once } from 'node:events';
import type { Config } from '../config.js';
import { createDb, type DB } from '../db/connect.js';
import { DatabaseFiles, FolderFiles, type FileStore } from '../storage/file-store.js';
import { imageExtension } from '../storage/images.js';
import { ARCHIVED_TABLES, FORMAT, FORMAT_VERSION, IV_BYTES, KEY_CHECK_BYTES, SALT_BYTES, SCRYPT, SEALED_MAGIC_CHECKED, UNLINKED_ORDER, type Manifest } from './format.js';
import { openSnapshot } from './snapshot.js';
import { signManifest } from './signature.js';
import { QE_VERSION } from './version.js';
import { ZipWriter } from '../zip-writer.js';
import { eventLoopTurns } from '../event-loop-turns.js';

export interface BackupProgress {
  /** rows written so far */
  done: number;
  /** rows in every archived table */
  total: number;
}

export interface BackupOptions {
  passphrase?: string;
  createdBy?: { id: number; name: string } | null;
  onProgress?: (progress: BackupProgress) => void;
}

/** The sealed header's key check: tells a wrong passphrase without decrypting anything (never the key itself). */
export function keyCheck(key: Buffer): Buffer {
  return createHmac('sha256', key).update('qe-backup key check').digest().subarray(0, KEY_CHECK_BYTES);
}

export function deriveKey(passphrase: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => scryptCb(passphrase.normalize('NFC'), salt, 32, SCRYPT, (err, key) => (err ? reject(err) : resolve(key))));
}

/**
 * The uploaded files, from the file store (storage/file-store.ts): the storage folder on SQLite,
 * the database on PostgreSQL (through the app's pool, or one of its own for the command line).
 * Only the `storage` area: an archive never holds other archives.
 */
function uploadedFiles(config: Pick<Config, 'databaseUrl' | 'dataDir' | 'storageDir'> & { db?: DB }, stored: boolean): { files: FileStore; close: () => Promise<void> } {
  // a PostgreSQL database of a level before the file store (0032) kept them in the folder too
  if (!config.databaseUrl || !stored) return { files: new FolderFiles(config.storageDir), close: async () => undefined };
  const own = config.db ? null : createDb(config);
  return { files: new DatabaseFiles((config.db ?? own)!, 'storage'), close: async () => void (await own?.destroy()) };
}

/**
 * Writes the whole database and the uploaded files as an archive to `out`: one consistent
 * snapshot (snapshot.ts) streamed table by table, in pages, so the server keeps answering; the
 * file is written under a temporary name and renamed when complete, so a half-written archive
 * never carries the archive's name. Answers the manifest.
 */
export async function writeBackup(config: Pick<Config, 'databaseUrl' | 'dataDir' | 'storageDir'> & Partial<Pick<Config, 'secret'>> & { db?: DB }, out: string, options: BackupOptions = {}): Promise<Manifest> {
  const partial = `${out}.partial`;
  const snapshot = await openSnapshot(config);
  let uploads: ReturnType<typeof uploadedFiles> | null = null;
  const file = createWriteStream(partial, { mode: 0o600 });
  const fileDone = once(file, 'close');
  // a write error (ENOSPC) rejects this too, perhaps while nothing awaits it: caught here, kept in `failed`
  fileDone.catch(() => undefined);
  let failed: Error | null = null;
  file.on('error', (e) => (failed = e));
  try {
    // an encrypted archive: the zip's bytes pass through AES-256-GCM on their way to the file
    let sink: (chunk: Uint8Array) => void = (chunk) => file.write(chunk);
    let seal: (() => void) | null = null;
    if (options.passphrase) {
      const salt = randomBytes(SALT_BYTES);
      const iv = randomBytes(IV_BYTES);
      const key = await deriveKey(options.passphrase, salt);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      file.write(Buffer.concat([SEALED_MAGIC_CHECKED, salt, iv, keyCheck(key)]));
      sink = (chunk) => file.write(cipher.update(chunk));
      seal = () => {
        file.write(cipher.final());
        file.write(cipher.getAuthTag());
      };
    }
    // deflated on libuv's threads (zip-writer.ts), at level 6: a backup is not waited for as an
    // export is, and the archive is a third smaller
    const zip = new ZipWriter((part) => sink(part));
    const LEVEL = 6;
    // the writer keeps pace with the disk rather than holding the archive in memory
    const drained = async () => {
      if (failed) throw failed;
      if (file.writableNeedDrain) await once(file, 'drain');
    };

    const counts: Record<string, number> = {};
    let total = 0;
    // a database of an earlier level lacks the tables added since: its archive does too, and a
    // restore migrates it forward
    const present = await snapshot.tables();
    uploads = uploadedFiles(config, present.has('stored_files'));
    const archived = ARCHIVED_TABLES.filter((table) => present.has(table));
    for (const table of archived) total += await snapshot.estimate(table);
    let done = 0;
    options.onProgress?.({ done, total });
    const sha256: Record<string, string> = {};
    const encoder = new TextEncoder();
    const pause = eventLoopTurns(8);

    for (const table of archived) {
      const name = `tables/${table}.jsonl`;
      const entry = zip.entry(name, LEVEL);
      const hash = createHash('sha256');
      let written = 0;
      for await (const page of snapshot.pages(table, UNLINKED_ORDER[table])) {
        // a page of replies is megabytes of JSON: written a slice at a time, the loop let turn between
        for (let i = 0; i < page.length; i += 100) {
          const bytes = encoder.encode(page.slice(i, i + 100).map((row) => `${JSON.stringify(row)}\n`).join(''));
          hash.update(bytes);
          await entry.write(bytes);
          await pause();
        }
        written += page.length;
        done += page.length;
        options.onProgress?.({ done, total: Math.max(total, done) });
        await drained();
      }
      await entry.end();
      counts[table] = written;
      sha256[name] = hash.digest('hex');
    }

    let files = 0;
    for (const { path } of await uploads.files.list()) {
      // only the images QE stores: anything else (put there by hand) a restore would refuse (restore-files.ts)
      if (!imageExtension((await uploads.files.head(path, 16)) ?? Buffer.alloc(0))) continue;
      const stream = await uploads.files.open(path);
      // deleted since it was listed: not in the archive
      if (!stream) continue;
      const name = `files/${path}`;
      const entry = zip.entry(name, LEVEL);
      const hash = createHash('sha256');
      for await (const chunk of stream) {
        hash.update(chunk as Buffer);
        await entry.write(chunk as Buffer);
        await drained();
      }
      await entry.end();
      sha256[name] = hash.digest('hex');
      files++;
    }

    const manifest: Manifest = {
      format: FORMAT,
      formatVersion: FORMAT_VERSION,
      qeVersion: QE_VERSION,
      migrations: await snapshot.migrations(),
      createdAt: new Date().toISOString(),
      createdBy: options.createdBy ?? null,
      database: snapshot.database,
      tables: counts,
      sha256,
      files,
    };
    // signed with this QE's secret: a restore tells its own archives from edited or foreign ones
    if (config.secret) manifest.signature = signManifest(manifest, config.secret);
    options.onProgress?.({ done, total: done });
    const last = zip.entry('manifest.json', LEVEL);
    await last.write(encoder.encode(JSON.stringify(manifest, null, 2)));
    await last.end();
    zip.finish();
    seal?.();
    file.end();
    await fileDone;
    if (failed) throw failed;
    const fd = openSync(partial, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(partial, out);
    return manifest;
  } catch (error) {
    file.destroy();
    rmSync(partial, { force: true });
    throw error;
  } finally {
    await snapshot.close();
    await uploads?.close();
  }
}
