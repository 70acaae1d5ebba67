import type { FastifyInstance } from 'fastify';
import { seededRandom } from '../../support/random.js';

/**
 * What the attack suites share: the operations of the OpenAPI document the server publishes,
 * a seeded random source, and the check that an answer is QE's envelope.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
  nullable?: boolean;
  default?: unknown;
  [key: string]: unknown;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: JsonSchema;
}

export interface Operation {
  method: HttpMethod;
  /** the document's path, parameters in braces: /v1/students/{id} */
  path: string;
  /** `METHOD path`, the key of the access matrix */
  key: string;
  parameters: Parameter[];
  /** the JSON body's schema, when the operation takes one */
  body: JsonSchema | null;
}

/** Every operation of the OpenAPI document under /v1 and /ed (the API; the document also lists the client's pages). */
export async function apiOperations(app: FastifyInstance): Promise<Operation[]> {
  const res = await app.inject({ method: 'GET', url: '/qe/api-docs/json' });
  if (res.statusCode !== 200) throw new Error(`no OpenAPI document: ${res.statusCode}`);
  const doc = res.json() as { paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema: JsonSchema }> } }>> };
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    if (!path.startsWith('/v1/') && !path.startsWith('/ed/')) continue;
    for (const [m, op] of Object.entries(methods)) {
      const method = m.toUpperCase() as HttpMethod;
      operations.push({
        method,
        path,
        key: `${method} ${path}`,
        parameters: (op.parameters ?? []).filter((p) => p.in === 'path' || p.in === 'query'),
        body: op.requestBody?.content?.['application/json']?.schema ?? null,
      });
    }
  }
  return operations;
}

/** The document's path with its parameters filled in (each value percent-encoded unless `raw`). */
export function fillPath(path: string, values: Record<string, string | number>, raw = false): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (!(name in values)) throw new Error(`no value for {${name}} in ${path}`);
    const v = String(values[name]);
    return raw ? v : encodeURIComponent(v);
  });
}

/** The seeded generator of the suites (tests/support/random.ts): a failing run is replayed from its seed. */
export const prng = seededRandom;
export type Random = ReturnType<typeof prng>;

/** Is this body QE's envelope: JSON with a numeric code, a string msg and a data key? */
export function isEnvelope(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return false;
    const e = parsed as Record<string, unknown>;
    return typeof e.code === 'number' && Number.isInteger(e.code) && typeof e.msg === 'string' && 'data' in e;
  } catch {
    return false;
  }
}
