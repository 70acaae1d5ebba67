import type { Ajv } from 'ajv';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

import { INTEGER_MAX } from '../../shared/calls/parts.js';

/**
 * The range of every integer a route accepts: PostgreSQL's `integer` (int4), the type of QE's
 * ids and counts on both databases. A larger id would overflow there (a server error instead
 * of "not found").
 */
export const INTEGER_MIN = -2_147_483_648;

type Schema = Record<string, unknown>;

/**
 * `x-qe-finite`: the number is not ±Infinity. ajv's coercion turns the query or path text
 * "Infinity" or "1e400" into Infinity for an integer, and then skips its number keywords
 * (minimum, maximum, format) for a value that is not finite, so a bound alone lets it through.
 * An ajv plugin for Fastify's validator (app.ts).
 */
export function finiteNumbers(ajv: Ajv): Ajv {
  return ajv.addKeyword({ keyword: 'x-qe-finite', schemaType: 'boolean', validate: (on: boolean, data: unknown) => !on || typeof data !== 'number' || Number.isFinite(data) });
}

const SCHEMA_MAPS = ['properties', 'patternProperties', 'definitions', '$defs'];
const SCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const SUBSCHEMAS = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'];

/** A copy of a JSON schema in which every integer has a minimum and a maximum within int4, and every number must be finite. */
export function withIntegerBounds(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withIntegerBounds);
  if (!schema || typeof schema !== 'object') return schema;
  const s = schema as Schema;
  const out: Schema = { ...s };
  for (const k of SCHEMA_MAPS) {
    if (s[k] && typeof s[k] === 'object') out[k] = Object.fromEntries(Object.entries(s[k] as Schema).map(([name, sub]) => [name, withIntegerBounds(sub)]));
  }
  for (const k of SCHEMA_LISTS) if (Array.isArray(s[k])) out[k] = (s[k] as unknown[]).map(withIntegerBounds);
  for (const k of SUBSCHEMAS) if (s[k] && typeof s[k] === 'object') out[k] = withIntegerBounds(s[k]);
  const types = ([] as unknown[]).concat(s.type ?? []);
  if (types.includes('integer') || types.includes('number')) out['x-qe-finite'] = true;
  if (types.includes('integer')) {
    if (typeof s.maximum !== 'number' && typeof s.exclusiveMaximum !== 'number') out.maximum = INTEGER_MAX;
    if (typeof s.minimum !== 'number' && typeof s.exclusiveMinimum !== 'number') out.minimum = INTEGER_MIN;
  } else if (types.includes('number')) {
    if (typeof s.maximum !== 'number' && typeof s.exclusiveMaximum !== 'number') out.maximum = Number.MAX_VALUE;
    if (typeof s.minimum !== 'number' && typeof s.exclusiveMinimum !== 'number') out.minimum = -Number.MAX_VALUE;
  }
  return out;
}

/**
 * Bounds the integers of every route's request schema (path, query, body, headers) as it is
 * added, so that no route — generated, hand-written or added later — lets an id past what the
 * databases hold. Routes state tighter bounds themselves where they mean them (page sizes,
 * sequence numbers); the database's data-exception net (plugins/errors.ts) stays behind this.
 */
export const boundsPlugin = fp(async function bounds(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    const schema = route.schema as Schema | undefined;
    if (!schema) return;
    const bounded: Schema = { ...schema };
    for (const part of ['params', 'querystring', 'query', 'body', 'headers']) if (schema[part]) bounded[part] = withIntegerBounds(schema[part]);
    route.schema = bounded;
  });
});
