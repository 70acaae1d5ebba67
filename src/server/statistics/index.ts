import { schoolDay } from '../school-day.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { DB } from '../db/connect.js';
import { envelopeSchema, ok } from '../plugins/envelope.js';
import { BusinessError, requestLang } from '../plugins/errors.js';
import { currentUser } from '../plugins/guard.js';
import { errorText, ERRORS } from '../../shared/errors.js';
import { QUESTIONNAIRE_STATUSES } from '../../shared/questionnaire/types.js';
import { RESPONDENT_ROLES, type StatisticsFilter } from '../../shared/statistics/types.js';
import { StatisticsService } from './service.js';
import type { StatisticsListQuery } from './scoped.js';
import type { Paging } from './replies.js';
import { statisticsWorkbook } from './export.js';

const tags = ['statistics'];
const view = { permission: 'data-statistics.view' as const };
const idParams = { type: 'object', required: ['id'], additionalProperties: false, properties: { id: { type: 'integer', minimum: 1 } } } as const;
const filterProperties = {
  role: { type: 'string', enum: [...RESPONDENT_ROLES] },
  gradeId: { type: 'integer', minimum: 1 },
  classId: { type: 'integer', minimum: 1 },
} as const;
const paging = { page: { type: 'integer', minimum: 1 }, size: { type: 'integer', minimum: 1, maximum: 200 } } as const;
const query = (properties: Record<string, object>, required: string[] = []) => ({ type: 'object', additionalProperties: false, required, properties: { ...filterProperties, ...properties } });

/** The filter part of a query string. */
const filterOf = (q: StatisticsFilter): StatisticsFilter => ({
  ...(q.role ? { role: q.role } : {}),
  ...(q.gradeId ? { gradeId: q.gradeId } : {}),
  ...(q.classId ? { classId: q.classId } : {}),
});

/** Statistics (calls in src/shared/statistics/API.md; docs/architecture.md#a-statistics-call): scoped like questionnaires, summaries by grouped queries. */
export async function statisticsRoutes(app: FastifyInstance, { db, config }: { db: DB; config: Config }) {
  const service = new StatisticsService(db, config.anonymousMinGroup);

  app.get<{ Querystring: StatisticsListQuery }>('/v1/statistics', {
    config: view,
    schema: {
      tags,
      summary: 'Questionnaires with results the caller may read, with submitted and respondent numbers: {list, total}',
      querystring: {
        type: 'object',
        additionalProperties: false,
        properties: {
          ...paging,
          sort: { type: 'string', enum: ['createDate', 'title', 'status', 'openDate', 'endDate'] },
          order: { type: 'string', enum: ['asc', 'desc', 'ASC', 'DESC'] },
          q: { type: 'string', maxLength: 200 },
          status: { type: 'string', enum: [...QUESTIONNAIRE_STATUSES] },
          schoolYearId: { type: 'integer', minimum: 1 },
        },
      },
      response: { 200: envelopeSchema() },
    },
  }, async (request) => ok(await service.list(currentUser(request), request.query)));

  app.get<{ Params: { id: number }; Querystring: StatisticsFilter }>('/v1/statistics/:id', {
    config: view,
    schema: { tags, summary: "Every question's summary for the filtered respondents, the groups to filter by, and the counts", params: idParams, querystring: query({}), response: { 200: envelopeSchema() } },
  }, async (request) => ok(await service.detail(await service.scoped(currentUser(request), request.params.id), filterOf(request.query), requestLang(request))));

  app.get<{ Params: { id: number }; Querystring: StatisticsFilter & Paging & { questionId: string; part?: 'answer' | 'other'; q?: string } }>('/v1/statistics/:id/texts', {
    config: view,
    schema: {
      tags,
      summary: "A text question's answers, or a choice question's 'other' texts: searched, paged",
      params: idParams,
      querystring: query({ ...paging, questionId: { type: 'string', minLength: 1, maxLength: 100 }, part: { type: 'string', enum: ['answer', 'other'] }, q: { type: 'string', maxLength: 200 } }, ['questionId']),
      response: { 200: envelopeSchema() },
    },
  }, async (request) => ok(await service.texts(currentUser(request), request.params.id, { ...request.query, ...filterOf(request.query) })));

  app.get<{ Params: { id: number }; Querystring: StatisticsFilter & Paging & { status?: 'SUBMITTED' | 'NOT_SUBMITTED'; q?: string } }>('/v1/statistics/:id/respondents', {
    config: view,
    schema: {
      tags,
      summary: "Who was asked and who has answered (named), or 'anonymous N' per reply with the number not submitted (anonymous)",
      params: idParams,
      querystring: query({ ...paging, status: { type: 'string', enum: ['SUBMITTED', 'NOT_SUBMITTED'] }, q: { type: 'string', maxLength: 200 } }),
      response: { 200: envelopeSchema() },
    },
  }, async (request) => ok(await service.respondents(currentUser(request), request.params.id, { ...request.query, ...filterOf(request.query) })));

  app.get<{ Params: { id: number; replyId: string } }>('/v1/statistics/:id/replies/:replyId', {
    config: view,
    schema: {
      tags,
      summary: 'One reply whole, with the questions it answers',
      params: { type: 'object', required: ['id', 'replyId'], additionalProperties: false, properties: { id: { type: 'integer', minimum: 1 }, replyId: { type: 'string', minLength: 1, maxLength: 64 } } },
      response: { 200: envelopeSchema() },
    },
  }, async (request) => ok(await service.reply(currentUser(request), request.params.id, request.params.replyId)));

  app.get<{ Params: { id: number }; Querystring: StatisticsFilter }>('/v1/statistics/:id/export', {
    config: { permission: 'data-statistics.export' },
    schema: { tags, summary: 'The xlsx report: the summary and the raw answers (anonymous replies numbered, never named); failures as 719', params: idParams, querystring: query({}) },
  }, async (request, reply) => {
    const lang = requestLang(request);
    try {
      const user = currentUser(request);
      const filter = filterOf(request.query);
      const scoped = await service.scoped(user, request.params.id);
      const detail = await service.detail(scoped, filter, lang);
      const buffer = await statisticsWorkbook(db, scoped, detail, filter, lang);
      const name = encodeURIComponent(`${scoped.row.title}-${schoolDay()}.xlsx`);
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', `attachment; filename="statistics-${scoped.row.id}.xlsx"; filename*=UTF-8''${name}`)
        .send(buffer);
    } catch (err) {
      return downloadFailed(request, reply, err, lang);
    }
  });
}

/** A failed download answers 719 (the download-errors dialog: docs/errors.md#how-the-client-shows-them) with the reason on its own line. */
function downloadFailed(request: FastifyRequest, reply: FastifyReply, err: unknown, lang: ReturnType<typeof requestLang>) {
  const reason = err instanceof BusinessError ? errorText(err.key, lang, err.params) : errorText('SYSTEM_ERROR', lang);
  if (!(err instanceof BusinessError)) request.log.error({ err }, 'statistics export failed');
  return reply.status(ERRORS.DOWNLOAD_ERROR.http).send({ code: ERRORS.DOWNLOAD_ERROR.code, msg: `${errorText('DOWNLOAD_ERROR', lang)}\n${reason}`, data: null });
}
