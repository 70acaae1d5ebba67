import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Selectable } from 'kysely';
import type { Config } from '../config.js';
import type { DB } from '../db/connect.js';
import type { SignInFlowsTable } from '../db/schema.js';
import { loginLimiter } from '../auth/login-limit.js';
import { openSession } from '../auth/sessions.js';
import type { SessionCache } from '../auth/session-cache.js';
import { mayLogIn } from '../auth/user-info.js';
import { ok } from '../plugins/envelope.js';
import { BusinessError, FieldError, requestLang } from '../plugins/errors.js';
import { authenticate, currentUser, type AuthUser } from '../plugins/guard.js';
import type { Lang } from '../../shared/i18n/text.js';
import {
  identityProviderParams,
  providerTestBody,
  SIGN_IN_ANSWERS,
  signInCompleteBody,
  signInStartBody,
  type IdentityProviderParams,
  type ProviderTestBody,
  type SignInCompleteBody,
  type SignInCompleted,
  type SignInLink,
  type SignInOptions,
  type SignInStartBody,
  type TestReport,
} from '../../shared/calls/sign-in.js';
import { Checks, StepFailure, checkText } from './checks.js';
import { assertedAddress, claimsOf, domainOf, findAccount, linkAccount, roleAllowed, type Account } from './matching.js';
import { OidcClient, tokenIssuers, type Discovery, type IdClaims } from './oidc.js';
import { providerName, redirectUri, secretOf, type ProviderSettings, type ProviderSettingsService } from './settings.js';

/** How long a sign-in may take between its start and its completion. */
export const FLOW_MINUTES = 10;
const SCOPE = 'openid email profile';

type Flow = Selectable<SignInFlowsTable>;

const random = () => randomBytes(32).toString('base64url');
/** What the table keeps of a state or a browser key: its SHA-256, never the value. */
export const hashOf = (value: string) => createHash('sha256').update(value).digest('base64url');
const challengeOf = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/** An origin nothing of QE's lives at: a path read against it that names another origin is not QE's. */
const PROBE = 'https://qe.invalid';

/**
 * Where the user meant to go, kept for after the sign-in: a path of QE's client only (/qe/…, its
 * query kept: a reminder mail's link), with no `//` in it — never another host, however written
 * (`https://evil`, `//evil`, `/\evil`, `/qe/../..`, control characters): such a value refuses the
 * start (422 returnTo). Undefined or empty: none.
 */
export function returnPath(value: string | undefined): string | null {
  if (value === undefined || value === '') return null;
  const bad = () => new FieldError({ returnTo: { rule: 'signIn.returnTo' } });
  const path = value.split(/[?#]/, 1)[0];
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (!path.startsWith('/qe/') || path.includes('//') || value.includes('\\') || /[\u0000-\u001f\u007f]/.test(value)) throw bad();
  const url = URL.parse(value, PROBE);
  if (!url || url.origin !== PROBE || !url.pathname.startsWith('/qe/')) throw bad();
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * The issuer the callback named (RFC 9207), checked before the code goes anywhere: it must be the
 * provider the flow was started with; a provider that says it names itself must have done so.
 */
export function responseIssuer(given: string | undefined, discovery: Discovery, issuers: string[]): void {
  if (given === undefined ? discovery.authorization_response_iss_parameter_supported === true : !issuers.includes(given)) {
    throw new StepFailure('SIGN_IN_TOKEN_INVALID', 'wrongResponseIssuer', { found: given ?? '—', expected: issuers[0] });
  }
}

/** A step's failure of the provider itself, said before the browser is sent there (a start, a test's start). */
function refusal(error: unknown, provider: string, lang: Lang): unknown {
  if (!(error instanceof StepFailure)) return error;
  return new BusinessError(error.error, { provider, reason: checkText(lang, error.reason, error.params), ...error.errorParams });
}

/**
 * The sign-in with the school's accounts (docs/recipes/sign-in-with-school-accounts.md): the
 * authorization code flow with PKCE (S256), a random `state` and `nonce`, its state kept in the
 * database between the start and the callback (any instance completes what another started), and
 * completed once; then the ID token's checks, the address, the account and its type, and a session
 * as the password login opens one. A provider's test runs the same flow for the super
 * administrator who started it and answers every check instead of signing in.
 */
export class SignInFlows {
  private readonly limiter: ReturnType<typeof loginLimiter>;

  constructor(
    private readonly db: DB,
    private readonly config: Config,
    private readonly oidc: OidcClient,
    private readonly settings: ProviderSettingsService,
  ) {
    this.limiter = loginLimiter(db, config);
  }

  /** The enabled providers, in button order. */
  async options(): Promise<SignInOptions> {
    const rows = await this.db.selectFrom('identity_providers').select(['id', 'kind', 'name_hk', 'name_en']).where('enabled', '=', 1).orderBy('seq').orderBy('id').execute();
    return { providers: rows.map((r) => ({ id: r.id, kind: r.kind as ProviderSettings['kind'], nameHk: r.name_hk, nameEn: r.name_en })) };
  }

  /** Keeps a new flow and answers the provider's address to open. */
  private async begin(p: ProviderSettings, purpose: 'sign-in' | 'test', authorizationEndpoint: string, browserKey: string, redirect: string, returnTo: string | null, startedBy: number | null): Promise<SignInLink> {
    const state = random();
    const nonce = random();
    const verifier = random();
    const now = Date.now();
    // the flows nobody completed: gone once expired
    await this.db.deleteFrom('sign_in_flows').where('expires_at', '<', now).execute();
    await this.db
      .insertInto('sign_in_flows')
      .values({ state_hash: hashOf(state), provider_id: p.id, purpose, nonce, code_verifier: verifier, browser_key_hash: hashOf(browserKey), return_to: returnTo, redirect_uri: redirect, started_by: startedBy, created_at: now, expires_at: now + FLOW_MINUTES * 60_000 })
      .execute();
    const link = new URL(authorizationEndpoint);
    const params: Record<string, string> = { response_type: 'code', client_id: p.clientId, redirect_uri: redirect, scope: SCOPE, state, nonce, code_challenge: challengeOf(verifier), code_challenge_method: 'S256' };
    // one Workspace domain: Google offers its accounts only
    if (p.kind === 'google' && p.domains.length === 1) params.hd = p.domains[0];
    // a test may want another account than the one signed in at the provider
    if (purpose === 'test') params.prompt = 'login';
    for (const [k, v] of Object.entries(params)) link.searchParams.set(k, v);
    return { link: link.toString() };
  }

  /** POST /v1/sign-in/start */
  async start(body: SignInStartBody, request: FastifyRequest): Promise<SignInLink> {
    const lang = requestLang(request);
    const returnTo = returnPath(body.returnTo);
    const p = await this.settings.find(body.providerId);
    if (!p || !p.enabled) throw new BusinessError('SIGN_IN_OPTION_GONE');
    try {
      secretOf(p, this.config);
      const { value: discovery } = await this.oidc.discovery(p);
      return await this.begin(p, 'sign-in', discovery.authorization_endpoint, body.browserKey, redirectUri(this.config, request), returnTo, null);
    } catch (error) {
      throw refusal(error, providerName(p, lang), lang);
    }
  }

  /** POST /v1/identity-providers/:id/test: discovery and keys read anew first; refused if either fails. */
  async startTest(id: number, body: ProviderTestBody, request: FastifyRequest): Promise<SignInLink> {
    const lang = requestLang(request);
    const p = await this.settings.get(id);
    try {
      secretOf(p, this.config);
      const { value: discovery } = await this.oidc.discovery(p, true);
      await this.oidc.keys(discovery);
      return await this.begin(p, 'test', discovery.authorization_endpoint, body.browserKey, redirectUri(this.config, request), null, currentUser(request).id);
    } catch (error) {
      throw refusal(error, providerName(p, lang), lang);
    }
  }

  /**
   * The flow of a completion, taken once: deleted as it is read (one statement, atomic on both
   * databases), so that of any number of completions of one state — on any instance — exactly one
   * goes on. Only with the browser key it started with; a test's only by the super administrator
   * who started it.
   */
  private async take(body: SignInCompleteBody, caller: AuthUser | null): Promise<Flow> {
    const stateHash = hashOf(body.state);
    const keyHash = hashOf(body.browserKey);
    const tester = caller?.permissions.has('sign-in.edit') ? caller.id : -1;
    const flow = await this.db
      .deleteFrom('sign_in_flows')
      .where('state_hash', '=', stateHash)
      .where('browser_key_hash', '=', keyHash)
      .where((eb) => eb.or([eb('purpose', '=', 'sign-in'), eb('started_by', '=', tester)]))
      .returningAll()
      .executeTakeFirst();
    if (!flow) {
      const test = await this.db.selectFrom('sign_in_flows').select('purpose').where('state_hash', '=', stateHash).where('browser_key_hash', '=', keyHash).where('purpose', '=', 'test').executeTakeFirst();
      throw new BusinessError(test ? 'SIGN_IN_TEST_NOT_YOURS' : 'SIGN_IN_FLOW_INVALID');
    }
    if (Number(flow.expires_at) < Date.now()) throw new BusinessError('SIGN_IN_FLOW_INVALID');
    return flow;
  }

  /** POST /v1/sign-in/complete */
  async complete(body: SignInCompleteBody, request: FastifyRequest, sessions: SessionCache): Promise<SignInCompleted> {
    const lang = requestLang(request);
    // every completion counts against the address, before anything is read or fetched
    const attempt = await this.limiter.signIn(request.ip);
    // a test is completed by its super administrator, logged in: a sign-in needs no session
    const caller = request.headers.authorization ? await authenticate(sessions, request).catch(() => null) : null;
    const flow = await this.take(body, caller);
    const p = await this.settings.get(flow.provider_id);
    if (flow.purpose === 'sign-in' && !p.enabled) throw new BusinessError('SIGN_IN_OPTION_GONE');
    const test = flow.purpose === 'test';
    const checks = new Checks(test ? 'test' : 'sign-in', lang, providerName(p, lang));

    const discovery = await checks.step('discovery', () => this.oidc.discovery(p, test));
    await checks.step('keys', async () => (test && discovery ? this.oidc.keys(discovery) : { value: 0, detail: 'keysOk', params: { url: discovery?.jwks_uri ?? '', count: '—' } }));
    const idToken = await checks.step('token', async () => {
      // a code another provider issued is never sent to this one's token endpoint (the mix-up of RFC 9207)
      responseIssuer(body.iss, discovery!, tokenIssuers(p.kind, discovery!.issuer));
      return this.oidc.exchange(discovery!, { code: body.code, redirectUri: flow.redirect_uri, verifier: flow.code_verifier, clientId: p.clientId, secret: secretOf(p, this.config) });
    });
    const claims: IdClaims | null = await checks.step('idToken', () => this.oidc.verify(discovery!, idToken!, { issuers: tokenIssuers(p.kind, discovery!.issuer), clientId: p.clientId, nonce: flow.nonce }));
    const address = await checks.step('email', async () => assertedAddress(p, claims!, lang));
    await checks.step('domain', async () => domainOf(p, address!, lang));
    const found = await checks.step('account', async () => {
      // the ID token is verified by now: no guess, so the account's password counter is left alone
      // (wrong passwords typed for its username must not shut its owner out of this sign-in)
      const match = await findAccount(this.db, p.id, String(claims!.sub), address!, lang);
      if (!mayLogIn(match.value.user)) {
        if (!test) throw new BusinessError('ACCOUNT_DISABLED');
        throw new StepFailure('ACCOUNT_DISABLED', 'disabled', { username: match.value.user.username });
      }
      return match;
    });
    const account: Account | null = found?.user ?? null;
    await checks.step('role', async () => roleAllowed(p, account!, lang));

    if (test) {
      if (checks.ok) await attempt.succeeded();
      const report: TestReport = {
        ok: checks.ok,
        steps: checks.steps,
        claims: claimsOf(claims),
        account: account ? { userId: account.id, nameHk: account.name_hk, nameEn: account.name_en, userType: account.user_type } : null,
      };
      return { purpose: 'test', report };
    }
    const user = account!;
    const now = new Date().toISOString();
    if (!found!.linked) await linkAccount(this.db, p.id, user.id, String(claims!.sub), address!.email, now);
    await this.db.updateTable('sign_in_links').set({ last_used_at: now }).where('provider_id', '=', p.id).where('subject', '=', String(claims!.sub)).execute();
    // as the password login: this login's time, the one before it, the language for mails
    await this.db.updateTable('users').set({ last_login: user.login_time, login_time: now, language: lang }).where('id', '=', user.id).execute();
    // a Google Workspace account signed in with is the user's Google account for questionnaires too,
    // unless another account has it (a Google address stays unique, as master data keeps it)
    if (p.kind === 'google' && user.google_mail !== address!.email) {
      const holder = await this.db.selectFrom('users').select('id').where('google_mail', '=', address!.email).where('id', '!=', user.id).executeTakeFirst();
      if (!holder) await this.db.updateTable('users').set({ google_mail: address!.email, updated_at: now }).where('id', '=', user.id).execute();
    }
    const tk = await openSession(this.db, this.config, user.id);
    await attempt.succeeded();
    return { purpose: 'sign-in', tk, userId: user.id, returnTo: flow.return_to };
  }
}

const tags = ['sign-in'];

export async function flowRoutes(app: FastifyInstance, { flows, sessions }: { flows: SignInFlows; sessions: SessionCache }) {
  app.get('/v1/sign-in/options', {
    config: { permission: 'public' },
    schema: { tags, summary: 'The school’s sign-in options for the login page: the enabled providers {id, kind, nameHk, nameEn}, in order', response: SIGN_IN_ANSWERS.options },
  }, async () => ok(await flows.options()));

  app.post<{ Body: SignInStartBody }>('/v1/sign-in/start', {
    // a whole school may sign in from one address at 8 o'clock: the per-address ceiling is high
    config: { permission: 'public', addressLimit: { max: 600, windowMs: 60_000 } },
    schema: { tags, summary: 'Starts a sign-in: the provider’s address to open (code flow, PKCE S256, state and nonce); the flow is kept 10 minutes for this browser key. returnTo: a path of QE (/qe/…), else 422', body: signInStartBody, response: SIGN_IN_ANSWERS.link },
  }, async (request) => ok(await flows.start(request.body, request)));

  app.post<{ Body: SignInCompleteBody }>('/v1/sign-in/complete', {
    config: { permission: 'public' },
    schema: {
      tags,
      summary: 'Completes a sign-in from /qe/sign-in-callback (code, state, the browser key it started with), once: {purpose: sign-in, tk, userId, returnTo}; a provider’s test (the Authorization of the super administrator who started it): {purpose: test, report}. Counted as login tries (702)',
      body: signInCompleteBody,
      response: SIGN_IN_ANSWERS.completed,
    },
  }, async (request) => ok(await flows.complete(request.body, request, sessions)));

  app.post<{ Params: IdentityProviderParams; Body: ProviderTestBody }>('/v1/identity-providers/:id/test', {
    config: { permission: 'sign-in.edit' },
    schema: { tags, summary: 'Tests a provider: its discovery document and keys read now (refused with the reason if they fail), then the provider’s address to sign in at; the callback answers every check without signing in', params: identityProviderParams, body: providerTestBody, response: SIGN_IN_ANSWERS.link },
  }, async (request) => ok(await flows.startTest(request.params.id, request.body, request)));
}
