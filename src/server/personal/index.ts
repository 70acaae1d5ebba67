import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { DB } from '../db/connect.js';
import { envelopeSchema, ok } from '../plugins/envelope.js';
import { currentUser } from '../plugins/guard.js';
import { storeUploadedImage } from '../storage/images.js';
import { CONFIRM_STATUSES, GENDERS, IDENTITY_CARD_TYPES, type ConfirmStatus } from '../../shared/personal.js';
import { PersonalData, type PersonalDataInput } from './requests.js';

const tags = ['personal-data'];
const nullable = (schema: Record<string, unknown>) => ({ ...schema, type: ['string', 'null'] });
const idParams = { type: 'object', required: ['id'], additionalProperties: false, properties: { id: { type: 'integer', minimum: 1 } } } as const;

/**
 * Staff personal data (the actions Personal, Apply and Approve of the page personal-data): staff see their own data and ask for
 * a change, which waits (WAITTING) until someone with Approve confirms it (CONFIRM: the values
 * become theirs) or rejects it with a reason (REJECT). Nobody decides their own request. The
 * identity card number is sealed at rest and answered only masked (./identity-card.ts).
 */
export async function personalDataRoutes(app: FastifyInstance, { db, config }: { db: DB; config: Config }) {
  const service = new PersonalData(db, config);

  app.get('/v1/my/personal-data', {
    config: { permission: 'personal-data.personal' },
    schema: { tags, summary: 'My personal data as confirmed (identity card masked) and my latest change request: {current, request}', response: { 200: envelopeSchema() } },
  }, async (request) => ok(await service.mine(currentUser(request))));

  app.post<{ Body: PersonalDataInput }>('/v1/my/personal-data', {
    config: { permission: 'personal-data.apply' },
    schema: {
      tags,
      summary: 'Asks for a change of my personal data: a request in WAITTING (replaces one still waiting); 730 when nothing changes',
      body: {
        type: 'object',
        additionalProperties: false,
        properties: {
          tel: nullable({ maxLength: 30, pattern: '^[0-9+() -]*$' }),
          gender: { type: ['string', 'null'], enum: [...GENDERS, '', null] },
          birthday: { anyOf: [{ type: 'string', format: 'date' }, { type: 'string', maxLength: 0 }, { type: 'null' }] },
          identityCardType: { type: ['string', 'null'], enum: [...IDENTITY_CARD_TYPES, '', null] },
          identityCardNo: nullable({ maxLength: 30 }),
          avatar: nullable({ maxLength: 100 }),
        },
      },
      response: { 200: envelopeSchema() },
    },
  }, async (request) => ok(await service.apply(currentUser(request), request.body), 201));

  app.post('/v1/my/personal-data/avatar', {
    config: { permission: 'personal-data.apply' },
    schema: { tags, summary: 'Stores an avatar picture (png, jpeg, gif, webp by its bytes; at most 2 MB): {path}, to send with the request', response: { 200: envelopeSchema() } },
  }, async (request) => {
    return ok({ path: await storeUploadedImage(request, config.storageDir, 'avatars') });
  });

  app.get<{ Querystring: { status?: ConfirmStatus; page?: number; size?: number; q?: string } }>('/v1/personal-data-requests', {
    config: { permission: 'personal-data.approve' },
    schema: {
      tags,
      summary: "The approver's queue: requests of one status (WAITTING unless asked), with each person's current values beside the requested ones: {list, total}",
      querystring: {
        type: 'object',
        additionalProperties: false,
        properties: {
          status: { type: 'string', enum: [...CONFIRM_STATUSES] },
          page: { type: 'integer', minimum: 1 },
          size: { type: 'integer', minimum: 1, maximum: 200 },
          q: { type: 'string', maxLength: 100 },
        },
      },
      response: { 200: envelopeSchema() },
    },
  }, async (request) => ok(await service.queue(request.query)));

  app.post<{ Params: { id: number } }>('/v1/personal-data-requests/:id/confirm', {
    config: { permission: 'personal-data.approve' },
    schema: { tags, summary: "CONFIRM: the requested values become the person's (not one's own request: 732; decided already: 731)", params: idParams, response: { 200: envelopeSchema() } },
  }, async (request) => ok(await service.confirm(currentUser(request), request.params.id)));

  app.post<{ Params: { id: number }; Body: { reason: string } }>('/v1/personal-data-requests/:id/reject', {
    config: { permission: 'personal-data.approve' },
    schema: {
      tags,
      summary: "REJECT with a reason: the person's data stays as it was (not one's own request: 732; decided already: 731)",
      params: idParams,
      body: { type: 'object', required: ['reason'], additionalProperties: false, properties: { reason: { type: 'string', minLength: 1, maxLength: 500 } } },
      response: { 200: envelopeSchema() },
    },
  }, async (request) => ok(await service.reject(currentUser(request), request.params.id, request.body.reason)));
}
