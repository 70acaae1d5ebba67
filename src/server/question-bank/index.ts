import type { FastifyInstance } from 'fastify';
import type { DB } from '../db/connect.js';
import { ok } from '../plugins/envelope.js';
import { requestLang } from '../plugins/errors.js';
import { currentUser } from '../plugins/guard.js';
import {
  BANK_ANSWERS,
  bankChangeBody,
  bankParams,
  bankQuery,
  bankSaveBody,
  type BankChangeBody,
  type BankPage,
  type BankParams,
  type BankQuery,
  type BankQuestion,
  type BankSaveBody,
  type BankTags,
} from '../../shared/calls/question-bank.js';
import { QuestionBankService } from './service.js';

const tags = ['question-bank'];

/** The school's question bank (docs/product-rules.md#question-bank; src/shared/questionnaire/API.md). */
export async function questionBankRoutes(app: FastifyInstance, { db }: { db: DB }) {
  const service = new QuestionBankService(db);

  app.get<{ Querystring: BankQuery }>('/v1/question-bank', {
    config: { permission: 'question-bank.view' },
    schema: { tags, summary: 'Bank questions, newest first, whole (for the preview); q searches every text of both languages and the tags, tag filters by one tag; retired=true the retired ones: {list, total}', querystring: bankQuery, response: BANK_ANSWERS.list },
  }, async (request) => ok<BankPage>(await service.list(request.query, requestLang(request))));

  app.get('/v1/question-bank/tags', {
    config: { permission: 'question-bank.view' },
    schema: { tags, summary: 'The tags of the questions not retired, most used first', response: BANK_ANSWERS.tags },
  }, async () => ok<BankTags>(await service.tags()));

  app.get<{ Params: BankParams }>('/v1/question-bank/:id', {
    config: { permission: 'question-bank.view' },
    schema: { tags, summary: 'One bank question', params: bankParams, response: BANK_ANSWERS.one },
  }, async (request) => ok<BankQuestion>(await service.get(request.params.id, requestLang(request))));

  app.post<{ Body: BankSaveBody }>('/v1/question-bank', {
    config: { permission: 'question-bank.add' },
    schema: { tags, summary: 'Saves a question of a questionnaire the caller may read, as the questionnaire is saved, with its texts in both languages and the tags given (742: no such question there)', body: bankSaveBody, response: BANK_ANSWERS.one },
  }, async (request) => ok<BankQuestion>(await service.save(currentUser(request), request.body, requestLang(request)), 201));

  app.put<{ Params: BankParams; Body: BankChangeBody }>('/v1/question-bank/:id', {
    config: { permission: 'question-bank.edit' },
    schema: { tags, summary: 'Changes the tags or the wording (743 when retired; 744 when more than the wording changes)', params: bankParams, body: bankChangeBody, response: BANK_ANSWERS.one },
  }, async (request) => ok<BankQuestion>(await service.update(request.params.id, request.body, requestLang(request))));

  app.post<{ Params: BankParams }>('/v1/question-bank/:id/retire', {
    config: { permission: 'question-bank.delete' },
    schema: { tags, summary: 'Retires a bank question: hidden from the search, not to be changed', params: bankParams, response: BANK_ANSWERS.one },
  }, async (request) => ok<BankQuestion>(await service.retire(request.params.id, true, requestLang(request))));

  app.post<{ Params: BankParams }>('/v1/question-bank/:id/restore', {
    config: { permission: 'question-bank.delete' },
    schema: { tags, summary: 'Brings a retired bank question back', params: bankParams, response: BANK_ANSWERS.one },
  }, async (request) => ok<BankQuestion>(await service.retire(request.params.id, false, requestLang(request))));
}
