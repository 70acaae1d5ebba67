import { randomBytes } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, importJWK, SignJWT, type JWK, type JWTPayload } from 'jose';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';

/**
 * A real OpenID Connect provider on loopback for the sign-in tests and the e2e suite: oidc-provider
 * (the certified implementation) with one client registered for QE's redirect address, accounts
 * whose claims a test chooses, and a relay in front of it through which every request passes —
 * so a test can rewrite what the token endpoint answers, or make the provider hang.
 *
 *   const idp = await startIssuer({ redirectUris: ['http://qe.test/qe/sign-in-callback'] });
 *   idp.issuer                      // the issuer address QE is given (kind oidc): http://127.0.0.1:PORT
 *   idp.clientId, idp.clientSecret  // the registered client
 *   idp.setAccount('amy', { email: 'amy@school.edu.hk', email_verified: true, name: 'Amy' });
 *   providerBody(idp, { domains: ['school.edu.hk'], roles: ['STUDENT'] })  // POST /v1/identity-providers
 *   const back = await idp.signIn(link, 'amy');  // as a browser: opens QE's link, fills the login form
 *   back.code, back.state, back.iss // what the provider sends to /qe/sign-in-callback
 *   idp.relay.onToken = async (answer) => ({ ...answer, id_token: await idp.resign(answer.id_token, { aud: 'x' }) });
 *   idp.relay.hang = true;          // every request accepted and never answered (or a (path) => boolean)
 *   idp.tokens                      // every token answer sent so far (a replay takes an earlier one)
 *   await idp.foreignSign(claims)   // a token signed with a key the provider does not publish
 *   await idp.close();
 *
 * In a browser (the e2e suite) the link opens the provider's development login page
 * (devInteractions): any user name logs in as the account of that id, with any password; consent
 * is given at once (a first-party client), and the browser is sent to QE's callback.
 *
 * `path` gives the issuer a path, as Microsoft's have (`/{tenant}/v2.0`): the relay takes it off
 * the requests. Set QE's `signIn.microsoftAuthority` to `idp.origin` to sign in with the microsoft
 * kind against it, or `signIn.googleIssuer` to `idp.issuer` for the google kind.
 */

/** An account's claims, as the provider asserts them (sub is the account's id). */
export type AccountClaims = { email?: string; email_verified?: boolean; name?: string; hd?: string; preferred_username?: string; tid?: string } & Record<string, unknown>;

/** What the token endpoint answers (a test may change it on the way). */
export type TokenAnswer = { id_token: string; access_token?: string; token_type?: string; expires_in?: number; scope?: string } & Record<string, unknown>;

export interface IssuerOptions {
  /** QE's callback addresses (…/qe/sign-in-callback) the client may be sent back to */
  redirectUris: string[];
  accounts?: Record<string, AccountClaims>;
  clientId?: string;
  clientSecret?: string;
  /** the issuer's path, e.g. /{tenant}/v2.0 for the microsoft kind */
  path?: string;
  /** other paths the relay takes off as it takes `path` (Microsoft's tenant by its domain: /school.edu.hk/v2.0) */
  aliases?: string[];
  /** the one client authentication the provider offers (its discovery document then lists only it); default client_secret_post */
  clientAuth?: 'client_secret_post' | 'client_secret_basic';
}

export interface Relay {
  /** rewrites a successful token answer on its way to QE */
  onToken: ((answer: TokenAnswer) => TokenAnswer | Promise<TokenAnswer>) | null;
  /** true, or for which request paths: accept the request and never answer it */
  hang: boolean | ((path: string) => boolean);
}

export interface Callback {
  /** the address the provider sent the browser to */
  callback: string;
  code: string | null;
  state: string | null;
  /** the issuer the provider names in its answer (RFC 9207) */
  iss: string | null;
  error: string | null;
}

export interface Issuer {
  issuer: string;
  /** the relay's origin (http://127.0.0.1:PORT): the issuer without its path */
  origin: string;
  clientId: string;
  clientSecret: string;
  relay: Relay;
  tokens: TokenAnswer[];
  setAccount(id: string, claims: AccountClaims): void;
  signIn(link: string, accountId: string): Promise<Callback>;
  /** the token with `changes` to its claims, signed again with the provider's own key */
  resign(idToken: string, changes: JWTPayload & Record<string, unknown>): Promise<string>;
  /** claims signed with a key the provider never published (kid as given, or the provider's own kid) */
  foreignSign(claims: JWTPayload & Record<string, unknown>, kid?: string): Promise<string>;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

/** The cookies of one browser, per name (the provider scopes them by path; sending all is harmless). */
class CookieJar {
  private readonly cookies = new Map<string, string>();

  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): Record<string, string> {
    return this.cookies.size ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {};
  }
}

const unescapeHtml = (s: string) => s.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');

export async function startIssuer(options: IssuerOptions): Promise<Issuer> {
  const accounts = new Map<string, AccountClaims>(Object.entries(options.accounts ?? {}));
  const clientId = options.clientId ?? 'qe-school-client';
  const clientSecret = options.clientSecret ?? randomBytes(24).toString('base64url');
  const path = (options.path ?? '').replace(/\/+$/, '');
  const relay: Relay = { onToken: null, hang: false };
  const tokens: TokenAnswer[] = [];

  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const privateJwk: JWK = { ...(await exportJWK(privateKey)), kid: `idp-${randomBytes(4).toString('hex')}`, alg: 'RS256', use: 'sig' };
  let foreignKey: CryptoKey | null = null;

  // the relay listens first: its address is the issuer's
  const hanging = new Set<ServerResponse>();
  let providerPort = 0;
  const relayServer = createServer((req: IncomingMessage, res: ServerResponse) => {
    let url = req.url ?? '/';
    const prefix = [path, ...(options.aliases ?? [])].find((p) => p && url.startsWith(`${p}/`));
    if (prefix) url = url.slice(prefix.length);
    const hang = typeof relay.hang === 'function' ? relay.hang(url) : relay.hang;
    if (hang) {
      hanging.add(res);
      req.resume();
      return;
    }
    const upstream = httpRequest({ host: '127.0.0.1', port: providerPort, method: req.method, path: url, headers: req.headers }, (answer) => {
      if (!url.startsWith('/token')) {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        return;
      }
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        void (async () => {
          let body = Buffer.concat(chunks);
          if (answer.statusCode === 200) {
            let json = JSON.parse(body.toString('utf8')) as TokenAnswer;
            tokens.push(json);
            if (relay.onToken) json = await relay.onToken(json);
            body = Buffer.from(JSON.stringify(json));
          }
          const headers = { ...answer.headers, 'content-length': String(body.length) };
          delete headers['transfer-encoding'];
          res.writeHead(answer.statusCode ?? 502, headers);
          res.end(body);
        })().catch(() => res.destroy());
      });
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  const relayPort = await listen(relayServer);
  const origin = `http://127.0.0.1:${relayPort}`;
  const issuer = `${origin}${path}`;

  const configuration: Configuration = {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: options.clientAuth ?? 'client_secret_post',
      },
    ],
    ...(options.clientAuth ? { clientAuthMethods: [options.clientAuth] } : {}),
    jwks: { keys: [privateJwk] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    // the claims an ID token carries, as Google's and Microsoft's do: no call to userinfo needed
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'preferred_username', 'hd', 'tid'] },
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    // lifetimes of a test's artifacts (given, so that the provider does not remark on its defaults)
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx, id) {
      return { accountId: id, claims: async () => ({ sub: id, ...(accounts.get(id) ?? {}) }) };
    },
    // a first-party client: consent is given at once for the scopes QE asks
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session?.grantIdFor(ctx.oidc.client!.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      if (!ctx.oidc.session?.accountId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session.accountId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  };
  const provider = new Provider(issuer, configuration);
  const providerServer = createServer(provider.callback());
  providerPort = await listen(providerServer);

  const signKey = await importJWK(privateJwk, 'RS256');
  const isCallback = (address: string) => options.redirectUris.some((r) => address.startsWith(`${r}?`) || address === r);

  return {
    issuer,
    origin,
    clientId,
    clientSecret,
    relay,
    tokens,
    setAccount: (id, claims) => accounts.set(id, claims),

    async signIn(link, accountId) {
      const jar = new CookieJar();
      let address = link;
      let method = 'GET';
      let body: string | undefined;
      for (let hop = 0; hop < 12; hop++) {
        const response = await fetch(address, { method, body, redirect: 'manual', headers: { ...jar.header(), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) } });
        jar.take(response);
        method = 'GET';
        body = undefined;
        if (response.status >= 300 && response.status < 400) {
          const next = new URL(response.headers.get('location') ?? '', address).toString();
          await response.arrayBuffer();
          if (isCallback(next)) {
            const q = new URL(next).searchParams;
            return { callback: next, code: q.get('code'), state: q.get('state'), iss: q.get('iss'), error: q.get('error') };
          }
          address = next;
          continue;
        }
        const html = await response.text();
        const form = /<form[^>]*action="([^"]+)"[^>]*method="post"/i.exec(html);
        if (response.status !== 200 || !form) throw new Error(`the provider answered ${response.status} at ${address}: ${html.slice(0, 300)}`);
        const prompt = /name="prompt" value="([^"]+)"/.exec(html)?.[1] ?? 'login';
        address = new URL(unescapeHtml(form[1]), address).toString();
        method = 'POST';
        body = new URLSearchParams(prompt === 'login' ? { prompt, login: accountId, password: 'any' } : { prompt }).toString();
      }
      throw new Error('the provider kept redirecting');
    },

    async resign(idToken, changes) {
      const claims = { ...decodeJwt(idToken), ...changes };
      const header = decodeProtectedHeader(idToken);
      return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: header.kid ?? privateJwk.kid, typ: header.typ }).sign(signKey);
    },

    async foreignSign(claims, kid) {
      foreignKey ??= (await generateKeyPair('RS256')).privateKey;
      return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: kid ?? privateJwk.kid }).sign(foreignKey);
    },

    async close() {
      for (const res of hanging) res.destroy();
      relayServer.closeAllConnections();
      providerServer.closeAllConnections();
      await Promise.all([new Promise((r) => relayServer.close(r)), new Promise((r) => providerServer.close(r))]);
    },
  };
}

/** The body of POST /v1/identity-providers for this issuer (kind oidc), with `changes`. */
export function providerBody(idp: Pick<Issuer, 'issuer' | 'clientId' | 'clientSecret'>, changes: Record<string, unknown> = {}) {
  return {
    kind: 'oidc',
    nameHk: '學校帳戶',
    nameEn: 'School account',
    issuer: idp.issuer,
    clientId: idp.clientId,
    secret: idp.clientSecret,
    domains: ['school.edu.hk'],
    roles: ['ADMIN', 'TEACHER', 'STUDENT'],
    enabled: true,
    ...changes,
  };
}

/** A browser's key, as the login page makes one: 32 random bytes, base64url. */
export const browserKey = () => randomBytes(32).toString('base64url');

/** An address on loopback where nothing listens (a provider that is down). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  const port = await listen(server);
  await new Promise((r) => server.close(r));
  return port;
}

/**
 * A server that accepts connections and never answers (a provider that hangs): its origin, and
 * close(). The sign-in must give up within its time limit.
 */
export async function silentServer(): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createServer(() => undefined);
  const port = await listen(server);
  return {
    origin: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
