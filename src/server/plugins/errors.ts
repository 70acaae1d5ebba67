import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ERRORS, errorText, type ErrorKey, type Lang } from '../../shared/errors.js';
import { fieldMessage, ruleOf } from '../../shared/field-messages.js';
import { isDataException, isDatabaseUnavailable, isDiskFull } from '../db/errors.js';
import { missingNamesOf } from '../school/languages.js';

/** A business error: answered as the envelope with its catalogue code and text in the caller's language. */
export class BusinessError extends Error {
  constructor(
    readonly key: ErrorKey,
    readonly params: Record<string, string | number> = {},
    readonly data: unknown = null,
  ) {
    super(key);
  }
}

/** Field errors of a form: HTTP 422 with `{field: message}`. */
export class FieldError extends Error {
  constructor(readonly fields: Record<string, { rule: string; params?: Record<string, string | number> }>) {
    super('field errors');
  }
}

/**
 * The longest URL (path and query) QE reads: far above anything its client sends (a list's
 * filters and ids), far below Node's 16 KiB limit on the whole request head, so a longer one
 * is told 414 rather than 431.
 */
export const MAX_URL_LENGTH = 8 * 1024;

function langOf(acceptLanguage: unknown): Lang {
  return /^\s*en/i.test(String(acceptLanguage ?? '')) ? 'en' : 'zh-hk';
}

export function requestLang(request: FastifyRequest): Lang {
  return langOf(request.headers['accept-language']);
}

/** The envelope of a catalogue error in one language. */
function envelopeOf(key: ErrorKey, lang: Lang, params?: Record<string, string | number>, data: unknown = null) {
  return { code: ERRORS[key].code, msg: errorText(key, lang, params), data };
}

function sendBusiness(reply: FastifyReply, lang: Lang, key: ErrorKey, params?: Record<string, string | number>, data: unknown = null) {
  // an error answer is never kept by a browser or a proxy, whatever the path
  return reply.status(ERRORS[key].http).header('cache-control', 'no-store').send(envelopeOf(key, lang, params, data));
}

/** ajv's `instancePath` (/a/b) or missingProperty as a dotted field name. */
function fieldName(v: { instancePath?: string; params?: Record<string, unknown> }): string {
  const path = (v.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  const missing = v.params?.missingProperty as string | undefined;
  const extra = v.params?.additionalProperty as string | undefined;
  return [path, missing ?? extra].filter(Boolean).join('.') || '_';
}

/** What a request refused by Fastify or a plugin with an HTTP status of the caller's fault is told. */
function refusalOf(statusCode: number): ErrorKey {
  switch (statusCode) {
    case 408:
      return 'REQUEST_TIMEOUT';
    case 413:
      return 'REQUEST_TOO_LARGE';
    case 414:
      return 'URL_TOO_LONG';
    case 415:
      return 'UNSUPPORTED_MEDIA_TYPE';
    case 429:
      return 'RATE_LIMITED';
    case 431:
      return 'HEADERS_TOO_LARGE';
    default:
      return 'INVALID_REQUEST';
  }
}

export const errorsPlugin = fp(async function errors(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | BusinessError | FieldError, request, reply) => {
    const lang = requestLang(request);
    if (error instanceof BusinessError) return sendBusiness(reply, lang, error.key, error.params, error.data);
    if (error instanceof FieldError) {
      const data: Record<string, string> = {};
      for (const [field, { rule, params }] of Object.entries(error.fields)) data[field] = fieldMessage(rule, lang, params);
      return reply.status(422).header('cache-control', 'no-store').send({ code: 422, msg: Object.values(data).join('; '), data });
    }
    const fe = error as FastifyError;
    if (fe.validation) {
      const data: Record<string, string> = {};
      for (const v of fe.validation) {
        const field = fieldName(v);
        data[field] ??= fieldMessage(ruleOf(v.keyword, (v as { parentSchema?: unknown }).parentSchema), lang, v.params as Record<string, string | number>);
      }
      for (const name of missingNamesOf.get(request) ?? []) data[name] ??= fieldMessage('required', lang);
      return reply.status(422).header('cache-control', 'no-store').send({ code: 422, msg: Object.values(data).join('; '), data });
    }
    if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
      // malformed JSON, body too large, unsupported media type, too many requests and the like: the caller's fault, said plainly
      request.log.info({ err: fe }, 'request refused');
      return sendBusiness(reply, lang, refusalOf(fe.statusCode));
    }
    if (isDataException(error)) {
      // a value the route's schema let through but the database cannot hold (route schemas bound ids and numbers first)
      request.log.warn({ err: error }, 'value refused by the database');
      return sendBusiness(reply, lang, 'INVALID_REQUEST');
    }
    if (isDiskFull(error)) {
      // the data folder's disk (or the database's) is full: refused, nothing half-written kept; works again once there is room
      request.log.error({ err: error }, 'disk full');
      return sendBusiness(reply, lang, 'DISK_FULL');
    }
    if (isDatabaseUnavailable(error)) {
      // the database went away (restarted, connection cut) or is locked for a moment: try again
      request.log.warn({ err: error }, 'database unavailable');
      return sendBusiness(reply, lang, 'DATABASE_UNAVAILABLE');
    }
    request.log.error({ err: error }, 'unexpected error');
    return sendBusiness(reply, lang, 'SYSTEM_ERROR');
  });

  app.setNotFoundHandler((request, reply) => sendBusiness(reply, requestLang(request), 'RECORD_NOT_FOUND'));

  // first of all hooks, before the guard reads a token: a URL longer than QE ever makes
  app.addHook('onRequest', (request, _reply, done) => {
    done(request.url.length > MAX_URL_LENGTH ? new BusinessError('URL_TOO_LONG') : undefined);
  });

  // Node answers an Expect other than 100-continue itself (a bare 417) unless the server listens
  app.server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    const body = JSON.stringify(envelopeOf('EXPECTATION_FAILED', langOf(req.headers['accept-language'])));
    res.writeHead(ERRORS.EXPECTATION_FAILED.http, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});

/**
 * Fastify's `frameworkErrors`: a URL it cannot decode (bad percent-encoding) or a route
 * parameter over `maxParamLength`, found while routing, before any hook runs.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const key: ErrorKey = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'URL_TOO_LONG' : 'INVALID_REQUEST';
  request.log.info({ err: error }, 'request refused while routing');
  return sendBusiness(reply, requestLang(request), key);
}

/** The request line of a head Node refused: a method, a space, and no line end within QE's URL limit. */
function urlTooLong(head: string): boolean {
  if (!/^[A-Z]+ /.test(head)) return false;
  const end = head.indexOf('\r\n');
  return end < 0 ? head.length > MAX_URL_LENGTH : end > MAX_URL_LENGTH;
}

/**
 * Fastify's `clientErrorHandler`: what Node's HTTP parser refuses before there is a request
 * (headers over 16 KiB, a broken request line, a bad header, a timeout). Node would write a
 * bare status line; QE writes the envelope, in the language the refused head asked for when it
 * can be read there.
 */
export function clientErrorHandler(this: FastifyInstance, error: ConnectionError, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // Node gives the bytes it refused as a Buffer (Fastify's type says otherwise)
  const raw: unknown = error.rawPacket;
  const head = Buffer.isBuffer(raw) ? raw.toString('latin1') : '';
  const lang = /\r\naccept-language:[ \t]*en/i.test(head) ? 'en' : 'zh-hk';
  let key: ErrorKey = 'INVALID_REQUEST';
  if (error.code === 'HPE_HEADER_OVERFLOW') key = urlTooLong(head) ? 'URL_TOO_LONG' : 'HEADERS_TOO_LARGE';
  else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') key = 'REQUEST_TIMEOUT';
  // once per connection: what the client still sends after the refusal comes here again
  if (answered.has(socket)) return;
  answered.add(socket);
  this.log.debug({ err: error }, 'client error');
  if (!socket.writable) {
    socket.destroy(error);
    return;
  }
  const status = ERRORS[key].http;
  const body = JSON.stringify(envelopeOf(key, lang));
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`);
  // The rest of what the client sends is read and dropped, so that the close is a clean one:
  // closing with unread bytes makes the kernel send a reset, and on Node 24 the client then loses
  // the answer. A client that goes on sending is cut off after a few seconds.
  socket.resume();
  setTimeout(() => socket.destroy(), 5_000).unref();
}

const answered = new WeakSet<Socket>();
