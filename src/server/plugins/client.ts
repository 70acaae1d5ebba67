import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { Config } from '../config.js';
import { ownerOnlyFolder } from '../db/files.js';
import type { DB } from '../db/connect.js';
import { storageRoutes } from '../storage/serve.js';

/** Vite's output names: assets/name-HASH.ext (the hash is 8 characters of [A-Za-z0-9_-]). */
const HASHED_ASSET = /[\\/]assets[\\/][^\\/]+-[A-Za-z0-9_-]{8}\.[a-z0-9]+(\.(br|gz))?$/;

/**
 * Serves the built single-page app under /qe/; every other /qe/ path answers index.html so
 * the client's router decides (and shows its own 404). / goes to /qe/.
 */
export async function clientPlugin(app: FastifyInstance, { config, db }: { config: Config; db: DB }) {
  app.get('/', (_request, reply) => reply.redirect('/qe/'));
  // uploaded files (questionnaire images, the school logo, avatars) under /qe/storage/, from the file store
  ownerOnlyFolder(config.storageDir);
  await app.register(storageRoutes, { db, config });
  const index = join(config.clientDir, 'index.html');
  if (!existsSync(index)) {
    app.log.warn(`no built client in ${config.clientDir}: run "npm run build" to serve the web app`);
    app.get('/qe/*', (_request, reply) => reply.type('text/plain').send('QE client not built: run "npm run build".'));
    return;
  }
  await app.register(fastifyStatic, {
    root: config.clientDir,
    prefix: '/qe/',
    wildcard: false,
    index: false,
    // the build wrote .br and .gz beside each text file (scripts/vite-precompress.ts): sent by Accept-Encoding
    preCompressed: true,
    cacheControl: false,
    setHeaders: (res, path) => {
      // a hashed asset never changes under its name; anything else is asked again each time
      res.setHeader('cache-control', HASHED_ASSET.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache');
      // caches between keep the brotli, gzip and plain copies apart
      res.setHeader('vary', 'accept-encoding');
    },
  });
  const sendIndex = (request: { url: string }, reply: { header: (k: string, v: string) => unknown; sendFile: (f: string) => unknown }) => {
    reply.header('cache-control', 'no-cache');
    // The Google sign-in popup comes back here from the provider's origin. Under QE's own
    // opener policy (same-origin-allow-popups) that return would cut the popup off from the
    // window that opened it, so this one page keeps the default policy: it must postMessage
    // the code to window.opener (and only to QE's own origin).
    if (request.url === '/qe/google-callback' || request.url.startsWith('/qe/google-callback?')) reply.header('cross-origin-opener-policy', 'unsafe-none');
    return reply.sendFile('index.html');
  };
  app.get('/qe', sendIndex as never);
  app.get('/qe/*', sendIndex as never);
}
