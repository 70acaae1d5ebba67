import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import type { Config } from '../config.js';
import { StepFailure, type Found } from './checks.js';
import { LOOPBACK, type ProviderSettings } from './settings.js';

/**
 * QE as an OpenID Connect relying party: the provider's discovery document and signing keys, the
 * exchange of the authorization code, and the checks of the ID token. Every request to a provider
 * has a time limit (QE_SIGN_IN_TIMEOUT_MS) and every failure is a StepFailure naming the address
 * and what happened, so that a provider that is down or slow is told within that time and never
 * holds a caller — and the password login, which never calls a provider, is untouched by it.
 *
 * What is kept in this process — discovery documents for ten minutes, and the key sets, which
 * jose's remote set fetches again when a token names a key it does not know — is a cache of what
 * the provider publishes: a sign-in's own state lives in the database (flow.ts).
 */

/** The parts of a discovery document QE reads (OpenID Connect Discovery 1.0). */
export interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  token_endpoint_auth_methods_supported?: string[];
  code_challenge_methods_supported?: string[];
  /** RFC 9207: the provider names itself in the authorization response (`iss`) */
  authorization_response_iss_parameter_supported?: boolean;
}

/** What the provider asserts of the signed-in account, from its ID token. */
export type IdClaims = JWTPayload & Record<string, unknown>;

const DISCOVERY_TTL_MS = 10 * 60_000;
/** Signing algorithms QE accepts: the asymmetric ones (the key is the provider's, published), never none or a shared secret. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];
/** A discovery document, a key set or a token answer is a few kilobytes: far more is not one. */
const MAX_ANSWER_BYTES = 512 * 1024;
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/** A claim's value as a message shows it: short. */
const shownValue = (v: unknown) => JSON.stringify(v ?? null).slice(0, 40);

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Where a provider's discovery document is, and which issuer it must name. */
export function discoveryTarget(settings: Pick<ProviderSettings, 'kind' | 'issuer' | 'tenant'>, config: Config): { url: string; issuer: string | RegExp } {
  if (settings.kind === 'microsoft') {
    const authority = config.signIn.microsoftAuthority;
    const tenant = settings.tenant ?? '';
    const url = `${authority}/${tenant}/v2.0/.well-known/openid-configuration`;
    if (new RegExp(`^${UUID}$`, 'i').test(tenant)) return { url, issuer: `${authority}/${tenant.toLowerCase()}/v2.0` };
    // a tenant given by its domain: the document names the tenant's id, and the tokens then must carry that issuer
    return { url, issuer: new RegExp(`^${escapeRegExp(authority)}/${UUID}/v2\\.0$`, 'i') };
  }
  return { url: `${settings.issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`, issuer: settings.issuer };
}

/** The issuers a provider's ID tokens may name: the discovered one; Google's without its scheme too (Google documents both). */
export function tokenIssuers(kind: string, discovered: string): string[] {
  return kind === 'google' ? [discovered, discovered.replace(/^https:\/\//, '')] : [discovered];
}

/** Why a request failed, in a few words (a code such as ECONNREFUSED where Node gives one). */
function networkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

/**
 * The answer's text, read no further than `max` bytes: null when it is longer (a provider that
 * streams gigabytes within the time limit is not read whole into memory).
 */
async function textWithin(response: Response, max: number): Promise<string | null> {
  if (Number(response.headers.get('content-length')) > max) {
    await response.body?.cancel();
    return null;
  }
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (let part = await reader.read(); !part.done; part = await reader.read()) {
    size += part.value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(part.value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const isTimeout = (error: unknown) => error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');

export class OidcClient {
  private readonly discoveries = new Map<string, { doc: Discovery; at: number }>();
  /** reads of a discovery document under way: a burst of sign-ins waits for one, not one each (a provider that is down is asked once per time limit) */
  private readonly reading = new Map<string, Promise<Found<Discovery>>>();
  private readonly keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

  constructor(private readonly config: Config) {}

  private get timeoutMs(): number {
    return this.config.signIn.timeoutMs;
  }

  private get seconds(): number {
    return Math.round(this.timeoutMs / 100) / 10;
  }

  /**
   * A request to a provider within the time limit: its status and JSON answer. Unreachable, slow,
   * too large or not JSON: a StepFailure with `failure` as its business error.
   */
  private async request(url: string, init: RequestInit, failure: 'SIGN_IN_PROVIDER_UNAVAILABLE' | 'SIGN_IN_PROVIDER_REFUSED' = 'SIGN_IN_PROVIDER_UNAVAILABLE'): Promise<{ status: number; body: unknown }> {
    let text: string | null;
    let status: number;
    try {
      const response = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(this.timeoutMs) });
      status = response.status;
      text = await textWithin(response, MAX_ANSWER_BYTES);
    } catch (error) {
      if (isTimeout(error)) throw new StepFailure('SIGN_IN_PROVIDER_UNAVAILABLE', 'timeout', { url, seconds: this.seconds });
      throw new StepFailure('SIGN_IN_PROVIDER_UNAVAILABLE', 'unreachable', { url, error: networkError(error) });
    }
    if (text === null) throw new StepFailure(failure, 'tooLarge', { url, kilobytes: MAX_ANSWER_BYTES / 1024 });
    try {
      return { status, body: JSON.parse(text) as unknown };
    } catch {
      if (status !== 200) throw new StepFailure(status >= 500 ? 'SIGN_IN_PROVIDER_UNAVAILABLE' : failure, 'httpStatus', { url, status });
      throw new StepFailure(failure, 'notJson', { url });
    }
  }

  /**
   * The provider's discovery document, checked: the issuer QE expects, the endpoints it needs,
   * PKCE with S256 where the document lists its methods. `fresh` reads it anew (a test);
   * otherwise one read within ten minutes is used again.
   */
  async discovery(settings: Pick<ProviderSettings, 'kind' | 'issuer' | 'tenant'>, fresh = false): Promise<Found<Discovery>> {
    const target = discoveryTarget(settings, this.config);
    const key = `${target.url} ${String(target.issuer)}`;
    const kept = this.discoveries.get(key);
    if (!fresh && kept && Date.now() - kept.at < DISCOVERY_TTL_MS) return { value: kept.doc, detail: 'discoveryOk', params: { url: target.url, issuer: kept.doc.issuer } };
    const under = this.reading.get(key);
    if (under) return under;
    const read = this.readDiscovery(target, key).finally(() => this.reading.delete(key));
    this.reading.set(key, read);
    return read;
  }

  private async readDiscovery(target: { url: string; issuer: string | RegExp }, key: string): Promise<Found<Discovery>> {
    const { status, body } = await this.request(target.url, { headers: { accept: 'application/json' } });
    if (status !== 200) throw new StepFailure('SIGN_IN_PROVIDER_UNAVAILABLE', 'httpStatus', { url: target.url, status });
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new StepFailure('SIGN_IN_PROVIDER_UNAVAILABLE', 'notJson', { url: target.url });
    const doc = body as Record<string, unknown>;
    const issuer = typeof doc.issuer === 'string' ? doc.issuer : '';
    const expected = target.issuer;
    if (typeof expected === 'string' ? issuer !== expected : !expected.test(issuer)) {
      throw new StepFailure('SIGN_IN_PROVIDER_UNAVAILABLE', 'issuerMismatch', { found: issuer || '—', expected: typeof expected === 'string' ? expected : `${this.config.signIn.microsoftAuthority}/<tenant id>/v2.0` });
    }
    for (const field of ['authorization_endpoint', 'token_endpoint', 'jwks_uri'] as const) {
      const value = doc[field];
      if (typeof value !== 'string' || !/^https?:\/\//i.test(value) || !URL.canParse(value)) throw new StepFailure('SIGN_IN_PROVIDER_UNAVAILABLE', 'missingField', { field });
      // keys and the secret only over TLS: a provider on http (behind a TLS proxy that forgot to say so)
      // would let anyone on the way swap the keys and forge tokens; plain http only for one on this machine
      const url = new URL(value);
      if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname) && new URL(issuer).protocol === 'http:')) {
        throw new StepFailure('SIGN_IN_PROVIDER_UNAVAILABLE', 'insecureEndpoint', { field, url: value });
      }
    }
    const methods = doc.code_challenge_methods_supported;
    if (Array.isArray(methods) && !methods.includes('S256')) throw new StepFailure('SIGN_IN_PROVIDER_UNAVAILABLE', 'noPkce', { methods: methods.join(', ') });
    const found = doc as unknown as Discovery;
    this.discoveries.set(key, { doc: found, at: Date.now() });
    return { value: found, detail: 'discoveryOk', params: { url: target.url, issuer } };
  }

  /** The provider's published signing keys, read anew (a test's check): how many there are. */
  async keys(discovery: Discovery): Promise<Found<number>> {
    const url = discovery.jwks_uri;
    const { status, body } = await this.request(url, { headers: { accept: 'application/json, application/jwk-set+json' } });
    if (status !== 200) throw new StepFailure('SIGN_IN_PROVIDER_UNAVAILABLE', 'httpStatus', { url, status });
    const keys = (body as { keys?: unknown } | null)?.keys;
    const signing = Array.isArray(keys) ? keys.filter((k) => k && typeof k === 'object' && (k as { use?: string }).use !== 'enc') : [];
    if (!signing.length) throw new StepFailure('SIGN_IN_PROVIDER_UNAVAILABLE', 'noKeys', { url });
    // the sign-ins after a test use the keys just read
    await this.keySet(url).reload().catch(() => undefined);
    return { value: signing.length, detail: 'keysOk', params: { url, count: signing.length } };
  }

  private keySet(url: string) {
    let set = this.keySets.get(url);
    if (!set) {
      set = createRemoteJWKSet(new URL(url), { timeoutDuration: this.timeoutMs, cooldownDuration: 30_000, cacheMaxAge: 10 * 60_000 });
      this.keySets.set(url, set);
    }
    return set;
  }

  /**
   * The code exchanged at the token endpoint for the ID token, with the PKCE verifier and the
   * client's secret: in the body (client_secret_post) where the document lists it, else in the
   * Authorization header (client_secret_basic, the standard's default), form-encoded as RFC 6749
   * asks; no secret: the client id alone (a public client).
   */
  async exchange(discovery: Discovery, request: { code: string; redirectUri: string; verifier: string; clientId: string; secret: string | null }): Promise<Found<string>> {
    const url = discovery.token_endpoint;
    const methods = discovery.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
    const method = request.secret === null ? 'none' : methods.includes('client_secret_post') ? 'client_secret_post' : 'client_secret_basic';
    const form = new URLSearchParams({ grant_type: 'authorization_code', code: request.code, redirect_uri: request.redirectUri, code_verifier: request.verifier });
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
    if (method === 'client_secret_basic') {
      const encode = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
      headers.authorization = `Basic ${Buffer.from(`${encode(request.clientId)}:${encode(request.secret!)}`).toString('base64')}`;
    } else {
      form.set('client_id', request.clientId);
      if (method === 'client_secret_post') form.set('client_secret', request.secret!);
    }
    const { status, body } = await this.request(url, { method: 'POST', headers, body: form.toString() }, 'SIGN_IN_PROVIDER_REFUSED');
    const answer = (body && typeof body === 'object' ? body : {}) as { error?: unknown; error_description?: unknown; id_token?: unknown };
    if (status !== 200 || typeof answer.error === 'string') {
      const error = [answer.error, answer.error_description].filter((s) => typeof s === 'string').join(': ') || `HTTP ${status}`;
      throw new StepFailure(status >= 500 ? 'SIGN_IN_PROVIDER_UNAVAILABLE' : 'SIGN_IN_PROVIDER_REFUSED', 'refused', { url, error: error.slice(0, 300) });
    }
    if (typeof answer.id_token !== 'string') throw new StepFailure('SIGN_IN_PROVIDER_REFUSED', 'noIdToken', { url });
    return { value: answer.id_token, detail: 'tokenOk', params: { url, method } };
  }

  /**
   * The ID token checked: signed with a key the provider publishes (the set fetched again for a
   * key it does not know), by the expected issuer, for this client (and issued to it, `azp`, when
   * it names several audiences), not expired, and answering this sign-in's nonce.
   */
  async verify(discovery: Discovery, idToken: string, expect: { issuers: string[]; clientId: string; nonce: string }): Promise<Found<IdClaims>> {
    const keys = this.keySet(discovery.jwks_uri);
    let payload: IdClaims;
    let kid: string;
    try {
      const verified = await jwtVerify(idToken, keys, { issuer: expect.issuers, audience: expect.clientId, algorithms: ALGORITHMS, requiredClaims: ['sub', 'iat', 'exp'], clockTolerance: 60 });
      payload = verified.payload as IdClaims;
      kid = verified.protectedHeader.kid ?? '—';
    } catch (error) {
      throw this.tokenFailure(error, idToken, discovery, expect);
    }
    const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
    if ((audiences.length > 1 || payload.azp !== undefined) && payload.azp !== expect.clientId) {
      throw new StepFailure('SIGN_IN_TOKEN_INVALID', 'wrongAzp', { found: String(payload.azp ?? '—'), expected: expect.clientId });
    }
    if (typeof payload.nonce !== 'string' || payload.nonce !== expect.nonce) throw new StepFailure('SIGN_IN_TOKEN_INVALID', 'wrongNonce');
    // the account's key at the provider, kept in its links: a string (OpenID Connect Core), never an object or number that String() would flatten
    if (typeof payload.sub !== 'string' || payload.sub === '' || payload.sub.length > 255) throw new StepFailure('SIGN_IN_TOKEN_INVALID', 'claimInvalid', { claim: 'sub', error: shownValue(payload.sub) });
    return { value: payload, detail: 'idTokenOk', params: { kid, issuer: String(payload.iss), clientId: expect.clientId, expires: new Date((payload.exp ?? 0) * 1000).toISOString() } };
  }

  /** What was wrong with an ID token, said as a StepFailure. */
  private tokenFailure(error: unknown, idToken: string, discovery: Discovery, expect: { issuers: string[]; clientId: string }): StepFailure {
    const invalid = (reason: 'badSignature' | 'unknownKey' | 'malformed' | 'wrongIssuer' | 'wrongAudience' | 'expired' | 'claimInvalid', params: Record<string, string> = {}) => new StepFailure('SIGN_IN_TOKEN_INVALID', reason, params);
    if (error instanceof errors.JWSSignatureVerificationFailed) return invalid('badSignature');
    if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) {
      let kid = '—';
      try {
        kid = String((JSON.parse(Buffer.from(idToken.split('.')[0], 'base64url').toString('utf8')) as { kid?: string }).kid ?? '—');
      } catch {
        // the header was read by jose already; a kid is only for the words
      }
      return invalid('unknownKey', { kid });
    }
    if (error instanceof errors.JWTExpired) return invalid('expired', { time: new Date(Number(error.payload.exp) * 1000).toISOString() });
    if (error instanceof errors.JWTClaimValidationFailed) {
      const list = (v: unknown) => (Array.isArray(v) ? v.map(String).join(', ') : v === undefined ? '—' : String(v));
      if (error.claim === 'iss') return invalid('wrongIssuer', { found: list(error.payload.iss), expected: expect.issuers[0] });
      if (error.claim === 'aud') return invalid('wrongAudience', { found: list(error.payload.aud), expected: expect.clientId });
      return invalid('claimInvalid', { claim: error.claim, error: error.reason });
    }
    if (error instanceof errors.JWKSTimeout || isTimeout(error)) return new StepFailure('SIGN_IN_PROVIDER_UNAVAILABLE', 'timeout', { url: discovery.jwks_uri, seconds: this.seconds });
    if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid || error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported || error instanceof errors.JWKInvalid) {
      return invalid('malformed', { error: error.message });
    }
    // the key set could not be fetched: unreachable, not 200, not a key set
    return new StepFailure('SIGN_IN_PROVIDER_UNAVAILABLE', 'unreachable', { url: discovery.jwks_uri, error: networkError(error) });
  }
}
