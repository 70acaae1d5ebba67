import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { DB } from '../db/connect.js';
import { ok } from '../plugins/envelope.js';
import { currentUser } from '../plugins/guard.js';
import { storeUploadedImage } from '../storage/images.js';
import { uploads } from '../storage/file-store.js';
import {
  PERSONAL_ANSWERS,
  personalDataBody,
  personalParams,
  personalQueueQuery,
  rejectBody,
  type PersonalDataInput,
  type PersonalParams,
  type PersonalQueueQuery,
  type RejectBody,
  type StoredAvatar,
} from '../../shared/calls/personal.js';
import { PersonalData } from './requests.js';

const tags = ['personal-data'];

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
    schema: { tags, summary: 'My personal data as confirmed (identity card masked) and my latest change request: {current, request}', response: PERSONAL_ANSWERS.mine },
  }, async (request) => ok(await service.mine(currentUser(request))));

  app.post<{ Body: PersonalDataInput }>('/v1/my/personal-data', {
    config: { permission: 'personal-data.apply' },
    schema: {
      tags,
      summary: 'Asks for a change of my personal data: a request in WAITTING (replaces one still waiting); 730 when nothing changes',
      body: personalDataBody,
      response: PERSONAL_ANSWERS.state,
    },
  }, async (request) => ok(await service.apply(currentUser(request), request.body), 201));

  app.post('/v1/my/personal-data/avatar', {
    config: { permission: 'personal-data.apply' },
    schema: { tags, summary: 'Stores an avatar picture (png, jpeg, gif, webp by its bytes; at most 2 MB): {path}, to send with the request', response: PERSONAL_ANSWERS.avatar },
  }, async (request) => {
    return ok<StoredAvatar>({ path: await storeUploadedImage(request, uploads(db, config), 'avatars') });
  });

  app.get<{ Querystring: PersonalQueueQuery }>('/v1/personal-data-requests', {
    config: { permission: 'personal-data.approve' },
    schema: {
      tags,
      summary: "The approver's queue: requests of one status (WAITTING unless asked), with each person's current values beside the requested ones: {list, total}",
      querystring: personalQueueQuery,
      response: PERSONAL_ANSWERS.queue,
    },
  }, async (request) => ok(await service.queue(request.query)));

  app.post<{ Params: PersonalParams }>('/v1/personal-data-requests/:id/confirm', {
    config: { permission: 'personal-data.approve' },
    schema: { tags, summary: "CONFIRM: the requested values become the person's (not one's own request: 732; decided already: 731)", params: personalParams, response: PERSONAL_ANSWERS.state },
  }, async (request) => ok(await service.confirm(currentUser(request), request.params.id)));

  app.post<{ Params: PersonalParams; Body: RejectBody }>('/v1/personal-data-requests/:id/reject', {
    config: { permission: 'personal-data.approve' },
    schema: {
      tags,
      summary: "REJECT with a reason: the person's data stays as it was (not one's own request: 732; decided already: 731)",
      params: personalParams,
      body: rejectBody,
      response: PERSONAL_ANSWERS.state,
    },
  }, async (request) => ok(await service.reject(currentUser(request), request.params.id, request.body.reason)));
}
