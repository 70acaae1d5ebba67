import { CONFIRM_STATUSES, GENDERS, IDENTITY_CARD_TYPES } from '../personal.js';
import { envelopeOf, REFUSALS, type Shape } from './envelope.js';
import { idSchema, USER_TYPE_ENUM } from './parts.js';

/**
 * Staff personal data (src/server/personal/): one's own data and change request, the avatar
 * upload, and the approver's queue and decisions, described once (docs/conventions.md#call-shapes).
 * The client's types are read from these schemas (src/client/personal/api.ts); the status,
 * gender and document tuples it needs at run time stay in src/shared/personal.ts.
 */

const text = { type: 'string' } as const;
const maybeText = { type: ['string', 'null'] } as const;
const status = { type: 'string', enum: CONFIRM_STATUSES } as const;

// ---- requests

/** POST /v1/my/personal-data: the fields given are asked for, the others kept ('' or null clears one) */
export const personalDataBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    tel: { type: ['string', 'null'], maxLength: 30, pattern: '^[0-9+() -]*$' },
    gender: { type: ['string', 'null'], enum: [...GENDERS, '', null] },
    birthday: { anyOf: [{ type: 'string', format: 'date' }, { type: 'string', maxLength: 0 }, { type: 'null' }] },
    identityCardType: { type: ['string', 'null'], enum: [...IDENTITY_CARD_TYPES, '', null] },
    /** a new number; empty or absent keeps the stored one */
    identityCardNo: { type: ['string', 'null'], maxLength: 30 },
    /** a path answered by the avatar upload (avatars/…), or null to remove the picture */
    avatar: { type: ['string', 'null'], maxLength: 100 },
  },
} as const;
export type PersonalDataInput = Shape<typeof personalDataBody>;

/** GET /v1/personal-data-requests */
export const personalQueueQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    status,
    page: { type: 'integer', minimum: 1 },
    size: { type: 'integer', minimum: 1, maximum: 200 },
    q: { type: 'string', maxLength: 100 },
  },
} as const;
export type PersonalQueueQuery = Shape<typeof personalQueueQuery>;

/** POST /v1/personal-data-requests/:id/confirm and /reject */
export const personalParams = { type: 'object', required: ['id'], additionalProperties: false, properties: { id: { type: 'integer', minimum: 1 } } } as const;
export type PersonalParams = Shape<typeof personalParams>;

/** POST /v1/personal-data-requests/:id/reject */
export const rejectBody = { type: 'object', required: ['reason'], additionalProperties: false, properties: { reason: { type: 'string', minLength: 1, maxLength: 500 } } } as const;
export type RejectBody = Shape<typeof rejectBody>;

// ---- answers

/** Personal data as answered: the identity card only masked. */
export const personalValues = {
  type: 'object',
  additionalProperties: false,
  required: ['tel', 'gender', 'birthday', 'identityCardType', 'identityCardId', 'avatar'],
  properties: {
    tel: maybeText,
    gender: maybeText,
    birthday: maybeText,
    identityCardType: maybeText,
    identityCardId: { type: ['string', 'null'], description: 'masked: never the number itself' },
    avatar: maybeText,
  },
} as const;
export type PersonalValues = Shape<typeof personalValues>;

const requestProperties = {
  id: idSchema,
  status,
  values: personalValues,
  reason: { type: ['string', 'null'], description: "the approver's reason of a REJECT" },
  createdAt: text,
  decidedAt: maybeText,
} as const;
const requestRequired = ['id', 'status', 'values', 'reason', 'createdAt', 'decidedAt'] as const;

/** A change request: what was asked for, and its state. */
export const personalRequest = { type: 'object', additionalProperties: false, required: requestRequired, properties: requestProperties } as const;
export type PersonalRequest = Shape<typeof personalRequest>;

/** GET /v1/my/personal-data */
export const myPersonalData = {
  type: 'object',
  additionalProperties: false,
  required: ['current', 'request'],
  properties: { current: personalValues, request: { anyOf: [personalRequest, { type: 'null' }] } },
} as const;
export type MyPersonalData = Shape<typeof myPersonalData>;

/** A request of the approver's queue, with whose it is and their current values beside. */
export const queuedRequest = {
  type: 'object',
  additionalProperties: false,
  required: [...requestRequired, 'userId', 'userNo', 'nameHk', 'nameEn', 'userType', 'current'],
  properties: { ...requestProperties, userId: idSchema, userNo: maybeText, nameHk: text, nameEn: text, userType: { type: 'string', enum: USER_TYPE_ENUM }, current: personalValues },
} as const;
export type QueuedRequest = Shape<typeof queuedRequest>;

export const personalQueue = { type: 'object', additionalProperties: false, required: ['list', 'total'], properties: { list: { type: 'array', items: queuedRequest }, total: { type: 'integer' } } } as const;
export type PersonalQueue = Shape<typeof personalQueue>;

/** A request asked for or decided: its id and state now. */
export const requestState = { type: 'object', additionalProperties: false, required: ['id', 'status'], properties: { id: idSchema, status } } as const;
export type RequestState = Shape<typeof requestState>;

/** POST /v1/my/personal-data/avatar: where the picture is stored, to send with the request */
export const storedAvatar = { type: 'object', additionalProperties: false, required: ['path'], properties: { path: text } } as const;
export type StoredAvatar = Shape<typeof storedAvatar>;

export const PERSONAL_ANSWERS = {
  /** GET /v1/my/personal-data */
  mine: { 200: envelopeOf(myPersonalData), ...REFUSALS },
  /** POST /v1/my/personal-data (code 201), POST /v1/personal-data-requests/:id/confirm and /reject */
  state: { 200: envelopeOf(requestState), ...REFUSALS },
  /** POST /v1/my/personal-data/avatar */
  avatar: { 200: envelopeOf(storedAvatar), ...REFUSALS },
  /** GET /v1/personal-data-requests */
  queue: { 200: envelopeOf(personalQueue), ...REFUSALS },
} as const;
