import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ERRORS, errorText, type ErrorKey, type Lang } from '../../shared/errors.js';
import { fieldMessage, ruleOf } from '../../shared/field-messages.js';

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

export function requestLang(request: FastifyRequest): Lang {
  const header = String(request.headers['accept-language'] ?? '');
  return /^en/i.test(header) ? 'en' : 'zh-hk';
}

function sendBusiness(reply: FastifyReply, lang: Lang, key: ErrorKey, params?: Record<string, string | number>, data: unknown = null) {
  const def = ERRORS[key];
  return reply.status(def.http).send({ code: def.code, msg: errorText(key, lang, params), data });
}

/** ajv's `instancePath` (/a/b) or missingProperty as a dotted field name. */
function fieldName(v: { instancePath?: string; params?: Record<string, unknown> }): string {
  const path = (v.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  const missing = v.params?.missingProperty as string | undefined;
  const extra = v.params?.additionalProperty as string | undefined;
  return [path, missing ?? extra].filter(Boolean).join('.') || '_';
}

export const errorsPlugin = fp(async function errors(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | BusinessError | FieldError, request, reply) => {
    const lang = requestLang(request);
    if (error instanceof BusinessError) return sendBusiness(reply, lang, error.key, error.params, error.data);
    if (error instanceof FieldError) {
      const data: Record<string, string> = {};
      for (const [field, { rule, params }] of Object.entries(error.fields)) data[field] = fieldMessage(rule, lang, params);
      return reply.status(422).send({ code: 422, msg: Object.values(data).join('; '), data });
    }
    const fe = error as FastifyError;
    if (fe.validation) {
      const data: Record<string, string> = {};
      for (const v of fe.validation) {
        const field = fieldName(v);
        data[field] ??= fieldMessage(ruleOf(v.keyword, (v as { parentSchema?: unknown }).parentSchema), lang, v.params as Record<string, string | number>);
      }
      return reply.status(422).send({ code: 422, msg: Object.values(data).join('; '), data });
    }
    if (fe.statusCode === 429) {
      return sendBusiness(reply, lang, 'TRY_LATER');
    }
    if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
      // malformed JSON, body too large, unsupported media type and the like: the caller's fault, said plainly
      request.log.info({ err: fe }, 'request refused');
      return sendBusiness(reply, lang, 'INVALID_REQUEST');
    }
    request.log.error({ err: error }, 'unexpected error');
    return sendBusiness(reply, lang, 'SYSTEM_ERROR');
  });

  app.setNotFoundHandler((request, reply) => sendBusiness(reply, requestLang(request), 'RECORD_NOT_FOUND'));
});
