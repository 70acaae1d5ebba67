import { PassThrough } from 'node:stream';
import { once } from 'node:events';
import { BusinessError } from '../plugins/errors.js';
import type { StagedFiles } from '../storage/file-store.js';
import { imageExtension } from '../storage/images.js';

/** Enough of a file's first bytes to tell every image kind QE stores (webp's RIFF…WEBP is 12). */
const HEAD_BYTES = 12;

/**
 * The `file` handler of a restore's archive read (read.ts EntryHandlers): each `files/` entry
 * streamed into the file store's staging, but only if its first bytes are an image QE stores
 * (png, jpeg, gif, webp) — anything else (HTML, SVG, a script) would be served back from QE's
 * own origin, so the whole restore is refused with BACKUP_CONTENT_REFUSED, naming the file,
 * before anything live changes.
 */
export function stagedFileWriter(staged: StagedFiles): (path: string, chunk: Uint8Array | null) => Promise<void> {
  let current: { path: string; head: Buffer[]; headBytes: number; pass: PassThrough | null; written: Promise<void> | null } | null = null;

  const begin = (c: NonNullable<typeof current>) => {
    const head = Buffer.concat(c.head);
    if (!imageExtension(head)) throw new BusinessError('BACKUP_CONTENT_REFUSED', { detail: `files/${c.path}` });
    c.pass = new PassThrough();
    c.written = staged.write(c.path, c.pass);
    // a failure of the write is awaited at the file's end; meanwhile it must not go unhandled
    c.written.catch(() => undefined);
    c.pass.write(head);
  };

  return async (path, chunk) => {
    if (!current || current.path !== path) current = { path, head: [], headBytes: 0, pass: null, written: null };
    const c = current;
    if (chunk) {
      if (!c.pass) {
        c.head.push(Buffer.from(chunk));
        c.headBytes += chunk.length;
        if (c.headBytes >= HEAD_BYTES) begin(c);
      } else if (!c.pass.write(chunk)) await Promise.race([once(c.pass, 'drain'), c.written]);
      return;
    }
    if (!c.pass) begin(c);
    c.pass!.end();
    await c.written;
    current = null;
  };
}
