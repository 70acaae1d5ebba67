import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import { API_PATH } from './envelope.js';

/** QE's helmet settings, for the web app's pages and files. */
const OPTIONS: HelmetOptions = {
  // the Google binding popup talks back to its opener
  crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
  contentSecurityPolicy: {
    directives: {
      // schools often serve QE over plain http on their own network
      'upgrade-insecure-requests': null,
      // MUI (emotion) writes style tags at run time
      'style-src': ["'self'", "'unsafe-inline'"],
      'img-src': ["'self'", 'data:', 'blob:', 'https:'],
      'script-src': ["'self'"],
    },
  },
};

/**
 * The headers helmet sets with these settings, worked out once. @fastify/helmet builds helmet
 * anew on every request (parsing the policy each time): a tenth of a light call's time.
 */
export function securityHeaders(options: HelmetOptions = OPTIONS): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string) => (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => delete headers[name.toLowerCase()],
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/**
 * What an answer of the API carries instead (OWASP's REST Security Cheat Sheet): JSON and files
 * are never a document to run, frame or sniff, so the policy allows nothing — stricter than the
 * web app's, and a light call's headers a third as long (each header is checked as it is written).
 */
export const API_HEADERS: Record<string, string> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
};

export const securityHeadersPlugin = fp(async function securityHeadersPlugin(app: FastifyInstance) {
  const headers = securityHeaders();
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(API_PATH.test(request.url) ? API_HEADERS : headers);
    done();
  });
});
