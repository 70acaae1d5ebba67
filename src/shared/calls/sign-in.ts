import { envelopeOf, REFUSALS, type Shape } from './envelope.js';
import { idSchema } from './parts.js';

/**
 * Sign-in with the school's own accounts through OpenID Connect (src/server/sign-in/): the
 * identity providers the super administrator configures, the flow the login screen starts and
 * the callback page completes, the password rule per role, and the links between QE accounts
 * and provider accounts — described once (docs/conventions.md#call-shapes).
 */

export const PROVIDER_KINDS = ['microsoft', 'google', 'oidc'] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

/** Roles a provider may sign in (the super administrator keeps a password: never locked out by a provider's outage). */
export const SIGN_IN_ROLES = ['SUPER_ADMIN', 'ADMIN', 'TEACHER', 'STUDENT'] as const;
/** Roles whose password login the school may turn off. */
export const PASSWORD_POLICY_ROLES = ['ADMIN', 'TEACHER', 'STUDENT'] as const;

const roleList = { type: 'array', uniqueItems: true, maxItems: 4, items: { type: 'string', enum: SIGN_IN_ROLES } } as const;
const domainList = {
  type: 'array',
  uniqueItems: true,
  maxItems: 20,
  description: 'the e-mail domains whose accounts may sign in (lower case, e.g. school.edu.hk)',
  items: { type: 'string', minLength: 3, maxLength: 253, pattern: '^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)+$' },
} as const;
/** 32 random bytes the browser made and keeps in its session storage; the flow completes only with it (no login forced on someone else's browser). */
const browserKey = { type: 'string', minLength: 43, maxLength: 43, pattern: '^[A-Za-z0-9_-]{43}$' } as const;

/** The name a provider's button shows. */
const providerNames = {
  nameHk: { type: 'string', minLength: 1, maxLength: 60 },
  nameEn: { type: 'string', minLength: 1, maxLength: 60 },
} as const;

// ---------------------------------------------------------------- the login screen (public)

/** GET /v1/sign-in/options: the enabled providers, in the order the super administrator set */
export const signInOptions = {
  type: 'object',
  required: ['providers'],
  additionalProperties: false,
  properties: {
    providers: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'kind', 'nameHk', 'nameEn'],
        additionalProperties: false,
        properties: { id: idSchema, kind: { type: 'string', enum: PROVIDER_KINDS }, ...providerNames },
      },
    },
  },
} as const;
export type SignInOptions = Shape<typeof signInOptions>;

/** POST /v1/sign-in/start */
export const signInStartBody = {
  type: 'object',
  required: ['providerId', 'browserKey'],
  additionalProperties: false,
  properties: {
    providerId: idSchema,
    browserKey,
    returnTo: { type: 'string', maxLength: 2000, description: "where the user meant to go: a path of QE's client (/qe/…), never another host" },
  },
} as const;
export type SignInStartBody = Shape<typeof signInStartBody>;

/** POST /v1/sign-in/start and POST /v1/identity-providers/:id/test: the provider's address to open */
export const signInLink = {
  type: 'object',
  required: ['link'],
  additionalProperties: false,
  properties: { link: { type: 'string', description: "the provider's authorization address (code flow with PKCE, state and nonce)" } },
} as const;
export type SignInLink = Shape<typeof signInLink>;

/** POST /v1/sign-in/complete: what the provider sent back to /qe/sign-in-callback */
export const signInCompleteBody = {
  type: 'object',
  required: ['code', 'state', 'browserKey'],
  additionalProperties: false,
  properties: {
    code: { type: 'string', minLength: 1, maxLength: 4000 },
    state: { type: 'string', minLength: 1, maxLength: 200 },
    browserKey,
    iss: { type: 'string', maxLength: 500, description: "the callback's `iss` (RFC 9207), where the provider sends one: it must be the issuer the flow was started with" },
  },
} as const;
export type SignInCompleteBody = Shape<typeof signInCompleteBody>;

/** One check of a provider's test, in the caller's language. */
export const testStep = {
  type: 'object',
  required: ['step', 'ok', 'detail'],
  additionalProperties: false,
  properties: {
    step: { type: 'string', enum: ['discovery', 'keys', 'token', 'idToken', 'email', 'domain', 'account', 'role'] },
    ok: { type: 'boolean' },
    detail: { type: 'string', description: 'what was found, or what went wrong in words an IT officer can act on' },
  },
} as const;
export type TestStep = Shape<typeof testStep>;

/** The report of a provider's test: every check made, what the provider asserted, the QE account it matched */
export const testReport = {
  type: 'object',
  required: ['ok', 'steps', 'claims', 'account'],
  additionalProperties: false,
  properties: {
    ok: { type: 'boolean' },
    steps: { type: 'array', items: testStep },
    claims: {
      type: ['object', 'null'],
      additionalProperties: false,
      required: ['subject', 'email', 'emailVerified', 'name'],
      properties: { subject: { type: 'string' }, email: { type: ['string', 'null'] }, emailVerified: { type: 'boolean' }, name: { type: ['string', 'null'] } },
    },
    account: {
      type: ['object', 'null'],
      additionalProperties: false,
      required: ['userId', 'nameHk', 'nameEn', 'userType'],
      properties: { userId: idSchema, nameHk: { type: 'string' }, nameEn: { type: 'string' }, userType: { type: 'string' } },
    },
  },
} as const;
export type TestReport = Shape<typeof testReport>;

/** POST /v1/sign-in/complete: signed in (a session, like the password login's), or a test's report */
export const signInCompleted = {
  type: 'object',
  required: ['purpose'],
  additionalProperties: false,
  properties: {
    purpose: { type: 'string', enum: ['sign-in', 'test'] },
    tk: { type: 'string', description: 'sign-in: the session token' },
    userId: idSchema,
    returnTo: { type: ['string', 'null'], description: 'sign-in: the path the user meant to go to' },
    report: testReport,
  },
} as const;
export type SignInCompleted = Shape<typeof signInCompleted>;

// ---------------------------------------------------------------- the super administrator's settings

/** POST /v1/identity-providers, PUT /v1/identity-providers/:id */
export const identityProviderBody = {
  type: 'object',
  required: ['kind', 'nameHk', 'nameEn', 'clientId', 'domains', 'roles', 'enabled'],
  additionalProperties: false,
  properties: {
    kind: { type: 'string', enum: PROVIDER_KINDS },
    ...providerNames,
    tenant: { type: ['string', 'null'], maxLength: 100, description: 'microsoft: the Entra ID tenant (its id or its domain)' },
    issuer: { type: ['string', 'null'], maxLength: 500, description: 'oidc: the issuer address (https; http only on this machine)' },
    clientId: { type: 'string', minLength: 1, maxLength: 300 },
    secret: { type: 'string', minLength: 1, maxLength: 1000, description: 'stored sealed with the server key, never answered; left out on an edit: kept' },
    secretEnv: { type: ['string', 'null'], maxLength: 100, pattern: '^[A-Z_][A-Z0-9_]*$', description: 'or: the environment variable that holds the secret' },
    domains: domainList,
    roles: roleList,
    enabled: { type: 'boolean' },
    seq: { type: 'integer', minimum: 0, maximum: 999 },
  },
} as const;
export type IdentityProviderBody = Shape<typeof identityProviderBody>;

/** A configured provider, as the settings screen shows it: never its secret */
export const identityProvider = {
  type: 'object',
  required: ['id', 'kind', 'nameHk', 'nameEn', 'tenant', 'issuer', 'clientId', 'secretSource', 'secretEnv', 'domains', 'roles', 'enabled', 'seq', 'redirectUri', 'links'],
  additionalProperties: false,
  properties: {
    id: idSchema,
    kind: { type: 'string', enum: PROVIDER_KINDS },
    ...providerNames,
    tenant: { type: ['string', 'null'] },
    issuer: { type: 'string', description: 'the issuer used (derived from the tenant for microsoft, fixed for google)' },
    clientId: { type: 'string' },
    secretSource: { type: 'string', enum: ['stored', 'environment', 'none'] },
    secretEnv: { type: ['string', 'null'] },
    domains: { type: 'array', items: { type: 'string' } },
    roles: { type: 'array', items: { type: 'string' } },
    enabled: { type: 'boolean' },
    seq: { type: 'integer' },
    redirectUri: { type: 'string', description: "the redirect address to register at the provider" },
    links: { type: 'integer', description: 'how many QE accounts are linked through it' },
  },
} as const;
export type IdentityProvider = Shape<typeof identityProvider>;

export const identityProviderParams = { type: 'object', required: ['id'], additionalProperties: false, properties: { id: { type: 'integer', minimum: 1 } } } as const;
export type IdentityProviderParams = Shape<typeof identityProviderParams>;

/** POST /v1/identity-providers/:id/test */
export const providerTestBody = { type: 'object', required: ['browserKey'], additionalProperties: false, properties: { browserKey } } as const;
export type ProviderTestBody = Shape<typeof providerTestBody>;

/** GET/PUT /v1/sign-in/password-policy: per role, whether a password login stays allowed */
export const passwordPolicy = {
  type: 'object',
  required: ['ADMIN', 'TEACHER', 'STUDENT'],
  additionalProperties: false,
  properties: { ADMIN: { type: 'boolean' }, TEACHER: { type: 'boolean' }, STUDENT: { type: 'boolean' } },
} as const;
export type PasswordPolicy = Shape<typeof passwordPolicy>;

// ---------------------------------------------------------------- links between accounts

/** A QE account's link to a provider's account */
export const signInLinkRow = {
  type: 'object',
  required: ['id', 'providerId', 'kind', 'nameHk', 'nameEn', 'email', 'linkedAt', 'lastUsedAt'],
  additionalProperties: false,
  properties: {
    id: idSchema,
    providerId: idSchema,
    kind: { type: 'string', enum: PROVIDER_KINDS },
    ...providerNames,
    email: { type: ['string', 'null'], description: 'the address the provider asserted when it was linked' },
    linkedAt: { type: 'string' },
    lastUsedAt: { type: ['string', 'null'] },
  },
} as const;
export type SignInLinkRow = Shape<typeof signInLinkRow>;
export const signInLinkList = { type: 'array', items: signInLinkRow } as const;
export type SignInLinkList = Shape<typeof signInLinkList>;

/** GET /v1/users/:userId/sign-in-links, DELETE /v1/users/:userId/sign-in-links/:linkId */
export const userLinksParams = { type: 'object', required: ['userId'], additionalProperties: false, properties: { userId: { type: 'integer', minimum: 1 } } } as const;
export type UserLinksParams = Shape<typeof userLinksParams>;
export const userLinkParams = {
  type: 'object',
  required: ['userId', 'linkId'],
  additionalProperties: false,
  properties: { userId: { type: 'integer', minimum: 1 }, linkId: { type: 'integer', minimum: 1 } },
} as const;
export type UserLinkParams = Shape<typeof userLinkParams>;

export const SIGN_IN_ANSWERS = {
  /** GET /v1/sign-in/options */
  options: { 200: envelopeOf(signInOptions), ...REFUSALS },
  /** POST /v1/sign-in/start, POST /v1/identity-providers/:id/test */
  link: { 200: envelopeOf(signInLink), ...REFUSALS },
  /** POST /v1/sign-in/complete */
  completed: { 200: envelopeOf(signInCompleted), ...REFUSALS },
  /** GET /v1/identity-providers */
  providers: { 200: envelopeOf({ type: 'array', items: identityProvider }), ...REFUSALS },
  /** POST, PUT /v1/identity-providers(/:id) */
  provider: { 200: envelopeOf(identityProvider), ...REFUSALS },
  /** DELETE /v1/identity-providers/:id, DELETE …/sign-in-links/:linkId: nothing in `data` */
  removed: { 200: envelopeOf({ type: 'null' }), ...REFUSALS },
  /** GET/PUT /v1/sign-in/password-policy */
  passwordPolicy: { 200: envelopeOf(passwordPolicy), ...REFUSALS },
  /** GET /v1/my/sign-in-links, GET /v1/users/:userId/sign-in-links */
  links: { 200: envelopeOf(signInLinkList), ...REFUSALS },
} as const;
