import type { LoggedIn } from '../../shared/calls/auth';
import type { SchoolInfo } from '../../shared/calls/school';
import { REQUEST_TIMEOUT_MS, SYSTEM_CODE, type Envelope } from '../../shared/envelope';
import { SUCCESS_CODES } from '../../shared/errors';
import { trimStrings } from '../../shared/validation';
import type { Locale } from '../i18n/locale';
import type { Translate } from '../i18n/messages';
import { saveSession, setCurrentUserId } from '../providers/session';

/** The language a call is made in: its Accept-Language, and the fallback texts of a failure. */
export interface CallLanguage {
  locale: Locale;
  translate: Translate;
}

/** A failed call: the text to show (the server's, or the fallback), and the envelope's code (0: no answer). */
export class PublicCallError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

/**
 * A call of the screens outside the app (login, quick login), which load without react-admin:
 * what providers/http.ts's `request(path, { ignoreErr: true })` does for a caller without a
 * session — the headers and trimming of docs/conventions.md#headers-and-trimming, the envelope — and a failure handed to the
 * caller with the same text: the server's message, "operation failed" when it has none, "try
 * later" when no answer came. `token`: sent as the session's, for the few public calls that
 * also serve a logged-in user.
 */
export async function publicCall<T>(path: string, { method = 'GET', body, token, locale, translate }: CallLanguage & { method?: 'GET' | 'POST'; body?: unknown; token?: string | null }): Promise<T> {
  const headers: Record<string, string> = { 'Accept-Language': locale === 'en' ? 'en' : 'zh-HK', 'X-Device': 'Web', 'X-System': SYSTEM_CODE };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  // the session's token, where a public call serves a logged-in user too (the super administrator's sign-in test)
  if (token) headers.Authorization = `Bearer ${token}`;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(trimStrings(body)), signal: controller.signal });
  } catch {
    throw new PublicCallError(translate('qe.error.tryLater'), 0);
  } finally {
    clearTimeout(timer);
  }
  let envelope: Envelope<unknown>;
  try {
    envelope = (response.headers.get('content-type') ?? '').includes('application/json') ? await response.json() : { code: response.status >= 500 ? 400 : response.status, msg: '', data: null };
  } catch {
    envelope = { code: 400, msg: '', data: null };
  }
  if (SUCCESS_CODES.has(envelope.code) && response.ok) return envelope.data as T;
  throw new PublicCallError(envelope.msg || translate('qe.error.operationFailed'), envelope.code);
}

/** POST /v1/login; the session stored as the app keeps it (providers/session.ts). */
export async function passwordLogin(username: string, password: string, language: CallLanguage): Promise<void> {
  const { tk, userId } = await publicCall<LoggedIn>('/v1/login', { ...language, method: 'POST', body: { username: username.trim(), password } });
  saveSession(tk, userId);
  setCurrentUserId(String(userId));
}

/** The school record as the login page shows it (GET /v1/school-info; the app reads more of it through auth/useSchoolInfo.ts). */
export type PublicSchoolInfo = Pick<SchoolInfo, 'nameHk' | 'nameEn' | 'schoolLogo'>;
