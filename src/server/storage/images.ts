import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyRequest } from 'fastify';
import { ownerOnlyFolder } from '../db/files.js';
import { BusinessError } from '../plugins/errors.js';

/** Question images, the school logo and avatars: at most 2 MB each. */
export const IMAGE_MAX = 2 * 1024 * 1024;

const IMAGE_TYPES: [string, number[]][] = [
  ['png', [0x89, 0x50, 0x4e, 0x47]],
  ['jpg', [0xff, 0xd8, 0xff]],
  ['gif', [0x47, 0x49, 0x46, 0x38]],
];

/** The image type a file's first bytes show (never its name or declared type); null for anything else. */
export function imageExtension(buffer: Buffer): string | null {
  for (const [ext, magic] of IMAGE_TYPES) if (magic.every((b, i) => buffer[i] === b)) return ext;
  if (buffer.subarray(0, 4).toString('latin1') === 'RIFF' && buffer.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp';
  return null;
}

/**
 * Stores the one image of a multipart upload under `storageDir/folder` with a random name (so a
 * cached old picture is never shown for a new one) and answers its path under /qe/storage/.
 * Anything that is not a png, jpeg, gif or webp of at most IMAGE_MAX is refused.
 */
export async function storeUploadedImage(request: FastifyRequest, storageDir: string, folder: string, prefix = ''): Promise<string> {
  if (!request.isMultipart()) throw new BusinessError('FILE_TYPE_REFUSED');
  const file = await request.file();
  if (!file) throw new BusinessError('FILE_TYPE_REFUSED');
  const buffer = await file.toBuffer();
  const ext = imageExtension(buffer);
  if (!ext || buffer.length > IMAGE_MAX) throw new BusinessError('IMAGE_REFUSED');
  const dir = join(storageDir, folder);
  ownerOnlyFolder(dir);
  const name = `${prefix}${randomBytes(12).toString('hex')}.${ext}`;
  try {
    writeFileSync(join(dir, name), buffer, { mode: 0o600 });
  } catch (error) {
    // the disk full part way: no half image left (the caller is told DISK_FULL)
    rmSync(join(dir, name), { force: true });
    throw error;
  }
  return `${folder}/${name}`;
}
