import { createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { closeSync, createReadStream, createWriteStream, openSync, readSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { StringDecoder } from 'node:string_decoder';
import { Unzip, UnzipInflate } from 'fflate';
import { ARCHIVED_TABLES, EXPANSION, FORMAT, FORMAT_VERSION, IV_BYTES, KEY_CHECK_BYTES, READ_LIMITS, SALT_BYTES, SEALED_MAGIC, SEALED_MAGIC_CHECKED, STORED_FILE, TAG_BYTES, type Manifest } from './format.js';
import { deriveKey, keyCheck } from './write.js';

/** Why an archive is refused: each has its message (src/shared/errors.ts BACKUP_*), the current data untouched. */
export type RefusalReason = 'foreign' | 'corrupt' | 'tampered' | 'passphrase' | 'passphraseNeeded' | 'newer' | 'content' | 'expands' | 'checking' | 'school';

export class ArchiveRefused extends Error {
  constructor(readonly reason: RefusalReason, readonly detail = '') {
    super(`archive refused (${reason})${detail ? `: ${detail}` : ''}`);
  }
}

const KNOWN_TABLES = new Set<string>(ARCHIVED_TABLES);

/** What an archive's first bytes say it is. */
export function archiveKind(path: string): 'zip' | 'sealed' | 'foreign' {
  const head = Buffer.alloc(SEALED_MAGIC.length);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  if (head.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) return 'zip';
  if (head.equals(SEALED_MAGIC) || head.equals(SEALED_MAGIC_CHECKED)) return 'sealed';
  return 'foreign';
}

/**
 * An encrypted archive's zip, decrypted into a file beside it (removed by the caller); the
 * authentication tag is checked before anything of it is read, so a wrong passphrase and a
 * changed byte are both refused here.
 */
async function unseal(path: string, passphrase: string | undefined): Promise<string> {
  if (!passphrase) throw new ArchiveRefused('passphraseNeeded');
  const size = statSync(path).size;
  const magic = Buffer.alloc(SEALED_MAGIC.length);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, magic, 0, magic.length, 0);
  } finally {
    closeSync(fd);
  }
  // an archive sealed since the key check came has it after the IV; one sealed before has none
  const checked = magic.equals(SEALED_MAGIC_CHECKED);
  const headerBytes = SEALED_MAGIC.length + SALT_BYTES + IV_BYTES + (checked ? KEY_CHECK_BYTES : 0);
  if (size < headerBytes + TAG_BYTES) throw new ArchiveRefused('corrupt', 'too short');
  const header = Buffer.alloc(headerBytes);
  const tag = Buffer.alloc(TAG_BYTES);
  const fd2 = openSync(path, 'r');
  try {
    readSync(fd2, header, 0, headerBytes, 0);
    readSync(fd2, tag, 0, TAG_BYTES, size - TAG_BYTES);
  } finally {
    closeSync(fd2);
  }
  const salt = header.subarray(SEALED_MAGIC.length, SEALED_MAGIC.length + SALT_BYTES);
  const iv = header.subarray(SEALED_MAGIC.length + SALT_BYTES, SEALED_MAGIC.length + SALT_BYTES + IV_BYTES);
  const key = await deriveKey(passphrase, salt);
  // a wrong passphrase is told by the check value: nothing is decrypted for it
  if (checked && !timingSafeEqual(keyCheck(key), header.subarray(SEALED_MAGIC.length + SALT_BYTES + IV_BYTES))) throw new ArchiveRefused('passphrase');
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAuthTag(tag);
  const out = `${path}.${randomBytes(6).toString('hex')}.open`;
  const file = createWriteStream(out, { mode: 0o600 });
  let writeError: Error | null = null;
  file.on('error', (e) => (writeError = e));
  const closed = once(file, 'close').catch(() => undefined);
  try {
    for await (const chunk of createReadStream(path, { start: headerBytes, end: size - TAG_BYTES - 1 })) {
      if (writeError) throw writeError;
      if (!file.write(decipher.update(chunk as Buffer))) await once(file, 'drain');
    }
    try {
      file.write(decipher.final());
    } catch {
      throw new ArchiveRefused('passphrase');
    }
    file.end();
    await closed;
    if (writeError) throw writeError;
    return out;
  } catch (error) {
    // what is on its way to the disk lands first, then the copy goes
    file.end();
    await closed;
    rmSync(out, { force: true });
    throw error;
  }
}

export interface EntryHandlers {
  /** one page of a table's rows, parsed */
  rows?: (table: string, rows: Record<string, unknown>[]) => Promise<void> | void;
  /** the bytes of an uploaded file, in order; `end` once at its end */
  file?: (path: string, chunk: Uint8Array | null) => Promise<void> | void;
}

/**
 * Reads a zip archive through once, streaming: every entry's name checked, its bytes hashed,
 * table entries split into JSON lines and parsed, limits held. Answers the manifest and the
 * hashes and row counts it found; `handlers` see the rows and files as they pass.
 */
async function walk(zipPath: string, handlers: EntryHandlers = {}): Promise<{ manifest: Manifest | null; sha256: Record<string, string>; rows: Record<string, number>; names: string[] }> {
  const sha256: Record<string, string> = {};
  const rows: Record<string, number> = {};
  const names: string[] = [];
  let manifestText = '';
  const filePaths = new Set<string>();
  const folders = new Set<string>();
  let unpacked = 0;
  // bytes of the zip pushed so far: what it unpacks to is held to a multiple of them (format.ts EXPANSION)
  let pushed = 0;
  let problem: ArchiveRefused | null = null;
  // work the handlers ask for waits here until the chunk that produced it is through
  let pending: (() => Promise<void>)[] = [];

  const unzip = new Unzip((entry) => {
    if (problem) return;
    const name = entry.name;
    names.push(name);
    if (names.length > READ_LIMITS.entries) problem = new ArchiveRefused('corrupt', 'too many entries');
    const table = /^tables\/([a-z_]+)\.jsonl$/.exec(name)?.[1];
    const isManifest = name === 'manifest.json';
    const isFile = STORED_FILE.test(name);
    if (!isManifest && !isFile && !(table && KNOWN_TABLES.has(table))) {
      problem = new ArchiveRefused(table ? 'newer' : 'foreign', name);
      return;
    }
    if (isFile) {
      // a file and a folder of one name cannot both be put in place
      const path = name.slice('files/'.length);
      const parts = path.split('/');
      const clash = folders.has(path) || parts.slice(0, -1).some((_, i) => filePaths.has(parts.slice(0, i + 1).join('/')));
      if (clash) {
        problem = new ArchiveRefused('corrupt', `${name}: a file and a folder of one name`);
        return;
      }
      filePaths.add(path);
      for (let i = 1; i < parts.length; i++) folders.add(parts.slice(0, i).join('/'));
    }
    if (sha256[name] !== undefined || (table && rows[table] !== undefined)) {
      problem = new ArchiveRefused('tampered', `${name} twice`);
      return;
    }
    const hash = createHash('sha256');
    const decoder = new StringDecoder('utf8');
    let partial = '';
    if (table) rows[table] = 0;
    entry.ondata = (err, data, final) => {
      if (problem) return;
      if (err) {
        problem = new ArchiveRefused('corrupt', `${name}: ${err.message}`);
        return;
      }
      unpacked += data.length;
      if (unpacked > Math.max(EXPANSION.floorBytes, EXPANSION.ratio * pushed)) {
        problem = new ArchiveRefused('expands', `${name}: more than ${EXPANSION.ratio} times its size`);
        return;
      }
      if (unpacked > READ_LIMITS.unpackedBytes) {
        problem = new ArchiveRefused('corrupt', 'unpacks to more than the limit');
        return;
      }
      if (!isManifest) hash.update(data);
      if (isManifest) {
        manifestText += decoder.write(Buffer.from(data));
        if (manifestText.length > READ_LIMITS.lineBytes) problem = new ArchiveRefused('corrupt', 'manifest too large');
      } else if (table) {
        const text = partial + decoder.write(Buffer.from(data)) + (final ? decoder.end() : '');
        const lines = text.split('\n');
        partial = final ? '' : lines.pop()!;
        if (partial.length > READ_LIMITS.lineBytes) {
          problem = new ArchiveRefused('corrupt', `${name}: a line longer than the limit`);
          return;
        }
        const page: Record<string, unknown>[] = [];
        for (const line of lines) {
          if (line === '') continue;
          let row: unknown;
          try {
            row = JSON.parse(line);
          } catch {
            problem = new ArchiveRefused('corrupt', `${name}: a line that is not JSON`);
            return;
          }
          if (!row || typeof row !== 'object' || Array.isArray(row)) {
            problem = new ArchiveRefused('corrupt', `${name}: a line that is not a row`);
            return;
          }
          page.push(row as Record<string, unknown>);
        }
        rows[table] += page.length;
        if (page.length && handlers.rows) pending.push(() => Promise.resolve(handlers.rows!(table, page)));
      } else if (handlers.file) {
        const path = name.slice('files/'.length);
        const bytes = data.slice();
        pending.push(() => Promise.resolve(handlers.file!(path, bytes)));
        if (final) pending.push(() => Promise.resolve(handlers.file!(path, null)));
      }
      if (final && !isManifest) sha256[name] = hash.digest('hex');
    };
    entry.start();
  });
  unzip.register(UnzipInflate);

  // small pushes: one push unpacks at most EXPANSION.chunkBytes × deflate's 1032 in one turn of the event loop
  for await (const chunk of createReadStream(zipPath, { highWaterMark: EXPANSION.chunkBytes })) {
    pushed += (chunk as Buffer).length;
    try {
      unzip.push(chunk as Buffer);
    } catch (error) {
      throw new ArchiveRefused('corrupt', (error as Error).message);
    }
    if (problem) throw problem;
    const work = pending;
    pending = [];
    for (const job of work) await job();
    // everyone else's calls between two pushes
    await new Promise((resolve) => setImmediate(resolve));
  }
  try {
    unzip.push(new Uint8Array(0), true);
  } catch (error) {
    throw new ArchiveRefused('corrupt', (error as Error).message);
  }
  if (problem) throw problem;
  for (const job of pending) await job();
  let manifest: Manifest | null = null;
  if (manifestText) {
    try {
      manifest = JSON.parse(manifestText) as Manifest;
    } catch {
      throw new ArchiveRefused('corrupt', 'manifest.json is not JSON');
    }
  }
  return { manifest, sha256, rows, names };
}

export interface OpenArchive {
  manifest: Manifest;
  encrypted: boolean;
  /** the zip to read (the archive itself, or its decrypted copy) */
  zipPath: string;
  /** reads the archive's rows and files through again, into the handlers */
  read(handlers: EntryHandlers): Promise<void>;
  /** removes a decrypted copy */
  close(): void;
}

/**
 * Opens an archive and checks all of it before anything is written anywhere: what it is, the
 * passphrase, every entry against the manifest's SHA-256 and row counts, the manifest's format.
 * Whether its migrations are known to this QE is the restore's check (it knows the migrations).
 */
export async function openArchive(path: string, passphrase?: string): Promise<OpenArchive> {
  // one archive checked at a time in a process: a second waits for nobody, it is told to try again
  if (checking) throw new ArchiveRefused('checking');
  checking = true;
  try {
    return await check(path, passphrase);
  } finally {
    checking = false;
  }
}

let checking = false;

async function check(path: string, passphrase?: string): Promise<OpenArchive> {
  const kind = archiveKind(path);
  if (kind === 'foreign') throw new ArchiveRefused('foreign');
  const zipPath = kind === 'sealed' ? await unseal(path, passphrase) : path;
  const close = () => {
    if (zipPath !== path) rmSync(zipPath, { force: true });
  };
  try {
    const found = await walk(zipPath);
    const m = found.manifest;
    // the manifest is written last: an archive cut short has none
    if (!m) throw new ArchiveRefused('corrupt', found.names.length ? 'cut short: no manifest' : 'no entries');
    if (m.format !== FORMAT || typeof m.formatVersion !== 'number' || !m.sha256 || !m.tables || !Array.isArray(m.migrations)) throw new ArchiveRefused('foreign', 'not a QE manifest');
    if (m.formatVersion > FORMAT_VERSION) throw new ArchiveRefused('newer', `format ${m.formatVersion}`);
    const listed = Object.keys(m.sha256).sort();
    const present = Object.keys(found.sha256).sort();
    if (listed.join('\n') !== present.join('\n')) throw new ArchiveRefused('tampered', 'entries differ from the manifest');
    for (const name of listed) if (m.sha256[name] !== found.sha256[name]) throw new ArchiveRefused('tampered', `${name} does not match its checksum`);
    for (const [table, n] of Object.entries(m.tables)) if (found.rows[table] !== n) throw new ArchiveRefused('tampered', `${table}: ${found.rows[table] ?? 0} rows where the manifest says ${n}`);
    return {
      manifest: m,
      encrypted: kind === 'sealed',
      zipPath,
      read: async (handlers) => {
        await walk(zipPath, handlers);
      },
      close,
    };
  } catch (error) {
    close();
    throw error;
  }
}
