import { createCipheriv, createHash, createHmac, randomBytes, scrypt as scryptCb } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, readdirSync, renameSync, rmSync, fsyncSync, openSync, closeSync } from 'node:fs';
import { join, relative } from 'node:path';
import { once } from 'node:events';
import type { Config } from '../config.js';
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

/** Every file under a folder, as paths relative to it (the storage folder's uploads). */
function* filesUnder(root: string, dir = root): Generator<string> {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(root, path);
    else if (entry.isFile()) yield relative(root, path).split('\\').join('/');
  }
}

/**
 * Writes the whole database and the uploaded files as an archive to `out`: one consistent
 * snapshot (snapshot.ts) streamed table by table, in pages, so the server keeps answering; the
 * file is written under a temporary name and renamed when complete, so a half-written archive
 * never carries the archive's name. Answers the manifest.
 */
export async function writeBackup(config: Pick<Config, 'databaseUrl' | 'dataDir' | 'storageDir'> & Partial<Pick<Config, 'secret'>>, out: string, options: BackupOptions = {}): Promise<Manifest> {
  const partial = `${out}.partial`;
  const snapshot = await openSnapshot(config);
  const file = createWriteStream(partial, { mode: 0o600 });
  const fileDone = once(file, 'close');
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
    for (const path of filesUnder(config.storageDir)) {
      const name = `files/${path}`;
      const entry = zip.entry(name, LEVEL);
      const hash = createHash('sha256');
      for await (const chunk of createReadStream(join(config.storageDir, path), { highWaterMark: 256 * 1024 })) {
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
  }
}
