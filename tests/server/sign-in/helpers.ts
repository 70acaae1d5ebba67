import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { Ajv } from 'ajv';
import type { Config } from '../../../src/server/config.js';
import { ERRORS, errorText, type ErrorKey } from '../../../src/shared/errors.js';
import { browserKey, type Issuer } from '../../support/oidc-issuer.js';
import { bearer } from '../harness.js';

/** The address the tests' QE is reached at, and its callback page: the address registered at the test provider. */
export const QE_URL = 'http://qe.test';
export const CALLBACK = `${QE_URL}/qe/sign-in-callback`;

/** QE's settings for a sign-in test: its public address, a short time limit for providers, Microsoft's and Google's issuers where the test puts them. */
export function signInConfig(changes: { timeoutMs?: number; microsoftAuthority?: string; googleIssuer?: string } = {}, more: Partial<Config> = {}): Partial<Config> {
  return {
    publicUrl: QE_URL,
    signIn: { timeoutMs: changes.timeoutMs ?? 1500, microsoftAuthority: changes.microsoftAuthority ?? 'https://login.microsoftonline.com', googleIssuer: changes.googleIssuer ?? 'https://accounts.google.com' },
    schedulerSeconds: 0,
    ...more,
  };
}

type Headers = Record<string, string>;

/** A JSON call, in English unless the headers say otherwise. */
export async function call(app: FastifyInstance, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, headers: Headers = {}): Promise<LightMyRequestResponse> {
  return app.inject({ method, url, headers: { 'accept-language': 'en', ...headers }, ...(payload === undefined ? {} : { payload: payload as object }) });
}

const ajv = new Ajv({ strict: false, allErrors: true });

/** The answer fits the schema its call declares (src/shared/calls/sign-in.ts): what the client is written against. */
export function fits(res: LightMyRequestResponse, schema: object): void {
  const validate = ajv.compile(schema);
  expect(validate(res.json()) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`), res.body.slice(0, 300)).toEqual([]);
}

/** The answer's data, once its envelope says success. */
export function data<T>(res: LightMyRequestResponse): T {
  const body = res.json();
  expect([200, 201], res.body.slice(0, 600)).toContain(body.code);
  return body.data as T;
}

/** The answer is the refusal `key` (its code, HTTP status), and its message; `params` fills it in English. */
export function refused(res: LightMyRequestResponse, key: ErrorKey): string {
  const body = res.json();
  expect({ code: body.code, status: res.statusCode }, res.body.slice(0, 600)).toEqual({ code: ERRORS[key].code, status: ERRORS[key].http });
  return body.msg as string;
}

/** The English message of `key` with its parameters, as the server words it. */
export const message = (key: ErrorKey, params: Record<string, string | number>) => errorText(key, 'en', params);

/** Starts a sign-in with `providerId` as a browser with `key` would: the provider's link. */
export async function start(app: FastifyInstance, providerId: number, key = browserKey(), returnTo?: string, headers: Headers = {}): Promise<{ link: string; key: string; res: LightMyRequestResponse }> {
  const res = await call(app, 'POST', '/v1/sign-in/start', { providerId, browserKey: key, ...(returnTo === undefined ? {} : { returnTo }) }, headers);
  return { link: res.statusCode === 200 ? (res.json().data.link as string) : '', key, res };
}

/** Completes a sign-in as the callback page does. */
export function complete(app: FastifyInstance, { iss, ...body }: { code: string | null; state: string | null; browserKey: string; iss?: string | null }, headers: Headers = {}): Promise<LightMyRequestResponse> {
  return call(app, 'POST', '/v1/sign-in/complete', iss ? { ...body, iss } : body, headers);
}

/** A whole sign-in: started, the account logged in at the provider, completed with the same browser key. */
export async function signIn(app: FastifyInstance, idp: Issuer, providerId: number, accountId: string, options: { returnTo?: string; headers?: Headers; completeApp?: FastifyInstance } = {}): Promise<LightMyRequestResponse> {
  const { link, key, res } = await start(app, providerId, undefined, options.returnTo, options.headers);
  expect(res.statusCode, res.body).toBe(200);
  const back = await idp.signIn(link, accountId);
  return complete(options.completeApp ?? app, { code: back.code, iss: back.iss, state: back.state, browserKey: key }, options.headers);
}

export { bearer };
