import { envelopeOf, REFUSALS, type Shape } from './envelope.js';

/**
 * Google account binding (src/server/google/): the sign-in link, the bind and an
 * administrator's clearing of a binding, described once (docs/conventions.md#call-shapes).
 * The top bar's button reads its answers as these schemas' types (src/client/google/).
 */

/** POST /v1/google/actions/bind: the code the sign-in returned, and the signed state the link carried */
export const bindBody = {
  type: 'object',
  required: ['code'],
  additionalProperties: false,
  properties: { code: { type: 'string', minLength: 1, maxLength: 2000 }, state: { type: 'string', maxLength: 2000 } },
} as const;
export type BindBody = Shape<typeof bindBody>;

/** DELETE /v1/google/bindings/:userId */
export const bindingParams = { type: 'object', required: ['userId'], additionalProperties: false, properties: { userId: { type: 'integer', minimum: 1 } } } as const;
export type BindingParams = Shape<typeof bindingParams>;

/** GET /v1/google/actions/auth-url: the sign-in link to open in a popup, and the account bound now */
export const authLink = {
  type: 'object',
  required: ['googleMail', 'link'],
  additionalProperties: false,
  properties: { googleMail: { type: ['string', 'null'], description: 'the account bound now (null: none)' }, link: { type: 'string' } },
} as const;
export type AuthLink = Shape<typeof authLink>;

/** POST /v1/google/actions/bind: the account bound */
export const bound = { type: 'object', required: ['googleMail'], additionalProperties: false, properties: { googleMail: { type: 'string' } } } as const;
export type Bound = Shape<typeof bound>;

export const GOOGLE_ANSWERS = {
  /** GET /v1/google/actions/auth-url */
  authUrl: { 200: envelopeOf(authLink), ...REFUSALS },
  /** POST /v1/google/actions/bind */
  bind: { 200: envelopeOf(bound), ...REFUSALS },
  /** DELETE /v1/google/bindings/:userId: nothing in `data` */
  cleared: { 200: envelopeOf({ type: 'null' }), ...REFUSALS },
} as const;
