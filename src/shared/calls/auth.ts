import { PASSWORD_MAX, PASSWORD_MIN } from '../validation.js';
import { envelopeOf, REFUSALS, type Shape } from './envelope.js';
import { idSchema } from './parts.js';
import { permissionEntry } from './session.js';

/**
 * Login, logout, the password change and what the logged-in user holds (src/server/auth/),
 * described once (docs/conventions.md#call-shapes); the user info itself is in ./session.ts.
 * The login screen reads the login's answer as this schema's type (src/client/auth/).
 */

/** POST /v1/login */
export const loginBody = {
  type: 'object',
  required: ['username', 'password'],
  additionalProperties: false,
  properties: { username: { type: 'string', minLength: 1, maxLength: 100 }, password: { type: 'string', minLength: 1, maxLength: 100 } },
} as const;
export type LoginBody = Shape<typeof loginBody>;

/** POST /v1/change-password */
export const changePasswordBody = {
  type: 'object',
  required: ['oldPassword', 'newPassword'],
  additionalProperties: false,
  properties: { oldPassword: { type: 'string', minLength: 1, maxLength: 100 }, newPassword: { type: 'string', minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX } },
} as const;
export type ChangePasswordBody = Shape<typeof changePasswordBody>;

/** GET /v1/my/user-info, action-list, permissions: `userId` must be the caller's own (docs/product-rules.md#calls-the-product-names) */
export const userIdQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { userId: { type: 'integer' }, system: { type: 'string', enum: ['QE'] } },
} as const;
export type UserIdQuery = Shape<typeof userIdQuery>;

/** The login's answer, as the product names it: the token and the user's id. */
export const loggedIn = {
  type: 'object',
  required: ['tk', 'userId'],
  additionalProperties: false,
  properties: { tk: { type: 'string', description: 'the session token (Authorization: Bearer)' }, userId: idSchema },
} as const;
export type LoggedIn = Shape<typeof loggedIn>;

/** The `page.action` codes the user holds, sorted. */
export const actionList = { type: 'array', items: { type: 'string' } } as const;
export type ActionList = Shape<typeof actionList>;

/** Every page with its actions, and which of them the user holds. */
export const myPermissions = { type: 'array', items: permissionEntry } as const;
export type MyPermissions = Shape<typeof myPermissions>;

/** A change answers nothing in `data`. */
const changed = { type: 'null' } as const;

export const AUTH_ANSWERS = {
  /** POST /v1/login */
  login: { 200: envelopeOf(loggedIn), ...REFUSALS },
  /** POST /v1/logout, /v1/change-password */
  changed: { 200: envelopeOf(changed), ...REFUSALS },
  /** GET /v1/my/action-list */
  actionList: { 200: envelopeOf(actionList), ...REFUSALS },
  /** GET /v1/my/permissions */
  permissions: { 200: envelopeOf(myPermissions), ...REFUSALS },
} as const;
