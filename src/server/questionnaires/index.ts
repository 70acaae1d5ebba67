import type { FastifyInstance } from 'fastify';
import type { Expression, SqlBool } from 'kysely';
import type { Config } from '../config.js';
import type { DB } from '../db/connect.js';
import { ok } from '../plugins/envelope.js';
import { currentUser } from '../plugins/guard.js';
import { storeUploadedImage } from '../storage/images.js';
import { uploads } from '../storage/file-store.js';
import {
  audienceCountBody,
  audienceOptionsQuery,
  extendBody,
  yearCopyBody,
  QUESTIONNAIRE_ANSWERS,
  questionnaireChangeBody,
  questionnaireCreateBody,
  questionnaireParams,
  questionnairesQuery,
  staffOptionsQuery,
  type AudienceCount,
  type AudienceCountBody,
  type AudienceOption,
  type AudienceOptionPage,
  type AudienceOptionsQuery,
  type ExtendBody,
  type YearCopy,
  type YearCopyBody,
  type ImageStored,
  type NoticeSent,
  type QuestionnaireChangeBody,
  type QuestionnaireCreateBody,
  type QuestionnaireDetail,
  type QuestionnaireParams,
  type QuestionnairePage,
  type QuestionnairesQuery,
  type StaffOption,
  type StaffOptionPage,
  type StaffOptionsQuery,
} from '../../shared/calls/questionnaires.js';
import { resolveAudience } from './audience.js';
import { sendNotice } from './notice.js';
import { contains, QuestionnaireService, type QuestionnaireInput } from './service.js';

const tags = ['questionnaires'];

/** ISO date-times as stored: UTC with milliseconds, so they compare as text. */
function normaliseDates<B extends QuestionnaireInput>(body: B): B {
  for (const key of ['openDate', 'endDate'] as const) if (body[key]) body[key] = new Date(body[key]!).toISOString();
  return body;
}


/** Questionnaire design: the staff side of questionnaires (src/shared/questionnaire/API.md). */
export async function questionnaireRoutes(app: FastifyInstance, { db, config }: { db: DB; config: Config }) {
  const service = new QuestionnaireService(db);

  app.get<{ Querystring: QuestionnairesQuery }>('/v1/questionnaires', {
    config: { permission: 'form.view' },
    schema: { tags, summary: 'Questionnaires the caller may see: {list, total}', querystring: questionnairesQuery, response: QUESTIONNAIRE_ANSWERS.list },
  }, async (request) => ok<QuestionnairePage>(await service.list(currentUser(request), request.query)));

  app.get<{ Params: QuestionnaireParams }>('/v1/questionnaires/:id', {
    config: { permission: 'form.view' },
    schema: { tags, summary: 'One questionnaire with its questions', params: questionnaireParams, response: QUESTIONNAIRE_ANSWERS.one },
  }, async (request) => ok<QuestionnaireDetail>(await service.get(currentUser(request), request.params.id)));

  app.post<{ Body: QuestionnaireCreateBody }>('/v1/questionnaires', {
    config: { permission: 'form.add' },
    schema: { tags, summary: 'A new questionnaire in PREPARING (710 when the school requires creators to bind a Google account and the caller has none)', body: questionnaireCreateBody, response: QUESTIONNAIRE_ANSWERS.one },
  }, async (request) => ok<QuestionnaireDetail>(await service.create(currentUser(request), normaliseDates(request.body)), 201));

  app.put<{ Params: QuestionnaireParams; Body: QuestionnaireChangeBody }>('/v1/questionnaires/:id', {
    config: { permission: 'form.edit' },
    schema: { tags, summary: 'Changes what the status allows (709 otherwise)', params: questionnaireParams, body: questionnaireChangeBody, response: QUESTIONNAIRE_ANSWERS.one },
  }, async (request) => ok<QuestionnaireDetail>(await service.update(currentUser(request), request.params.id, normaliseDates(request.body))));

  app.delete<{ Params: QuestionnaireParams }>('/v1/questionnaires/:id', {
    config: { permission: 'form.delete' },
    schema: { tags, summary: 'Deletes a questionnaire that has not opened', params: questionnaireParams, response: QUESTIONNAIRE_ANSWERS.changed },
  }, async (request) => {
    await service.remove(currentUser(request), request.params.id);
    return ok<null>(null);
  });

  type Caller = Parameters<typeof currentUser>[0];
  const transition = (path: string, summary: string, run: (id: number, request: Caller) => Promise<QuestionnaireDetail>) =>
    app.post<{ Params: QuestionnaireParams }>(`/v1/questionnaires/:id/${path}`, {
      config: { permission: 'form.edit' },
      schema: { tags, summary, params: questionnaireParams, response: QUESTIONNAIRE_ANSWERS.one },
    }, async (request) => ok<QuestionnaireDetail>(await run(request.params.id, request)));

  transition('ready', 'Design complete: PREPARING → NOT_OPEN (PROCESSING at once when the open date has come)', (id, r) => service.ready(currentUser(r), id));
  transition('cancel-ready', 'Cancel ready: NOT_OPEN → PREPARING', (id, r) => service.cancelReady(currentUser(r), id));
  transition('close', 'Close early: PROCESSING → FINISHED', (id, r) => service.close(currentUser(r), id));
  app.post<{ Params: QuestionnaireParams }>('/v1/questionnaires/:id/notice', {
    config: { permission: 'form.edit' },
    schema: { tags, summary: 'Mails every respondent who has not submitted: {sent, failed, noAddress}', params: questionnaireParams, response: QUESTIONNAIRE_ANSWERS.notice },
  }, async (request) => {
    await service.editable(currentUser(request), request.params.id);
    return ok<NoticeSent>(await sendNotice(db, config, request.params.id));
  });

  app.post<{ Params: QuestionnaireParams }>('/v1/questionnaires/:id/copy', {
    config: { permission: 'form.add' },
    schema: { tags, summary: 'A copy in PREPARING with the caller in charge', params: questionnaireParams, response: QUESTIONNAIRE_ANSWERS.one },
  }, async (request) => ok<QuestionnaireDetail>(await service.copy(currentUser(request), request.params.id), 201));

  app.post<{ Params: QuestionnaireParams; Body: YearCopyBody }>('/v1/questionnaires/:id/copy-for-year', {
    config: { permission: 'form.add' },
    schema: {
      tags,
      summary: "Last year's questionnaire again: a draft in the current school year with the caller in charge, no dates, the type chosen again, its audience carried over by grade or by people",
      params: questionnaireParams,
      body: yearCopyBody,
      response: QUESTIONNAIRE_ANSWERS.yearCopy,
    },
  }, async (request) => ok<YearCopy>(await service.copyForYear(currentUser(request), request.params.id, request.body), 201));

  app.post<{ Params: QuestionnaireParams; Body: ExtendBody }>('/v1/questionnaires/:id/extend', {
    config: { permission: 'form.edit' },
    schema: { tags, summary: 'A later end date for a questionnaire in progress', params: questionnaireParams, body: extendBody, response: QUESTIONNAIRE_ANSWERS.one },
  }, async (request) => ok<QuestionnaireDetail>(await service.extend(currentUser(request), request.params.id, new Date(request.body.endDate).toISOString())));

  app.post<{ Body: AudienceCountBody }>('/v1/questionnaires/audience-count', {
    config: { permission: 'form.view' },
    schema: { tags, summary: 'How many people each choice covers, and all of them without duplicates', body: audienceCountBody, response: QUESTIONNAIRE_ANSWERS.audienceCount },
  }, async (request) => {
    const { respondents, counts } = await resolveAudience(db, request.body.targets, request.body.schoolYearId ?? null);
    return ok<AudienceCount>({ targets: request.body.targets.map((t, i) => ({ ...t, count: counts[i] })), total: respondents.length });
  });

  app.post('/v1/questionnaires/images', {
    config: { permission: 'form.edit' },
    schema: { tags, summary: 'Stores a question image (png, jpeg, gif, webp; at most 2 MB): {path} under /qe/storage/', response: QUESTIONNAIRE_ANSWERS.image },
  }, async (request) => {
    return ok<ImageStored>({ path: await storeUploadedImage(request, uploads(db, config), 'questionnaires') });
  });

  await audienceOptionRoutes(app, db);
}

/** The pickers of the form screen, for staff who design questionnaires without master-data permissions. */
async function audienceOptionRoutes(app: FastifyInstance, db: DB) {
  app.get<{ Querystring: AudienceOptionsQuery }>('/v1/audience-options', {
    config: { permission: 'form.view' },
    schema: {
      tags,
      summary: 'What the target picker offers of one kind, each with the number of people it covers: {list, total}',
      querystring: audienceOptionsQuery,
      response: QUESTIONNAIRE_ANSWERS.audienceOptions,
    },
  }, async (request) => {
    const { kind, q, id, page = 1, size = 50 } = request.query;
    let rows: StaffOption[];
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
    const list: AudienceOption[] = [];
    for (const r of pageRows) {
      const count = kind === 'TEACHER' || kind === 'STUDENT' ? 1 : (await resolveAudience(db, [{ kind, ids: [r.id] }], null)).respondents.length;
      list.push({ ...r, count });
    }
    return ok<AudienceOptionPage>({ list, total });
  });

  app.get<{ Querystring: StaffOptionsQuery }>('/v1/staff-options', {
    config: { permission: 'form.view' },
    schema: { tags, summary: 'Admins and teachers, for the assistant picker: {list, total}', querystring: staffOptionsQuery, response: QUESTIONNAIRE_ANSWERS.staffOptions },
  }, async (request) => {
    const { q, id, page = 1, size = 50 } = request.query;
    let s = db.selectFrom('users').select(['id', 'user_no as code', 'name_hk as nameHk', 'name_en as nameEn']).where('user_type', 'in', ['ADMIN', 'TEACHER']).where('active', '=', 1).where('status', '=', '1');
    const text = q?.trim();
    if (text) s = s.where((eb) => eb.or(['user_no', 'name_hk', 'name_en'].map((c) => contains(c, text))));
    if (id?.length) s = s.where('id', 'in', id);
    const rows: StaffOption[] = await s.orderBy('user_type').orderBy('user_no').execute();
    return ok<StaffOptionPage>({ list: rows.slice((page - 1) * size, page * size), total: rows.length });
  });
}
