import type { FastifyInstance } from 'fastify';
import type { DB } from '../db/connect.js';
import { ok } from '../plugins/envelope.js';
import { previewRollover, runRollover, type RolloverRequest } from './rollover.js';

const tags = ['school-years'];

const preview = {
  type: 'object',
  additionalProperties: false,
  properties: {
    graduateGradeId: { type: 'integer', minimum: 1, maximum: 2147483647 },
    mapping: {
      type: 'array',
      maxItems: 500,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['fromClassId', 'toClassId'],
        properties: { fromClassId: { type: 'integer', minimum: 1, maximum: 2147483647 }, toClassId: { type: 'integer', minimum: 1, maximum: 2147483647 } },
      },
    },
    createMissingClasses: { type: 'boolean' },
    switchDate: { type: ['string', 'null'], format: 'date' },
  },
} as const;

/** The run names its switch date (null: at once), so a call without a body changes nothing. */
const run = { ...preview, required: ['switchDate'] } as const;

/** The "new school year" action on the school-year page (src/server/school/rollover.ts). */
export async function rolloverRoutes(app: FastifyInstance, { db }: { db: DB }) {
  app.post<{ Body: RolloverRequest }>('/v1/school-years/rollover/preview', {
    config: { permission: 'school-year.management' },
    schema: { tags, summary: 'New school year: what the roll-over would do (counts per class, graduates, missing classes); writes nothing', body: preview },
  }, async (request) => ok(await previewRollover(db, request.body ?? {})));

  app.post<{ Body: RolloverRequest }>('/v1/school-years/rollover', {
    config: { permission: 'school-year.management' },
    schema: { tags, summary: 'New school year: create next year, promote the students, mark the graduates; all or nothing', body: run },
  }, async (request) => ok(await runRollover(db, request.body ?? {}), 201));
}
