import type { FastifyInstance } from 'fastify';
import type { Expression, SqlBool } from 'kysely';
import type { Config } from '../config.js';
import type { DB } from '../db/connect.js';
import { envelopeSchema, ok } from '../plugins/envelope.js';
import { currentUser } from '../plugins/guard.js';
import { storeUploadedImage } from '../storage/images.js';
import { QUESTIONNAIRE_STATUSES, QUESTIONNAIRE_TYPES, TARGET_KINDS, type Target } from '../../shared/questionnaire/types.js';
import { resolveAudience } from './audience.js';
import { sendNotice } from './notice.js';
import { contains, QuestionnaireService, type QuestionnaireListQuery, type QuestionnaireInput } from './service.js';

const tags = ['questionnaires'];
const idParams = { type: 'object', required: ['id'], additionalProperties: false, properties: { id: { type: 'integer', minimum: 1 } } } as const;
const dateTime = { type: ['string', 'null'], format: 'date-time' } as const;
const targets = {
  type: 'array',
  maxItems: 50,
  items: {
    type: 'object',
    required: ['kind'],
    additionalProperties: false,
    properties: { kind: { type: 'string', enum: [...TARGET_KINDS] }, ids: { type: 'array', items: { type: 'integer', minimum: 1 }, maxItems: 5000 } },
  },
} as const;
const fields = {
  title: { type: 'string', minLength: 1, maxLength: 200 },
  type: { type: 'string', enum: [...QUESTIONNAIRE_TYPES] },
  openDate: dateTime,
  endDate: dateTime,
  assistantIds: { type: 'array', items: { type: 'integer', minimum: 1 }, maxItems: 100 },
  targets,
  // checked by definitionErrors, which names every problem with its place
  definition: { type: 'object' },
  schoolYearId: { type: ['integer', 'null'], minimum: 1 },
} as const;

/** ISO date-times as stored: UTC with milliseconds, so they compare as text. */
function normaliseDates(body: QuestionnaireInput) {
  for (const key of ['openDate', 'endDate'] as const) if (body[key]) body[key] = new Date(body[key]!).toISOString();
  return body;
}


/** Questionnaire design: the staff side of questionnaires (src/shared/questionnaire/API.md). */
export async function questionnaireRoutes(app: FastifyInstance, { db, config }: { db: DB; config: Config }) {
  const service = new QuestionnaireService(db);

  app.get<{ Querystring: QuestionnaireListQuery }>('/v1/questionnaires', {
    config: { permission: 'form.view' },
    schema: {
      tags,
      summary: 'Questionnaires the caller may see: {list, total}',
      querystring: {
        type: 'object',
        additionalProperties: false,
        properties: {
          page: { type: 'integer', minimum: 1 },
          size: { type: 'integer', minimum: 1, maximum: 200 },
          sort: { type: 'string', enum: ['id', 'title', 'status', 'openDate', 'endDate', 'createDate'] },
          order: { type: 'string', enum: ['asc', 'desc', 'ASC', 'DESC'] },
          q: { type: 'string', maxLength: 100 },
          status: { type: 'string', enum: [...QUESTIONNAIRE_STATUSES] },
          schoolYearId: { type: 'integer', minimum: 1 },
          scope: { type: 'string', enum: ['mine', 'assisting', 'all'] },
        },
      },
      response: { 200: envelopeSchema() },
    },
  }, async (request) => ok(await service.list(currentUser(request), request.query)));

  app.get<{ Params: { id: number } }>('/v1/questionnaires/:id', {
    config: { permission: 'form.view' },
    schema: { tags, summary: 'One questionnaire with its questions', params: idParams, response: { 200: envelopeSchema() } },
  }, async (request) => ok(await service.get(currentUser(request), request.params.id)));

  app.post<{ Body: QuestionnaireInput }>('/v1/questionnaires', {
    config: { permission: 'form.add' },
    schema: { tags, summary: 'A new questionnaire in PREPARING (710 when the school requires creators to bind a Google account and the caller has none)', body: { type: 'object', required: ['title'], additionalProperties: false, properties: fields }, response: { 200: envelopeSchema() } },
  }, async (request) => ok(await service.create(currentUser(request), normaliseDates(request.body)), 201));

  app.put<{ Params: { id: number }; Body: QuestionnaireInput }>('/v1/questionnaires/:id', {
    config: { permission: 'form.edit' },
    schema: { tags, summary: 'Changes what the status allows (709 otherwise)', params: idParams, body: { type: 'object', additionalProperties: false, properties: fields }, response: { 200: envelopeSchema() } },
  }, async (request) => ok(await service.update(currentUser(request), request.params.id, normaliseDates(request.body))));

  app.delete<{ Params: { id: number } }>('/v1/questionnaires/:id', {
    config: { permission: 'form.delete' },
    schema: { tags, summary: 'Deletes a questionnaire that has not opened', params: idParams },
  }, async (request) => {
    await service.remove(currentUser(request), request.params.id);
    return ok(null);
  });

  const transition = (path: string, summary: string, run: (id: number, request: Parameters<typeof currentUser>[0]) => Promise<unknown>) =>
    app.post<{ Params: { id: number } }>(`/v1/questionnaires/:id/${path}`, {
      config: { permission: 'form.edit' },
      schema: { tags, summary, params: idParams, response: { 200: envelopeSchema() } },
    }, async (request) => ok(await run(request.params.id, request)));

  transition('ready', 'Design complete: PREPARING → NOT_OPEN (PROCESSING at once when the open date has come)', (id, r) => service.ready(currentUser(r), id));
  transition('cancel-ready', 'Cancel ready: NOT_OPEN → PREPARING', (id, r) => service.cancelReady(currentUser(r), id));
  transition('close', 'Close early: PROCESSING → FINISHED', (id, r) => service.close(currentUser(r), id));
  transition('notice', 'Mails every respondent who has not submitted: {sent, failed, noAddress}', async (id, r) => {
    await service.editable(currentUser(r), id);
    return sendNotice(db, config, id);
  });

  app.post<{ Params: { id: number } }>('/v1/questionnaires/:id/copy', {
    config: { permission: 'form.add' },
    schema: { tags, summary: 'A copy in PREPARING with the caller in charge', params: idParams, response: { 200: envelopeSchema() } },
  }, async (request) => ok(await service.copy(currentUser(request), request.params.id), 201));

  app.post<{ Params: { id: number }; Body: { endDate: string } }>('/v1/questionnaires/:id/extend', {
    config: { permission: 'form.edit' },
    schema: { tags, summary: 'A later end date for a questionnaire in progress', params: idParams, body: { type: 'object', required: ['endDate'], additionalProperties: false, properties: { endDate: { type: 'string', format: 'date-time' } } }, response: { 200: envelopeSchema() } },
  }, async (request) => ok(await service.extend(currentUser(request), request.params.id, new Date(request.body.endDate).toISOString())));

  app.post<{ Body: { targets: Target[]; schoolYearId?: number } }>('/v1/questionnaires/audience-count', {
    config: { permission: 'form.view' },
    schema: { tags, summary: 'How many people each choice covers, and all of them without duplicates', body: { type: 'object', required: ['targets'], additionalProperties: false, properties: { targets, schoolYearId: { type: 'integer', minimum: 1 } } }, response: { 200: envelopeSchema() } },
  }, async (request) => {
    const { respondents, counts } = await resolveAudience(db, request.body.targets, request.body.schoolYearId ?? null);
    return ok({ targets: request.body.targets.map((t, i) => ({ ...t, count: counts[i] })), total: respondents.length });
  });

  app.post('/v1/questionnaires/images', {
    config: { permission: 'form.edit' },
    schema: { tags, summary: 'Stores a question image (png, jpeg, gif, webp; at most 2 MB): {path} under /qe/storage/', response: { 200: envelopeSchema() } },
  }, async (request) => {
    return ok({ path: await storeUploadedImage(request, config.storageDir, 'questionnaires') });
  });

  await audienceOptionRoutes(app, db);
}

/** The pickers of the form screen, for staff who design questionnaires without master-data permissions. */
async function audienceOptionRoutes(app: FastifyInstance, db: DB) {
  const query = {
    type: 'object',
    additionalProperties: false,
    properties: {
      q: { type: 'string', maxLength: 100 },
      id: { type: 'array', items: { type: 'integer' }, maxItems: 1000 },
      page: { type: 'integer', minimum: 1 },
      size: { type: 'integer', minimum: 1, maximum: 200 },
      sort: { type: 'string' },
      order: { type: 'string' },
    },
  } as const;
  type Q = { q?: string; id?: number[]; page?: number; size?: number };

  app.get<{ Querystring: Q & { kind: string } }>('/v1/audience-options', {
    config: { permission: 'form.view' },
    schema: {
      tags,
      summary: 'What the target picker offers of one kind, each with the number of people it covers: {list, total}',
      querystring: { ...query, required: ['kind'], properties: { ...query.properties, kind: { type: 'string', enum: ['TEACHER_GROUP', 'GRADE', 'CLASS', 'TEACHER', 'STUDENT'] } } },
      response: { 200: envelopeSchema() },
    },
  }, async (request) => {
    const { kind, q, id, page = 1, size = 50 } = request.query;
    let rows: { id: number; code: string | null; nameHk: string; nameEn: string }[];
    const text = q?.trim();
    const search = (columns: string[]) => (eb: { or: (e: Expression<SqlBool>[]) => Expression<SqlBool> }) => eb.or(columns.map((c) => contains(c, text!)));
    if (kind === 'TEACHER' || kind === 'STUDENT') {
      let s = db.selectFrom('users').select(['id', 'user_no as code', 'name_hk as nameHk', 'name_en as nameEn']).where('user_type', '=', kind).where('active', '=', 1).where('status', '=', '1');
      if (text) s = s.where(search(['user_no', 'name_hk', 'name_en', 'username']));
      if (id?.length) s = s.where('id', 'in', id);
      rows = await s.orderBy('user_no').execute();
    } else if (kind === 'CLASS') {
      // grade by grade (1A, 1B, 2A …), as the school lists them
      let s = db.selectFrom('classes as c').innerJoin('grades as g', 'g.id', 'c.grade_id').select(['c.id', 'c.code', 'c.name_hk as nameHk', 'c.name_en as nameEn']);
      if (text) s = s.where(search(['c.code', 'c.name_hk', 'c.name_en']));
      if (id?.length) s = s.where('c.id', 'in', id);
      rows = await s.orderBy('g.seq').orderBy('g.code').orderBy('c.seq').orderBy('c.code').execute();
    } else {
      const table = kind === 'TEACHER_GROUP' ? 'teacher_groups' : 'grades';
      let s = db.selectFrom(table).select(['id', 'code', 'name_hk as nameHk', 'name_en as nameEn']);
      if (text) s = s.where(search(['code', 'name_hk', 'name_en']));
      if (id?.length) s = s.where('id', 'in', id);
      rows = await s.orderBy('seq').orderBy('code').execute();
    }
    const total = rows.length;
    const pageRows = rows.slice((page - 1) * size, page * size);
    const list = [];
    for (const r of pageRows) {
      const count = kind === 'TEACHER' || kind === 'STUDENT' ? 1 : (await resolveAudience(db, [{ kind: kind as Target['kind'], ids: [r.id] }], null)).respondents.length;
      list.push({ ...r, count });
    }
    return ok({ list, total });
  });

  app.get<{ Querystring: Q }>('/v1/staff-options', {
    config: { permission: 'form.view' },
    schema: { tags, summary: 'Admins and teachers, for the assistant picker: {list, total}', querystring: query, response: { 200: envelopeSchema() } },
  }, async (request) => {
    const { q, id, page = 1, size = 50 } = request.query;
    let s = db.selectFrom('users').select(['id', 'user_no as code', 'name_hk as nameHk', 'name_en as nameEn']).where('user_type', 'in', ['ADMIN', 'TEACHER']).where('active', '=', 1).where('status', '=', '1');
    const text = q?.trim();
    if (text) s = s.where((eb) => eb.or(['user_no', 'name_hk', 'name_en'].map((c) => contains(c, text))));
    if (id?.length) s = s.where('id', 'in', id);
    const rows = await s.orderBy('user_type').orderBy('user_no').execute();
    return ok({ list: rows.slice((page - 1) * size, page * size), total: rows.length });
  });
}
