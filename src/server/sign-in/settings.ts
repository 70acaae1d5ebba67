import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Selectable } from 'kysely';
import type { Config } from '../config.js';
import type { DB } from '../db/connect.js';
import type { IdentityProvidersTable } from '../db/schema.js';
import { open, seal, UnreadableSecret } from '../mail/secret.js';
import { ok } from '../plugins/envelope.js';
import { BusinessError, FieldError, requestLang } from '../plugins/errors.js';
import { currentUser } from '../plugins/guard.js';
import type { Lang } from '../../shared/i18n/text.js';
import {
  identityProviderBody,
  identityProviderParams,
  SIGN_IN_ANSWERS,
  type IdentityProvider,
  type IdentityProviderBody,
  type IdentityProviderParams,
  type ProviderKind,
} from '../../shared/calls/sign-in.js';
import { StepFailure } from './checks.js';

type FieldErrors = ConstructorParameters<typeof FieldError>[0];
type Row = Selectable<IdentityProvidersTable>;

/** The sealed secret's context (mail/secret.ts): a key of its own, apart from the SMTP password's. */
export const SECRET_CONTEXT = 'identity_providers.secret';

/** Microsoft's shared endpoints: any organisation's (or any personal) account signs in there, never only the school's. */
const SHARED_TENANTS = new Set(['common', 'organizations', 'consumers']);
const TENANT = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+)$/;
export const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** A configured provider as the sign-in reads it. */
export interface ProviderSettings {
  id: number;
  kind: ProviderKind;
  nameHk: string;
  nameEn: string;
  tenant: string | null;
  issuer: string;
  clientId: string;
  /** the secret sealed with the server secret, or null */
  secret: string | null;
  secretEnv: string | null;
  domains: string[];
  roles: string[];
  enabled: boolean;
  seq: number;
}

const list = (json: string): string[] => {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
};

export function settingsOf(row: Row): ProviderSettings {
  return {
    id: row.id,
    kind: row.kind as ProviderKind,
    nameHk: row.name_hk,
    nameEn: row.name_en,
    tenant: row.tenant,
    issuer: row.issuer,
    clientId: row.client_id,
    secret: row.secret,
    secretEnv: row.secret_env,
    domains: list(row.domains),
    roles: list(row.roles),
    enabled: row.enabled === 1,
    seq: row.seq,
  };
}

/** The provider's name in a language: what its button says, and what the errors name. */
export const providerName = (p: Pick<ProviderSettings, 'nameHk' | 'nameEn'>, lang: Lang) => (lang === 'en' ? p.nameEn : p.nameHk);

/**
 * The client secret in clear, as the token request needs it: opened from its sealed copy, or read
 * from the environment variable named; null for a provider without one. A variable not set on
 * this instance, or a copy sealed under another QE_SECRET: SIGN_IN_SECRET_MISSING, which says so.
 */
export function secretOf(p: ProviderSettings, config: Config): string | null {
  if (p.secretEnv) {
    const value = process.env[p.secretEnv];
    if (!value) throw new StepFailure('SIGN_IN_SECRET_MISSING', 'secretEnvUnset', { name: p.secretEnv });
    return value;
  }
  if (!p.secret) return null;
  try {
    return open(config.secret, SECRET_CONTEXT, p.secret);
  } catch (error) {
    if (error instanceof UnreadableSecret) throw new StepFailure('SIGN_IN_SECRET_MISSING', 'secretUnreadable');
    throw error;
  }
}

/**
 * Where the provider sends the browser back: the client's /sign-in-callback page at QE_PUBLIC_URL,
 * or, where that is unset, at the address the request came to (as the Google binding's redirect
 * does: src/server/google/index.ts). The provider sends its code only to an address registered
 * for the school's client, and the code is worth nothing without the flow's PKCE verifier, which
 * never leaves the database; a flow keeps the address it started with for its token request.
 */
export function redirectUri(config: Config, request: FastifyRequest): string {
  const origin = config.publicUrl ?? `${request.protocol}://${request.host}`;
  return `${origin}/qe/sign-in-callback`;
}

/** An issuer address a school may give for a generic provider: https, or http on this machine only (a provider run for tests). */
function issuerAllowed(value: string): boolean {
  const url = URL.parse(value);
  if (!url || url.username || url.password || url.search || url.hash || /[?#]/.test(value)) return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname));
}

/** What the table keeps of a body, checked (422 naming each field); `existing` for an edit. */
function columnsOf(body: IdentityProviderBody, existing: ProviderSettings | null, config: Config): Omit<IdentityProvidersTable, 'id' | 'created_at' | 'updated_at'> {
  const errors: FieldErrors = {};
  let tenant: string | null = null;
  let issuer: string;
  if (body.kind === 'microsoft') {
    tenant = body.tenant?.trim().toLowerCase() || null;
    if (!tenant) errors.tenant = { rule: 'required' };
    else if (SHARED_TENANTS.has(tenant)) errors.tenant = { rule: 'signIn.tenantShared' };
    else if (!TENANT.test(tenant)) errors.tenant = { rule: 'signIn.tenant' };
    issuer = `${config.signIn.microsoftAuthority}/${tenant ?? ''}/v2.0`;
  } else if (body.kind === 'google') {
    issuer = config.signIn.googleIssuer;
  } else {
    issuer = body.issuer?.trim() ?? '';
    if (!issuer) errors.issuer = { rule: 'required' };
    else if (!issuerAllowed(issuer)) errors.issuer = { rule: 'signIn.issuer' };
  }
  const domains = [...new Set(body.domains.map((d) => d.toLowerCase()))];
  if (!domains.length) errors.domains = { rule: 'required' };
  if (!body.roles.length) errors.roles = { rule: 'required' };

  // the secret: given (sealed), or named by a variable, or kept; never both
  const secretEnv = body.secretEnv?.trim() || null;
  let secret = existing?.secret ?? null;
  let env = existing?.secretEnv ?? null;
  if (body.secret !== undefined && secretEnv) errors.secretEnv = { rule: 'signIn.secretBoth' };
  else if (body.secret !== undefined) {
    secret = seal(config.secret, SECRET_CONTEXT, body.secret);
    env = null;
  } else if (secretEnv) {
    if (!process.env[secretEnv]) errors.secretEnv = { rule: 'signIn.secretEnvUnset', params: { name: secretEnv } };
    env = secretEnv;
    secret = null;
  } else if ('secretEnv' in body) {
    // the variable given up: no secret, unless one is stored
    env = null;
  }
  if (body.kind !== 'oidc' && !secret && !env && !errors.secretEnv) errors.secret = { rule: 'signIn.secretNeeded' };
  if (Object.keys(errors).length) throw new FieldError(errors);
  return {
    kind: body.kind,
    name_hk: body.nameHk,
    name_en: body.nameEn,
    tenant,
    issuer,
    client_id: body.clientId,
    secret,
    secret_env: env,
    domains: JSON.stringify(domains),
    roles: JSON.stringify(body.roles),
    enabled: body.enabled ? 1 : 0,
    seq: body.seq ?? existing?.seq ?? 0,
  };
}

/** What a change of the providers asks of the password login per user type (password-policy.ts): that no type is left without both. */
export interface PolicyGuard {
  refuseUncovered(lang: Lang, providers: Pick<ProviderSettings, 'enabled' | 'roles'>[]): Promise<void>;
}

/** The providers the super administrator configures (GET/POST/PUT/DELETE /v1/identity-providers). */
export class ProviderSettingsService {
  constructor(
    private readonly db: DB,
    private readonly config: Config,
    private readonly policy: PolicyGuard,
  ) {}

  async all(): Promise<ProviderSettings[]> {
    return (await this.db.selectFrom('identity_providers').selectAll().orderBy('seq').orderBy('id').execute()).map(settingsOf);
  }

  async find(id: number): Promise<ProviderSettings | null> {
    const row = await this.db.selectFrom('identity_providers').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? settingsOf(row) : null;
  }

  async get(id: number): Promise<ProviderSettings> {
    const found = await this.find(id);
    if (!found) throw new BusinessError('RECORD_NOT_FOUND');
    return found;
  }

  /** A provider as the settings screen shows it: its secret only as where it comes from. */
  private answer(p: ProviderSettings, links: number, redirect: string): IdentityProvider {
    return {
      id: p.id,
      kind: p.kind,
      nameHk: p.nameHk,
      nameEn: p.nameEn,
      tenant: p.tenant,
      issuer: p.issuer,
      clientId: p.clientId,
      secretSource: p.secretEnv ? 'environment' : p.secret ? 'stored' : 'none',
      secretEnv: p.secretEnv,
      domains: p.domains,
      roles: p.roles,
      enabled: p.enabled,
      seq: p.seq,
      redirectUri: redirect,
      links,
    };
  }

  private async linkCounts(): Promise<Map<number, number>> {
    const rows = await this.db.selectFrom('sign_in_links').select((eb) => ['provider_id', eb.fn.countAll<number | string>().as('n')]).groupBy('provider_id').execute();
    return new Map(rows.map((r) => [r.provider_id, Number(r.n)]));
  }

  async list(redirect: string): Promise<IdentityProvider[]> {
    const counts = await this.linkCounts();
    return (await this.all()).map((p) => this.answer(p, counts.get(p.id) ?? 0, redirect));
  }

  async one(id: number, redirect: string): Promise<IdentityProvider> {
    const counts = await this.linkCounts();
    return this.answer(await this.get(id), counts.get(id) ?? 0, redirect);
  }

  async create(body: IdentityProviderBody, redirect: string): Promise<IdentityProvider> {
    const columns = columnsOf(body, null, this.config);
    const now = new Date().toISOString();
    const { id } = await this.db.insertInto('identity_providers').values({ ...columns, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
    return this.one(id, redirect);
  }

  async update(id: number, body: IdentityProviderBody, redirect: string, lang: Lang): Promise<IdentityProvider> {
    const existing = await this.get(id);
    const columns = columnsOf(body, existing, this.config);
    // a user type whose password login is off must keep a provider that signs it in
    await this.policy.refuseUncovered(lang, (await this.all()).map((p) => (p.id === id ? { ...p, enabled: body.enabled, roles: body.roles } : p)));
    await this.db.updateTable('identity_providers').set({ ...columns, updated_at: new Date().toISOString() }).where('id', '=', id).execute();
    return this.one(id, redirect);
  }

  /** Deletes a provider, its links and its sign-ins under way with it. */
  async remove(id: number, lang: Lang): Promise<void> {
    await this.get(id);
    await this.policy.refuseUncovered(lang, (await this.all()).filter((p) => p.id !== id));
    await this.db.deleteFrom('identity_providers').where('id', '=', id).execute();
  }
}

const tags = ['sign-in'];

/**
 * Who may change how people sign in: a super administrator, whatever permissions a role holds. A
 * provider signs in every account of the types it covers (a super administrator too), so setting
 * one up is as strong as being any of them; `sign-in.edit` given to another role must not make
 * its holders that.
 */
export function superAdministratorOnly(request: FastifyRequest): void {
  if (currentUser(request).userType !== 'SUPER_ADMIN') throw new BusinessError('SIGN_IN_SUPER_ADMIN_ONLY');
}

export async function settingsRoutes(app: FastifyInstance, { config, settings }: { config: Config; settings: ProviderSettingsService }) {
  app.get('/v1/identity-providers', {
    config: { permission: 'sign-in.view' },
    schema: { tags, summary: 'The school’s sign-in providers, in button order; secrets never, only where each comes from (secretSource)', response: SIGN_IN_ANSWERS.providers },
  }, async (request) => ok(await settings.list(redirectUri(config, request))));

  app.post<{ Body: IdentityProviderBody }>('/v1/identity-providers', {
    config: { permission: 'sign-in.edit' },
    schema: { tags, summary: 'Adds a provider: microsoft (its tenant, never common/organizations/consumers), google, or any OpenID Connect issuer (https); the secret is sealed, or named by an environment variable', body: identityProviderBody, response: SIGN_IN_ANSWERS.provider },
  }, async (request) => {
    superAdministratorOnly(request);
    return ok(await settings.create(request.body, redirectUri(config, request)), 201);
  });

  app.put<{ Params: IdentityProviderParams; Body: IdentityProviderBody }>('/v1/identity-providers/:id', {
    config: { permission: 'sign-in.edit' },
    schema: { tags, summary: 'Changes a provider; without `secret` the stored one is kept. 779 when a user type whose password login is off would be left without a provider', params: identityProviderParams, body: identityProviderBody, response: SIGN_IN_ANSWERS.provider },
  }, async (request) => {
    superAdministratorOnly(request);
    return ok(await settings.update(request.params.id, request.body, redirectUri(config, request), requestLang(request)));
  });

  app.delete<{ Params: IdentityProviderParams }>('/v1/identity-providers/:id', {
    config: { permission: 'sign-in.edit' },
    schema: { tags, summary: 'Deletes a provider with its account links', params: identityProviderParams, response: SIGN_IN_ANSWERS.removed },
  }, async (request) => {
    superAdministratorOnly(request);
    await settings.remove(request.params.id, requestLang(request));
    return ok(null);
  });
}
