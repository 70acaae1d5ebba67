import type { FastifyInstance } from 'fastify';
import type { DB } from '../db/connect.js';
import { ok } from '../plugins/envelope.js';
import { requestLang } from '../plugins/errors.js';
import { currentUser } from '../plugins/guard.js';
import { questionnaireParams, type QuestionnaireParams } from '../../shared/calls/questionnaires.js';
import {
  saveAsTemplateBody,
  TEMPLATE_ANSWERS,
  templateChangeBody,
  templateParams,
  templatesQuery,
  useTemplateBody,
  type SaveAsTemplateBody,
  type TemplateChangeBody,
  type TemplateDetail,
  type TemplatePage,
  type TemplateParams,
  type TemplatesQuery,
  type TemplateUse,
  type UseTemplateBody,
} from '../../shared/calls/templates.js';
import { TemplateService } from './service.js';

const tags = ['questionnaire-templates'];

/** Questionnaire templates (docs/product-rules.md#templates; src/shared/questionnaire/API.md). */
export async function templateRoutes(app: FastifyInstance, { db }: { db: DB }) {
  const service = new TemplateService(db);

  app.get<{ Querystring: TemplatesQuery }>('/v1/questionnaire-templates', {
    config: { permission: 'form-template.view' },
    schema: { tags, summary: 'Templates, by name; q searches names and descriptions in both languages; retired=true the retired ones: {list, total}', querystring: templatesQuery, response: TEMPLATE_ANSWERS.list },
  }, async (request) => ok<TemplatePage>(await service.list(request.query, requestLang(request))));

  app.get<{ Params: TemplateParams }>('/v1/questionnaire-templates/:id', {
    config: { permission: 'form-template.view' },
    schema: { tags, summary: 'One template with its questions (the preview)', params: templateParams, response: TEMPLATE_ANSWERS.one },
  }, async (request) => ok<TemplateDetail>(await service.get(request.params.id)));

  app.post<{ Params: QuestionnaireParams; Body: SaveAsTemplateBody }>('/v1/questionnaires/:id/save-as-template', {
    config: { permission: 'form-template.add' },
    schema: { tags, summary: 'A questionnaire the caller may read, saved as a template: its questions (ids kept), languages, type and audience kind; no dates or replies', params: questionnaireParams, body: saveAsTemplateBody, response: TEMPLATE_ANSWERS.one },
  }, async (request) => ok<TemplateDetail>(await service.saveAs(currentUser(request), request.params.id, request.body), 201));

  app.put<{ Params: TemplateParams; Body: TemplateChangeBody }>('/v1/questionnaire-templates/:id', {
    config: { permission: 'form-template.edit' },
    schema: { tags, summary: 'Changes names, descriptions, questions (checked as a questionnaire’s), type or audience kind', params: templateParams, body: templateChangeBody, response: TEMPLATE_ANSWERS.one },
  }, async (request) => ok<TemplateDetail>(await service.update(request.params.id, request.body)));

  app.post<{ Params: TemplateParams }>('/v1/questionnaire-templates/:id/retire', {
    config: { permission: 'form-template.delete' },
    schema: { tags, summary: 'Retires a template: hidden from the list, not to be used', params: templateParams, response: TEMPLATE_ANSWERS.one },
  }, async (request) => ok<TemplateDetail>(await service.retire(request.params.id, true)));

  app.post<{ Params: TemplateParams }>('/v1/questionnaire-templates/:id/restore', {
    config: { permission: 'form-template.delete' },
    schema: { tags, summary: 'Brings a retired template back', params: templateParams, response: TEMPLATE_ANSWERS.one },
  }, async (request) => ok<TemplateDetail>(await service.retire(request.params.id, false)));

  app.post<{ Params: TemplateParams; Body: UseTemplateBody }>('/v1/questionnaire-templates/:id/use', {
    config: { permission: 'form.add' },
    schema: {
      tags,
      summary: 'New from template: a questionnaire in PREPARING of the current school year, the caller in charge, no dates, its audience the template’s kind this year (also needs form-template.view; 709 when retired)',
      params: templateParams,
      body: useTemplateBody,
      response: TEMPLATE_ANSWERS.use,
    },
  }, async (request) => ok<TemplateUse>(await service.use(currentUser(request), request.params.id, request.body ?? {}), 201));
}
