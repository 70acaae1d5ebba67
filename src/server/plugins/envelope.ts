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
