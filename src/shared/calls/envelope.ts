import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
// the plain type modules, not definition.ts and answers.ts: those load the question-type rules, which
// make the statistics summaries typed by src/shared/calls/statistics.ts (an import cycle otherwise)
import type { Definition } from '../questionnaire/definition-types.js';
import type { Answers } from '../questionnaire/answer-types.js';

/**
 * What every call answers, as JSON Schema (docs/conventions.md#call-shapes): the envelope
 * around `data`. A route's response schema per status is made of these, so the OpenAPI page
 * shows what each call answers, Fastify writes the answer by it, and the TypeScript type of the
 * answer is read from the same schema (`Answer<typeof schema>`), on the server and in the client.
 */
export function envelopeOf<const D extends JSONSchema>(data: D) {
  return {
    type: 'object',
    required: ['code', 'msg', 'data'],
    properties: { code: { type: 'integer' }, msg: { type: 'string' }, data },
  } as const;
}

/**
 * A refused call: its business code and message (docs/errors.md), and in `data` what the code
 * names — `{field: message}` for 422, null otherwise.
 */
export const refusedSchema = {
  type: 'object',
  properties: {
    code: { type: 'integer', description: 'the business code (docs/errors.md)' },
    msg: { type: 'string', description: "the message, in the caller's language" },
    data: { description: '{field: message} for 422, {retryAfter: seconds} for a draft saved too often (429), otherwise null' },
  },
} as const;

/** The answers a call may give besides its own: every refusal, per class of status. */
export const REFUSALS = { '4xx': refusedSchema, '5xx': refusedSchema } as const;

/**
 * Values the schema leaves open whose type QE knows better: a questionnaire's definition and a
 * reply's answers have rules of their own (src/shared/questionnaire/), checked by code that says
 * which question breaks which rule, and are only marked in a schema (`x-qe-type`).
 */
export const definitionSchema = { type: 'object', 'x-qe-type': 'definition', additionalProperties: true } as const;
export const answersSchema = { type: 'object', 'x-qe-type': 'answers', additionalProperties: true } as const;

type Known = [{ pattern: { 'x-qe-type': 'definition' }; output: Definition }, { pattern: { 'x-qe-type': 'answers' }; output: Answers }];

/** The TypeScript type a schema describes, with the definitions and answers it holds typed. */
export type Shape<S extends JSONSchema> = FromSchema<S, { deserialize: Known }>;
