import type { FastifyInstance } from 'fastify';
import { envelopeSchema, ok } from '../plugins/envelope.js';
import { idListSchema, idParams, pagingProperties } from '../../shared/calls/parts.js';
import { BusinessError } from '../plugins/errors.js';
import { currentUser } from '../plugins/guard.js';
import type { MasterDeps } from './crud.js';
import { generatedMasterRoutes } from './generated/routes.js';

/** Master data: the generated CRUD routes of every entity and the class lookup. */
export async function masterRoutes(app: FastifyInstance, deps: MasterDeps & { extraRoutes?: (app: FastifyInstance, deps: MasterDeps) => Promise<void> }) {
  await generatedMasterRoutes(app, deps);
  await deps.extraRoutes?.(app, deps);

  // every class with its grade: what the student screens pick from (their list's class column
  // and filter, the class of a student's form); nothing a student's own screens need
  app.get('/v1/classes', {
    config: { permission: ['student.view', 'student.add', 'student.edit'] },
    schema: {
      tags: ['grade-classes'],
      summary: 'Every class with its grade, in grade and class order: {list, total} (for whoever sees or edits students)',
      querystring: { type: 'object', additionalProperties: false, properties: { id: idListSchema, ...pagingProperties(1000), sort: { type: 'string', maxLength: 50 }, order: { type: 'string', maxLength: 10 }, q: { type: 'string', maxLength: 50 } } },
      response: { 200: envelopeSchema() },
    },
  }, async (request) => {
    const { id, q } = request.query as { id?: number[]; q?: string };
    let query = deps.db
      .selectFrom('classes as c')
      .innerJoin('grades as g', 'g.id', 'c.grade_id')
      .select(['c.id', 'c.code', 'c.name_hk as nameHk', 'c.name_en as nameEn', 'c.grade_id as gradeId', 'g.name_hk as gradeNameHk', 'g.name_en as gradeNameEn']);
    if (id?.length) query = query.where('c.id', 'in', id);
    if (q) query = query.where((eb) => eb.or([eb('c.code', 'like', `%${q}%`), eb('c.name_hk', 'like', `%${q}%`), eb('c.name_en', 'like', `%${q}%`)]));
    const list = await query.orderBy('g.seq').orderBy('c.seq').orderBy('c.code').execute();
    return ok({ list, total: list.length });
  });

  // an import's job (master/import-jobs.ts): only the one who imported sees it
  app.get<{ Params: { id: number } }>('/v1/import-jobs/:id', {
    config: { permission: '*' },
    schema: { tags: ['imports'], summary: "One of the caller's import jobs: status (running, done, failed, interrupted), rows, passwords hashed so far, counts, errors", params: idParams, response: { 200: envelopeSchema() } },
  }, async (request) => {
    const job = await deps.jobs.view(request.params.id, currentUser(request).id);
    if (!job) throw new BusinessError('RECORD_NOT_FOUND');
    return ok(job);
  });
  app.get<{ Querystring: { resource: string } }>('/v1/import-jobs/latest', {
    config: { permission: '*' },
    schema: {
      tags: ['imports'],
      summary: "The caller's latest import job into a list (null: none), for the import screen opened again",
      querystring: { type: 'object', additionalProperties: false, required: ['resource'], properties: { resource: { type: 'string', pattern: '^[a-z][a-z0-9-]{0,39}$' } } },
      response: { 200: envelopeSchema() },
    },
  }, async (request) => ok(await deps.jobs.latest(request.query.resource, currentUser(request).id)));
}
