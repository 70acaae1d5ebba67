import type { FastifyInstance } from 'fastify';
import type { DB } from '../db/connect.js';
import { ok } from '../plugins/envelope.js';
import { previewRollover, runRollover } from './rollover.js';
import { rolloverPreviewBody, rolloverRunBody, SCHOOL_ANSWERS, type RolloverRequest, type RolloverRunRequest } from '../../shared/calls/school.js';

const tags = ['school-years'];

/** The "new school year" action on the school-year page (src/server/school/rollover.ts). */
export async function rolloverRoutes(app: FastifyInstance, { db }: { db: DB }) {
  app.post<{ Body: RolloverRequest }>('/v1/school-years/rollover/preview', {
    config: { permission: 'school-year.management' },
    schema: { tags, summary: 'New school year: what the roll-over would do (counts per class, graduates, missing classes); writes nothing', body: rolloverPreviewBody, response: SCHOOL_ANSWERS.rollover },
  }, async (request) => ok(await previewRollover(db, request.body ?? {})));

  app.post<{ Body: RolloverRunRequest }>('/v1/school-years/rollover', {
    config: { permission: 'school-year.management' },
    schema: { tags, summary: 'New school year: create next year, promote the students, mark the graduates; all or nothing', body: rolloverRunBody, response: SCHOOL_ANSWERS.rollover },
  }, async (request) => ok(await runRollover(db, request.body ?? {}), 201));
}
