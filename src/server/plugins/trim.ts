import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { trimStrings } from '../../shared/validation.js';

/** Trims every string in bodies and query strings before validation (spec §5), passwords included, as the client does. */
export const trimPlugin = fp(async function trim(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    // the parsed query's prototype is a bare object of fast-querystring's (neither Object.prototype
    // nor null), which trimStrings leaves alone as a class instance: copy it into a plain object first
    if (request.query && typeof request.query === 'object') request.query = trimStrings({ ...(request.query as object) }) as typeof request.query;
    if (request.body && typeof request.body === 'object' && !Buffer.isBuffer(request.body)) {
      request.body = trimStrings(request.body);
    }
  });
});
