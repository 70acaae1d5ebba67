import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, openSync, readSync, closeSync, readdirSync, renameSync, rmSync, statSync, copyFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import { isPostgres, type DB } from '../db/connect.js';
import { ownerOnlyFolder } from '../db/files.js';

/** Bytes per chunk row on PostgreSQL: a large archive passes through in pieces of this size. */
export const CHUNK_BYTES = 1024 * 1024;
/** A partly written file (or a restore's staged files) left by an instance that died: swept after this long. */
const ABANDONED_MS = 24 * 3_600_000;

/** A stored file's path: plain names in plain folders, never up, absolute or hidden (a dotfile). */
export const STORED_PATH = /^([A-Za-z0-9_-][A-Za-z0-9._-]{0,200}\/){0,4}[A-Za-z0-9_-][A-Za-z0-9._-]{0,200}$/;

export interface StoredFile {
  path: string;
  size: number;
  /** epoch milliseconds */
  createdAt: number;
}

export type Source = Buffer | AsyncIterable<Uint8Array>;

/** Files written for a restore, invisible until `commit` puts them in place of every current one. */
export interface StagedFiles {
  write(path: string, source: Source): Promise<void>;
  /** inside the restore's swap transaction: on PostgreSQL the files change with the rows, in one commit */
  inSwap(trx: Kysely<Database>): Promise<void>;
  /** after it: a folder renamed into place on SQLite (on PostgreSQL done already by inSwap, if called) */
  commit(): Promise<void>;
  discard(): Promise<void>;
}

/**
 * Where QE keeps files: the uploaded images (area `storage`, served under /qe/storage/) and the
 * backup archives (area `backups`). One interface over two places: on SQLite (one server) the
 * folders it always had — storageDir and DATA_DIR/backups; on PostgreSQL the database's
 * stored_files and stored_file_chunks (migration 0032), so every instance reads what any wrote,
 * also while that one is down. A file is visible only once completely written.
 */
export interface FileStore {
  list(): Promise<StoredFile[]>;
  stat(path: string): Promise<StoredFile | null>;
  /** the file's first bytes (up to `bytes`), or null when there is no such file */
  head(path: string, bytes: number): Promise<Buffer | null>;
  /** the file's bytes as a stream, or null when there is no such file */
  open(path: string): Promise<Readable | null>;
  write(path: string, source: Source): Promise<StoredFile>;
  /** a complete file on this instance's disk taken in (moved when it can be, then gone from `file`) */
  take(path: string, file: string): Promise<StoredFile>;
  delete(path: string): Promise<boolean>;
  /** a copy on this instance's disk for what reads only files (restore); `done` removes a copy made */
  local(path: string, tmpDir: string): Promise<{ file: string; done: () => void } | null>;
  stage(): Promise<StagedFiles>;
}

export type Area = 'storage' | 'backups';

export function fileStore(db: DB, config: Pick<Config, 'storageDir' | 'dataDir'>, area: Area): FileStore {
  if (isPostgres(db)) return new DatabaseFiles(db, area);
  return new FolderFiles(area === 'storage' ? config.storageDir : join(config.dataDir, 'backups'));
}

const valid = (path: string) => STORED_PATH.test(path);
const tag = () => randomBytes(6).toString('hex');

/** SQLite's place: a folder on this server's disk, as before. */
export class FolderFiles implements FileStore {
  constructor(readonly root: string) {}

  private at(path: string): string | null {
    if (!valid(path)) return null;
    const file = join(this.root, path);
    return existsSync(file) && statSync(file).isFile() ? file : null;
  }

  async list(): Promise<StoredFile[]> {
    const out: StoredFile[] = [];
    const walk = (dir: string) => {
      if (!existsSync(dir)) return;
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (entry.name.startsWith('.')) continue;
        const full = join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (entry.isFile()) {
          const path = relative(this.root, full).split('\\').join('/');
          if (!valid(path)) continue;
          const stat = statSync(full);
          out.push({ path, size: stat.size, createdAt: stat.mtimeMs });
        }
      }
    };
    walk(this.root);
    return out;
  }

  async stat(path: string): Promise<StoredFile | null> {
    const file = this.at(path);
    if (!file) return null;
    const stat = statSync(file);
    return { path, size: stat.size, createdAt: stat.mtimeMs };
  }

  async head(path: string, bytes: number): Promise<Buffer | null> {
    const file = this.at(path);
    if (!file) return null;
    const buffer = Buffer.alloc(bytes);
    const fd = openSync(file, 'r');
    try {
      return buffer.subarray(0, readSync(fd, buffer, 0, bytes, 0));
    } finally {
      closeSync(fd);
    }
  }

  async open(path: string): Promise<Readable | null> {
    const file = this.at(path);
    return file ? createReadStream(file) : null;
  }

  /** a hidden temporary name beside the target (never listed nor served), renamed when complete */
  private temp(path: string): { target: string; partial: string } {
    if (!valid(path)) throw new Error(`not a stored file's path: ${path}`);
    const target = join(this.root, path);
    ownerOnlyFolder(dirname(target));
    return { target, partial: join(dirname(target), `.${tag()}.partial`) };
  }

  async write(path: string, source: Source): Promise<StoredFile> {
    const { target, partial } = this.temp(path);
    try {
      await pipeline(Buffer.isBuffer(source) ? Readable.from([source]) : Readable.from(source), createWriteStream(partial, { mode: 0o600 }));
      renameSync(partial, target);
    } finally {
      rmSync(partial, { force: true });
    }
    return (await this.stat(path))!;
  }

  async take(path: string, file: string): Promise<StoredFile> {
    const { target, partial } = this.temp(path);
    try {
      try {
        renameSync(file, partial);
      } catch {
        // another file system: copied
        copyFileSync(file, partial);
      }
      renameSync(partial, target);
    } finally {
      rmSync(partial, { force: true });
      rmSync(file, { force: true });
    }
    return (await this.stat(path))!;
  }

  async delete(path: string): Promise<boolean> {
    const file = this.at(path);
    if (!file) return false;
    rmSync(file, { force: true });
    return true;
  }

  async local(path: string): Promise<{ file: string; done: () => void } | null> {
    const file = this.at(path);
    return file ? { file, done: () => undefined } : null;
  }

  async stage(): Promise<StagedFiles> {
    // the restore's files in a folder beside the current one, swapped in by two renames
    const incoming = `${this.root}.restore-${tag()}`;
    ownerOnlyFolder(incoming);
    const staged = new FolderFiles(incoming);
    return {
      write: async (path, source) => void (await staged.write(path, source)),
      inSwap: async () => undefined,
      commit: async () => {
        const old = `${this.root}.old-${tag()}`;
        if (existsSync(this.root)) renameSync(this.root, old);
        renameSync(incoming, this.root);
        rmSync(old, { recursive: true, force: true });
      },
      discard: async () => rmSync(incoming, { recursive: true, force: true }),
    };
  }
}

/** PostgreSQL's place: rows every instance reads. */
export class DatabaseFiles implements FileStore {
  constructor(
    private readonly db: DB,
    private readonly area: string,
  ) {}

  private async row(path: string) {
    if (!valid(path)) return null;
    return (await this.db.selectFrom('stored_files').select(['id', 'path', 'size', 'created_at']).where('area', '=', this.area).where('path', '=', path).where('complete', '=', 1).executeTakeFirst()) ?? null;
  }

  async list(): Promise<StoredFile[]> {
    const rows = await this.db.selectFrom('stored_files').select(['path', 'size', 'created_at']).where('area', '=', this.area).where('complete', '=', 1).orderBy('path').execute();
    return rows.map((r) => ({ path: r.path, size: Number(r.size), createdAt: Number(r.created_at) }));
  }

  async stat(path: string): Promise<StoredFile | null> {
    const r = await this.row(path);
    return r ? { path: r.path, size: Number(r.size), createdAt: Number(r.created_at) } : null;
  }

  async head(path: string, bytes: number): Promise<Buffer | null> {
    const r = await this.row(path);
    if (!r) return null;
    const chunk = await this.db.selectFrom('stored_file_chunks').select('bytes').where('file_id', '=', r.id).where('n', '=', 0).executeTakeFirst();
    return chunk ? Buffer.from(chunk.bytes).subarray(0, bytes) : Buffer.alloc(0);
  }

  async open(path: string): Promise<Readable | null> {
    const r = await this.row(path);
    if (!r) return null;
    const db = this.db;
    const chunks = Math.ceil(Number(r.size) / CHUNK_BYTES);
    // one chunk in memory at a time: the stream asks for the next when the last has gone out
    return Readable.from(
      (async function* () {
        for (let n = 0; n < chunks; n++) {
          const chunk = await db.selectFrom('stored_file_chunks').select('bytes').where('file_id', '=', r.id).where('n', '=', n).executeTakeFirst();
          if (!chunk) throw new Error(`stored file ${path}: deleted while read`);
          yield Buffer.from(chunk.bytes);
        }
      })(),
    );
  }

  /** Writes the chunks under a row not yet complete; answers its id (the row is gone again on failure). */
  private async writeRows(area: string, path: string, source: Source): Promise<{ id: number; size: number }> {
    if (!valid(path)) throw new Error(`not a stored file's path: ${path}`);
    await this.sweep();
    const { id } = await this.db.insertInto('stored_files').values({ area, path, size: 0, complete: 0, created_at: Date.now() }).returning('id').executeTakeFirstOrThrow();
    try {
      let n = 0;
      let size = 0;
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      const flush = async (all: boolean) => {
        while (pendingBytes >= CHUNK_BYTES || (all && pendingBytes > 0)) {
          const joined = Buffer.concat(pending);
          const bytes = joined.subarray(0, CHUNK_BYTES);
          const rest = joined.subarray(bytes.length);
          await this.db.insertInto('stored_file_chunks').values({ file_id: id, n: n++, bytes }).execute();
          pending = rest.length ? [rest] : [];
          pendingBytes = rest.length;
        }
      };
      for await (const part of Buffer.isBuffer(source) ? [source] : source) {
        const buffer = Buffer.from(part.buffer, part.byteOffset, part.byteLength);
        pending.push(buffer);
        pendingBytes += buffer.length;
        size += buffer.length;
        await flush(false);
      }
      await flush(true);
      return { id, size };
    } catch (error) {
      await this.db.deleteFrom('stored_files').where('id', '=', id).execute().catch(() => undefined);
      throw error;
    }
  }

  async write(path: string, source: Source): Promise<StoredFile> {
    const { id, size } = await this.writeRows(this.area, path, source);
    try {
      const createdAt = Date.now();
      // in place of the file of that name, if any, in one step
      await this.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('stored_files').where('area', '=', this.area).where('path', '=', path).where('complete', '=', 1).execute();
        await trx.updateTable('stored_files').set({ complete: 1, size, created_at: createdAt }).where('id', '=', id).execute();
      });
      return { path, size, createdAt };
    } catch (error) {
      await this.db.deleteFrom('stored_files').where('id', '=', id).execute().catch(() => undefined);
      throw error;
    }
  }

  async take(path: string, file: string): Promise<StoredFile> {
    try {
      return await this.write(path, createReadStream(file, { highWaterMark: CHUNK_BYTES }));
    } finally {
      rmSync(file, { force: true });
    }
  }

  async delete(path: string): Promise<boolean> {
    if (!valid(path)) return false;
    const { numDeletedRows } = await this.db.deleteFrom('stored_files').where('area', '=', this.area).where('path', '=', path).where('complete', '=', 1).executeTakeFirst();
    return Number(numDeletedRows) > 0;
  }

  async local(path: string, tmpDir: string): Promise<{ file: string; done: () => void } | null> {
    const stream = await this.open(path);
    if (!stream) return null;
    mkdirSync(tmpDir, { recursive: true, mode: 0o700 });
    const file = join(tmpDir, `.local-${tag()}-${path.replace(/\//g, '_')}`);
    try {
      await pipeline(stream, createWriteStream(file, { mode: 0o600 }));
    } catch (error) {
      rmSync(file, { force: true });
      throw error;
    }
    return { file, done: () => rmSync(file, { force: true }) };
  }

  async stage(): Promise<StagedFiles> {
    // complete rows under an area of their own, moved into this one in one transaction
    const staging = `${this.area}.restore-${tag()}`;
    const discard = async () => void (await this.db.deleteFrom('stored_files').where('area', '=', staging).execute());
    let moved = false;
    const move = async (trx: Kysely<Database>) => {
      await trx.deleteFrom('stored_files').where('area', '=', this.area).execute();
      await trx.updateTable('stored_files').set({ area: this.area }).where('area', '=', staging).execute();
      moved = true;
    };
    return {
      write: async (path, source) => {
        const { id, size } = await this.writeRows(staging, path, source);
        await this.db.updateTable('stored_files').set({ complete: 1, size }).where('id', '=', id).execute();
      },
      inSwap: move,
      commit: async () => {
        if (!moved) await this.db.transaction().execute(move);
      },
      discard,
    };
  }

  /** What an instance that died left: partly written files and a restore's staged ones, after a day. */
  private async sweep(): Promise<void> {
    const before = Date.now() - ABANDONED_MS;
    await this.db
      .deleteFrom('stored_files')
      .where('created_at', '<', before)
      .where((eb) => eb.or([eb('complete', '=', 0), eb('area', 'like', '%.restore-%')]))
      .execute();
  }
}

/** The uploaded images (served under /qe/storage/). */
export const uploads = (db: DB, config: Pick<Config, 'storageDir' | 'dataDir'>): FileStore => fileStore(db, config, 'storage');

/**
 * On PostgreSQL, the files an instance kept on its own disk before migration 0032 (its storage
 * folder's uploads, its DATA_DIR/backups archives) taken into the database at start — each
 * instance brings its own, so afterwards every instance serves all of them. A file of a name the
 * store already holds stays where it is. Answers how many were taken in.
 */
export async function takeInFolders(db: DB, config: Pick<Config, 'storageDir' | 'dataDir'>): Promise<number> {
  if (!isPostgres(db)) return 0;
  let taken = 0;
  for (const [area, root] of [['storage', config.storageDir], ['backups', join(config.dataDir, 'backups')]] as const) {
    const folder = new FolderFiles(root);
    const store = new DatabaseFiles(db, area);
    for (const file of await folder.list()) {
      if (await store.stat(file.path)) continue;
      await store.take(file.path, join(root, file.path));
      taken++;
    }
  }
  return taken;
}
