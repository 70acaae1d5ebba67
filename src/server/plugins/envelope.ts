import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Envelope } from '../../shared/envelope.js';

/** The success envelope. */
export function ok<T>(data: T, code: 200 | 201 = 200): Envelope<T> {
  return { code, msg: 'success', data };
}

/** JSON schema of an envelope around `data`, for route response schemas and the OpenAPI page. */
export function envelopeSchema(data: object = {}) {
  return {
    type: 'object',
    properties: { code: { type: 'integer' }, msg: { type: 'string' }, data },
  } as const;
}

// the path of an origin-form URL (/v1/…) or of an absolute-form one (http://host/v1/…)
export const API_PATH = /^(?:[a-z][a-z\d+.-]*:\/\/[^/]*)?\/(?:v1|ed)\//i;

/**
 * Every answer of the API, errors and downloads included, is `Cache-Control: no-store`: it
 * holds a pupil's or a school's data for one logged-in caller, which neither a shared
 * computer's browser cache nor a proxy may keep.
 */
export const envelopePlugin = fp(async function envelope(app: FastifyInstance) {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (API_PATH.test(request.url)) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
});
