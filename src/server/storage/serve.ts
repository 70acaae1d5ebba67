import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { DB } from '../db/connect.js';
import { STORED_PATH, uploads } from './file-store.js';
import { imageExtension } from './images.js';

const IMAGE_TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };

/**
 * The uploaded images under /qe/storage/<path>, read from the file store, so every instance
 * answers what any stored. Sent only as the kinds QE stores, recognised by their bytes (never
 * the name): anything else in the store — a file put there by hand or by an older restore — goes
 * out as a download of bytes, never as a page, script or SVG running on QE's own origin. The
 * names are random and never reused for other bytes, so an image is cached for good (ETag for
 * a revalidation anyway). Public, as the static folder before it: the login page shows the logo.
 */
export async function storageRoutes(app: FastifyInstance, { db, config }: { db: DB; config: Config }) {
  const store = uploads(db, config);
  app.get('/qe/storage/*', { config: { permission: 'public' } }, async (request, reply) => {
    // already decoded by the router: `..`, `%2f`, dotfiles and absolute paths fail the pattern
    const path = (request.params as { '*': string })['*'];
    if (!STORED_PATH.test(path)) return reply.callNotFound();
    const file = await store.stat(path);
    const head = file && (await store.head(path, 16));
    if (!file || !head) return reply.callNotFound();
    const type = IMAGE_TYPES[imageExtension(head) ?? ''];
    const etag = `"${createHash('sha256').update(`${path}\n${file.size}\n${file.createdAt}`).digest('base64url').slice(0, 27)}"`;
    reply.header('x-content-type-options', 'nosniff');
    // even opened on its own, the file is a sandboxed document: no script, no form, no same origin
    reply.header('content-security-policy', "sandbox; default-src 'none'");
    reply.header('etag', etag);
    reply.header('last-modified', new Date(file.createdAt).toUTCString());
    if (type) reply.header('cache-control', 'public, max-age=31536000, immutable');
    else {
      reply.header('cache-control', 'no-store');
      reply.header('content-disposition', 'attachment');
    }
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    const stream = await store.open(path);
    if (!stream) return reply.callNotFound();
    reply.header('content-length', file.size);
    return reply.type(type ?? 'application/octet-stream').send(stream);
  });
}
