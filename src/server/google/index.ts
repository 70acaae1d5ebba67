import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SignJWT, jwtVerify } from 'jose';
import type { Config } from '../config.js';
import type { DB } from '../db/connect.js';
import { ok } from '../plugins/envelope.js';
import { BusinessError } from '../plugins/errors.js';
import { currentUser } from '../plugins/guard.js';
import { bindBody, bindingParams, GOOGLE_ANSWERS, type AuthLink, type BindBody, type BindingParams, type Bound } from '../../shared/calls/google.js';

const tags = ['google'];
const STATE_MINUTES = 10;

/**
 * Where the provider sends the popup back: the client's /google-callback page at QE_PUBLIC_URL.
 * Unlike mail links, this may fall back to the address the request came to when QE_PUBLIC_URL
 * is unset (a first try-out on one machine): nothing secret goes to that address. The link is
 * answered only to the caller who sent the Host header; the provider sends its code only to a
 * redirect URI registered for the school's OAuth client, so a forged one fails there; and the
 * exchange of the code (with the client secret) goes to the provider, never to that address.
 */
function redirectUri(config: Config, request: FastifyRequest): string {
  const origin = config.publicUrl ?? `${request.protocol}://${request.host}`;
  return `${origin}/qe/google-callback`;
}

const key = (config: Config) => new TextEncoder().encode(`${config.secret}:google-state`);

/**
 * Google account binding (docs/product-rules.md#states): the sign-in link for a popup, and the code it
 * returns exchanged at the provider for the account's e-mail, kept as the user's googleMail.
 * The `state` is signed and names the user, so a code cannot be bound to someone else.
 */
export async function googleRoutes(app: FastifyInstance, { db, config }: { db: DB; config: Config }) {
  app.get('/v1/google/actions/auth-url', {
    config: { permission: 'google-account.view' },
    schema: { tags, summary: 'The sign-in link to open in a popup, and the account bound now: {googleMail, link}', response: GOOGLE_ANSWERS.authUrl },
  }, async (request) => {
    const me = currentUser(request);
    if (!config.google.clientId) throw new BusinessError('OPERATION_FAILED');
    const user = await db.selectFrom('users').select('google_mail').where('id', '=', me.id).executeTakeFirstOrThrow();
    const state = await new SignJWT({ uid: me.id }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime(`${STATE_MINUTES}m`).sign(key(config));
    const link = new URL(config.google.authUrl);
    link.search = new URLSearchParams({
      client_id: config.google.clientId,
      redirect_uri: redirectUri(config, request),
      response_type: 'code',
      scope: 'openid email',
      prompt: 'select_account',
      state,
    }).toString();
    return ok<AuthLink>({ googleMail: user.google_mail, link: link.toString() });
  });

  app.post<{ Body: BindBody }>('/v1/google/actions/bind', {
    config: { permission: 'google-account.view' },
    schema: {
      tags,
      summary: "Binds the Google account whose sign-in returned this code: {googleMail}",
      body: bindBody,
      response: GOOGLE_ANSWERS.bind,
    },
  }, async (request) => {
    const me = currentUser(request);
    if (request.body.state) {
      const verified = await jwtVerify(request.body.state, key(config)).catch(() => null);
      if (!verified || verified.payload.uid !== me.id) throw new BusinessError('OPERATION_FAILED');
    }
    const tokenResponse = await fetch(config.google.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: request.body.code,
        client_id: config.google.clientId,
        client_secret: config.google.clientSecret,
        redirect_uri: redirectUri(config, request),
      }),
      signal: AbortSignal.timeout(15_000),
    }).catch(() => null);
    const tokens = tokenResponse?.ok ? ((await tokenResponse.json()) as { access_token?: string }) : null;
    if (!tokens?.access_token) throw new BusinessError('OPERATION_FAILED');
    const info = await fetch(config.google.userInfoUrl, { headers: { authorization: `Bearer ${tokens.access_token}` }, signal: AbortSignal.timeout(15_000) }).catch(() => null);
    const profile = info?.ok ? ((await info.json()) as { email?: string; email_verified?: boolean }) : null;
    if (!profile?.email || profile.email_verified === false) throw new BusinessError('OPERATION_FAILED');
    await db.updateTable('users').set({ google_mail: profile.email, updated_at: new Date().toISOString() }).where('id', '=', me.id).execute();
    return ok<Bound>({ googleMail: profile.email });
  });

  app.delete<{ Params: BindingParams }>('/v1/google/bindings/:userId', {
    config: { permission: 'admin.edit' },
    schema: { tags, summary: "Clears a user's Google account binding", params: bindingParams, response: GOOGLE_ANSWERS.cleared },
  }, async (request) => {
    const r = await db.updateTable('users').set({ google_mail: null, updated_at: new Date().toISOString() }).where('id', '=', request.params.userId).executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) throw new BusinessError('RECORD_NOT_FOUND');
    return ok(null);
  });
}
