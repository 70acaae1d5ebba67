import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { BusinessError } from './errors.js';

/**
 * The deepest nesting of arrays and objects a JSON body may have. QE's own bodies stay under
 * 12 (a questionnaire's definition: sections, questions, options); deeper ones come from no
 * client of QE, and every step that walks a body (validation, trimming) stays cheap.
 */
export const MAX_JSON_DEPTH = 32;

/** Does JSON text nest arrays and objects deeper than `limit`? Brackets inside strings do not count. */
export function jsonNestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/**
 * JSON bodies parsed from text without a `\u0000` escape: JSON can write a NUL character in a
 * string or key only so (a raw one is a syntax error), so these hold none and the NUL check
 * (trim.ts) need not walk them.
 */
export const nulFreeBodies = new WeakSet<object>();

/** A parse error of the multipart reader (busboy) has no HTTP status: it is the caller's malformed body. */
function asCallerError(error: unknown): unknown {
  if (error instanceof Error && !(error as { statusCode?: number }).statusCode) return new BusinessError('INVALID_REQUEST');
  return error;
}

/**
 * How request bodies are read: JSON with a nesting limit (checked on the text before parsing,
 * so no deep body reaches a recursive walk), and multipart bodies whose malformation is told
 * as the caller's (400), not as a server error.
 */
export const bodyPlugin = fp(async function body(app: FastifyInstance) {
  // Fastify's own JSON parser (secure-json-parse: __proto__ and constructor.prototype keys refused), after the depth check
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, text, done) => {
    if (jsonNestsDeeperThan(text as string, MAX_JSON_DEPTH)) return done(new BusinessError('INVALID_REQUEST'), undefined);
    parseJson(request, text as string, (error, body) => {
      if (!error && body && typeof body === 'object' && !(text as string).includes('\\u0000')) nulFreeBodies.add(body as object);
      done(error, body);
    });
  });

  // the uploads read their file with request.file() and part.toBuffer(): both parse the caller's body
  app.addHook('preHandler', (request: FastifyRequest, _reply, done) => {
    if (!request.isMultipart?.()) return done();
    const file = request.file.bind(request);
    request.file = async (...args: Parameters<typeof file>) => {
      const part = await file(...args).catch((error: unknown) => {
        throw asCallerError(error);
      });
      if (part) {
        const toBuffer = part.toBuffer.bind(part);
        part.toBuffer = () =>
          toBuffer().catch((error: unknown) => {
            throw asCallerError(error);
          });
      }
      return part;
    };
    done();
  });
});
