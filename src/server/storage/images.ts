import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { FileStore } from './file-store.js';
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
 * Stores the one image of a multipart upload in the store under `folder/` with a random name (so a
 * cached old picture is never shown for a new one) and answers its path under /qe/storage/.
 * Anything that is not a png, jpeg, gif or webp of at most IMAGE_MAX is refused.
 */
export async function storeUploadedImage(request: FastifyRequest, store: FileStore, folder: string, prefix = ''): Promise<string> {
  if (!request.isMultipart()) throw new BusinessError('FILE_TYPE_REFUSED');
  const file = await request.file();
  if (!file) throw new BusinessError('FILE_TYPE_REFUSED');
  const buffer = await file.toBuffer();
  const ext = imageExtension(buffer);
  if (!ext || buffer.length > IMAGE_MAX) throw new BusinessError('IMAGE_REFUSED');
  const path = `${folder}/${prefix}${randomBytes(12).toString('hex')}.${ext}`;
  await store.write(path, buffer);
  return path;
}
