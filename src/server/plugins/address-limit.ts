import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { countTry } from '../auth/login-limit.js';
import type { DB } from '../db/connect.js';
import { addressKey } from '../ip-ranges.js';
import { BusinessError } from './errors.js';

/** How often one client address may call a public route (`config.addressLimit`), within a window. */
export interface AddressLimit {
  max: number;
  windowMs: number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** calls of this route counted per client address in the database; past `max` in the window, 429 RATE_LIMITED */
    addressLimit?: AddressLimit;
  }
}

/**
 * Public routes' limits per client address, counted in the database (the login limit's counters,
 * `countTry` in `login_failures`, one atomic upsert) under the route and the address as
 * `addressKey` reads it: so several instances behind a load balancer allow together what one
 * allows (counts in process memory let three instances take three times as many). Past
 * the limit the call is answered 429 RATE_LIMITED with Retry-After, before its body is read.
 * Windows no longer than a minute, the shortest login window, so the login limit's clearing of
 * spent counters never clears one of these early.
 */
export const addressLimitPlugin = fp(async function addressLimit(app: FastifyInstance, { db }: { db: DB }) {
  app.addHook('onRequest', async (request, reply) => {
    const limit = request.routeOptions.config.addressLimit;
    if (!limit) return;
    const now = Date.now();
    const row = await countTry(db, `route:${request.routeOptions.url}:${addressKey(request.ip)}`, limit.windowMs, now);
    if (row.count <= limit.max) return;
    const seconds = Math.min(limit.windowMs / 1000, Math.max(1, Math.ceil((Number(row.window_start) + limit.windowMs - now) / 1000)));
    reply.header('retry-after', String(seconds));
    throw new BusinessError('RATE_LIMITED');
  });
});
