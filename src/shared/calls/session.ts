import { CONFIRM_STATUSES } from '../personal.js';
import { envelopeOf, REFUSALS, type Shape } from './envelope.js';
import { idSchema, USER_TYPE_ENUM } from './parts.js';

/**
 * What the logged-in user is (GET /v1/my/user-info, docs/product-rules.md#records-and-fields),
 * described once: the server builds it (src/server/auth/user-info.ts) and the client reads it
 * (src/client/providers/authProvider.ts) as this schema's type; the OpenAPI page shows it.
 */

const text = { type: 'string' } as const;
const maybeText = { type: ['string', 'null'] } as const;
const date = { type: 'string', description: 'yyyy-MM-dd' } as const;

/** One page of the user's permissions: its actions, which exist for this system, which the user holds. */
export const permissionEntry = {
  type: 'object',
  required: ['code', 'actions', 'permission_content', 'permission_selection', 'permission_mark_cn', 'permission_mark_en'],
  additionalProperties: false,
  properties: {
    code: text,
    actions: { type: 'array', items: { type: 'object', required: ['code'], additionalProperties: false, properties: { code: text } } },
    permission_content: { type: 'string', description: 'one 0/1 per action: the action exists on this page' },
    permission_selection: { type: 'string', description: 'one 0/1 per action: the user holds it' },
    permission_mark_cn: text,
    permission_mark_en: text,
  },
} as const;

const schoolYear = {
  type: 'object',
  required: ['id', 'name', 'beginDate', 'endDate', 'yearStatus'],
  additionalProperties: false,
  properties: { id: idSchema, name: text, beginDate: date, endDate: date, yearStatus: { type: 'string', description: "'1' for the current year" } },
} as const;

const term = {
  type: 'object',
  required: ['id', 'nameHk', 'nameEn', 'beginDate', 'endDate'],
  additionalProperties: false,
  properties: { id: idSchema, nameHk: text, nameEn: text, beginDate: date, endDate: date },
} as const;

export const userInfoSchema = {
  type: 'object',
  required: [
    'userId', 'userNo', 'username', 'nameHk', 'nameEn', 'avatar', 'identityCardId', 'identityCardType', 'email', 'googleMail', 'tel', 'gender', 'birthday',
    'userType', 'active', 'loginTime', 'lastLogin', 'staff_id', 'status', 'permissions', 'personalDataStatus', 'years', 'terms', 'currentYear', 'currentTerm', 'timeZone',
  ],
  additionalProperties: false,
  properties: {
    userId: idSchema,
    userNo: maybeText,
    username: text,
    nameHk: text,
    nameEn: text,
    avatar: maybeText,
    identityCardId: { type: ['string', 'null'], description: 'masked: never the number itself' },
    identityCardType: maybeText,
    email: maybeText,
    googleMail: maybeText,
    tel: maybeText,
    gender: maybeText,
    birthday: maybeText,
    userType: { type: 'string', enum: USER_TYPE_ENUM },
    active: { type: 'boolean' },
    loginTime: maybeText,
    lastLogin: maybeText,
    staff_id: { type: ['integer', 'null'], description: "the user's id for staff, null for a pupil" },
    status: text,
    permissions: { type: 'array', items: permissionEntry },
    personalDataStatus: { type: ['string', 'null'], enum: [...CONFIRM_STATUSES, null], description: "the latest personal-data request's state (null: never asked, or a pupil)" },
    years: { type: 'array', items: schoolYear },
    terms: { type: 'array', items: term, description: "the current year's terms" },
    currentYear: { anyOf: [schoolYear, { type: 'null' }] },
    currentTerm: { anyOf: [term, { type: 'null' }] },
    timeZone: { type: 'string', description: "the school's time zone (IANA), which every day and time shown is read on" },
  },
} as const;
export type UserInfo = Shape<typeof userInfoSchema>;

export const SESSION_ANSWERS = {
  userInfo: { 200: envelopeOf(userInfoSchema), ...REFUSALS },
} as const;
