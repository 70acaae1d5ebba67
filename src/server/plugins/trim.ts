import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { trimBody, trimStrings } from '../../shared/validation.js';
import { BusinessError } from './errors.js';
import { nulFreeBodies } from './body.js';

/** Does any string in a JSON-like value (keys included) hold a NUL character? Walked with a list, like trimStrings. */
function holdsNul(value: unknown): boolean {
  const pending = [value];
  while (pending.length) {
    const v = pending.pop();
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return true;
    } else if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) pending.push(v[i]);
    } else if (v && typeof v === 'object' && !Buffer.isBuffer(v)) {
      for (const k of Object.keys(v)) {
        if (k.includes('\u0000')) return true;
        pending.push((v as Record<string, unknown>)[k]);
      }
    }
  }
  return false;
}

/**
 * Trims every string in bodies and query strings before validation (docs/conventions.md#headers-and-trimming), passwords
 * included, as the client does — a reply's answers at their end only (trimBody). Text holding a NUL character is refused (400): no form of QE
 * sends one, and PostgreSQL cannot store it where SQLite would, so both databases answer alike.
 */
export const trimPlugin = fp(async function trim(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    const body = request.body;
    if (holdsNul(request.query) || (typeof body === 'string' ? body.includes('\u0000') : !(body && typeof body === 'object' && nulFreeBodies.has(body)) && holdsNul(body))) {
      throw new BusinessError('INVALID_REQUEST');
    }
    // the parsed query's prototype is a bare object of fast-querystring's (neither Object.prototype
    // nor null), which trimStrings leaves alone as a class instance: copy it into a plain object first
    if (request.query && typeof request.query === 'object') request.query = trimStrings({ ...(request.query as object) }) as typeof request.query;
    if (request.body && typeof request.body === 'object' && !Buffer.isBuffer(request.body)) {
      // a reply's answers keep their leading spaces (trimBody): the route's body schema says where they are
      request.body = trimBody(request.body, request.routeOptions.schema?.body);
    }
  });
});
