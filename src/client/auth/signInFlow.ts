import type { SignInCompleted, SignInLink, SignInOptions } from '../../shared/calls/sign-in';
import { publicCall, type CallLanguage } from './publicApi';

/*
 * Sign-in with the school's own accounts (src/shared/calls/sign-in.ts), the browser's half: the
 * login screen starts it (POST /v1/sign-in/start), the provider sends the browser back to
 * /sign-in-callback, which completes it (POST /v1/sign-in/complete). The flow completes only with
 * the 32 random bytes this tab made before it left (the browser key): a code and state sent to
 * someone else's browser sign nobody in there. No react-admin here: the login page's first script
 * imports this file.
 */

/** Where this tab keeps the flow under way (session storage: this tab only, gone with it). */
export const SIGN_IN_FLOW_KEY = 'qe-sign-in';

/** The callback page's path (without /qe), public. */
export const SIGN_IN_CALLBACK_PATH = '/sign-in-callback';

export type SignInProvider = SignInOptions['providers'][number];

/** The flow this tab started: its browser key, the provider, why (a sign-in, or the super administrator's test) and where the user meant to go. */
export interface PendingSignIn {
  browserKey: string;
  providerId: number;
  purpose: 'sign-in' | 'test';
  /** a path of QE's client with /qe (a sign-in only) */
  returnTo?: string;
}

/** 32 random bytes as base64url without padding: 43 characters. */
export function newBrowserKey(): string {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const BROWSER_KEY = /^[A-Za-z0-9_-]{43}$/;

/** Keeps the flow in this tab's session storage (a new window opened from this tab starts with a copy). */
export function rememberSignIn(pending: PendingSignIn): void {
  try {
    sessionStorage.setItem(SIGN_IN_FLOW_KEY, JSON.stringify(pending));
  } catch {
    // storage refused (a private mode's quota): the callback page will say the flow is unknown
  }
}

/** The flow this tab started, or null (none, or not one this code wrote). */
export function pendingSignIn(): PendingSignIn | null {
  try {
    const value = JSON.parse(sessionStorage.getItem(SIGN_IN_FLOW_KEY) ?? 'null') as Partial<PendingSignIn> | null;
    if (!value || typeof value.browserKey !== 'string' || !BROWSER_KEY.test(value.browserKey) || !Number.isInteger(value.providerId)) return null;
    if (value.purpose !== 'sign-in' && value.purpose !== 'test') return null;
    return { browserKey: value.browserKey, providerId: value.providerId!, purpose: value.purpose, ...(typeof value.returnTo === 'string' ? { returnTo: value.returnTo } : {}) };
  } catch {
    return null;
  }
}

/** The browser key is used once: forgotten as soon as the callback has read it (or the start failed). */
export function forgetSignIn(): void {
  try {
    sessionStorage.removeItem(SIGN_IN_FLOW_KEY);
  } catch {
    // nothing kept
  }
}

/** A path of the app (without /qe, as the login screen's `redirect` holds it) as the server takes `returnTo`: with /qe; none for home. */
export function returnToOf(appPath: string): string | undefined {
  return appPath === '/' || !appPath.startsWith('/') || appPath.startsWith('//') ? undefined : `/qe${appPath}`;
}

/**
 * Where to go once signed in: the `returnTo` the server answered — a path of QE's client — as a
 * path of the app (without /qe); home for anything else (another host, the login or callback page).
 */
export function appPathOf(returnTo: string | null | undefined): string {
  if (!returnTo || !returnTo.startsWith('/') || returnTo.startsWith('//') || returnTo.includes('\\')) return '/';
  const path = returnTo === '/qe' ? '/' : returnTo.startsWith('/qe/') ? returnTo.slice(3) : returnTo;
  if (path.startsWith('//') || path.startsWith('/login') || path.startsWith('/app/login') || path.startsWith(SIGN_IN_CALLBACK_PATH)) return '/';
  return path;
}

/** How the page leaves for the provider's (one place, which the tests watch: jsdom does not navigate). */
export const leave = {
  to(link: string): void {
    window.location.assign(link);
  },
};

/** Only a web address is followed: the provider's authorization page. */
export function isProviderLink(link: unknown): link is string {
  return typeof link === 'string' && /^https?:\/\/[^/\s]/i.test(link);
}

/** GET /v1/sign-in/options: the enabled providers; none when the call fails (the password form still works). */
export async function signInProviders(language: CallLanguage): Promise<SignInProvider[]> {
  try {
    const { providers } = await publicCall<SignInOptions>('/v1/sign-in/options', language);
    return Array.isArray(providers) ? providers : [];
  } catch {
    return [];
  }
}

/**
 * POST /v1/sign-in/start with a new browser key kept in this tab, then to the provider's page.
 * A refusal is thrown (PublicCallError: the server's message); the key is then forgotten.
 */
export async function startSignIn(providerId: number, returnTo: string | undefined, language: CallLanguage): Promise<void> {
  const browserKey = newBrowserKey();
  rememberSignIn({ browserKey, providerId, purpose: 'sign-in', ...(returnTo ? { returnTo } : {}) });
  let link: string;
  try {
    ({ link } = await publicCall<SignInLink>('/v1/sign-in/start', { ...language, method: 'POST', body: { providerId, browserKey, ...(returnTo ? { returnTo } : {}) } }));
    if (!isProviderLink(link)) throw new Error(language.translate('qe.error.operationFailed'));
  } catch (error) {
    forgetSignIn();
    throw error;
  }
  leave.to(link);
}

/**
 * POST /v1/identity-providers/:id/test as the super administrator (their token), a new browser
 * key kept in this tab: the provider's page to open.
 */
export async function startTest(providerId: number, token: string, language: CallLanguage): Promise<string> {
  const browserKey = newBrowserKey();
  rememberSignIn({ browserKey, providerId, purpose: 'test' });
  try {
    const { link } = await publicCall<SignInLink>(`/v1/identity-providers/${providerId}/test`, { ...language, method: 'POST', body: { browserKey }, token });
    if (!isProviderLink(link)) throw new Error(language.translate('qe.error.operationFailed'));
    return link;
  } catch (error) {
    forgetSignIn();
    throw error;
  }
}

/** POST /v1/sign-in/complete: what the provider sent back, with this tab's browser key (and the session's token for a test). */
export function completeSignIn(code: string, state: string, browserKey: string, token: string | null, language: CallLanguage, iss?: string): Promise<SignInCompleted> {
  return publicCall<SignInCompleted>('/v1/sign-in/complete', { ...language, method: 'POST', body: { code, state, browserKey, ...(iss ? { iss } : {}) }, token });
}
