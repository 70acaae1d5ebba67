import { HttpError } from 'react-admin';
import { REQUEST_TIMEOUT_MS, SYSTEM_CODE, type Envelope } from '../../shared/envelope';
import { SESSION_CODES, SUCCESS_CODES } from '../../shared/errors';
import { trimStrings } from '../../shared/validation';
import { publish } from './notifier';
import { checkSession, clearSession, getToken } from './session';
import { currentLocale, translate } from './i18nProvider';


export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  query?: Record<string, unknown>;
  body?: unknown;
  /** ignore_err (docs/errors.md#how-the-client-shows-them): business errors are passed to the caller without a message on screen */
  ignoreErr?: boolean;
  /** answer the whole envelope instead of its data */
  envelope?: boolean;
  /** a file answer (xlsx, pdf…): the Blob, or the JSON error it holds */
  blob?: boolean;
  /** an expired session is no news (logout itself): no alert, no reload */
  quietSession?: boolean;
  /** how long to wait for the answer (a restore of a whole school takes minutes); REQUEST_TIMEOUT_MS otherwise */
  timeoutMs?: number;
}

let expiredShown = false;

// While the page unloads the browser aborts its calls; such a failure is no news (and must not
// log anyone out), so those calls are left unanswered.
let leaving = false;
const unanswered = () => new Promise<never>(() => undefined);
if (typeof window !== 'undefined') {
  window.addEventListener('beforeunload', (e) => {
    leaving = true;
    // a screen with unsaved changes may ask first ('discard unsaved content?'): kept, the page is not leaving
    setTimeout(() => {
      if (e.defaultPrevented) leaving = false;
    });
  });
  window.addEventListener('pagehide', () => (leaving = true));
  window.addEventListener('pageshow', () => (leaving = false));
}

/** 401/444: once only, log out, tell the user, reload 300 ms later (docs/errors.md#how-the-client-shows-them). */
function sessionExpired(): void {
  if (expiredShown) return;
  expiredShown = true;
  clearSession();
  window.alert(translate('qe.session.expired'));
  setTimeout(() => window.location.reload(), 300);
}

/** The stored token belongs to someone else than the user this page was loaded for (docs/errors.md#how-the-client-shows-them). */
function userChanged(): void {
  if (expiredShown) return;
  expiredShown = true;
  window.alert(translate('qe.session.userChanged'));
  window.location.href = '/qe/dashboard';
}

function toast(message: string, type: 'error' | 'success' | 'info' | 'warning' = 'error') {
  publish({ kind: 'toast', message, type });
}

export function buildUrl(path: string, query?: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(trimStrings(query ?? {}))) {
    if (v === undefined || v === null || v === '') continue;
    if (Array.isArray(v)) v.forEach((item) => params.append(k, String(item)));
    else params.set(k, String(v));
  }
  const qs = params.toString();
  return `${path}${qs ? `?${qs}` : ''}`;
}

export function requestHeaders(): Record<string, string> {
  const headers: Record<string, string> = {
    'Accept-Language': currentLocale() === 'en' ? 'en' : 'zh-HK',
    'X-Device': 'Web',
    'X-System': SYSTEM_CODE,
  };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  return headers;
}

/** One call to the server: the headers and trimming of docs/conventions.md#headers-and-trimming, the envelope, the error handling of docs/errors.md#how-the-client-shows-them. */
export async function request<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
  const session = checkSession();
  if (session === 'token-user-mismatch') {
    sessionExpired();
    throw new HttpError('ERROR_TOKEN_USERID_NOT_MATCH', 401, { code: 401 });
  }
  if (session === 'user-changed') {
    userChanged();
    throw new HttpError(translate('qe.session.userChanged'), 401, { code: 401 });
  }

  const headers = requestHeaders();
  const sentToken = getToken();
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(trimStrings(options.body));
  }

  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? REQUEST_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.query), { method: options.method ?? 'GET', headers, body, signal: controller.signal });
  } catch {
    clearTimeout(timer);
    if (leaving) return unanswered();
    const message = translate('qe.error.tryLater');
    if (!options.ignoreErr) toast(message);
    throw new HttpError(message, 0, { code: 0 });
  }
  clearTimeout(timer);

  const isJson = (response.headers.get('content-type') ?? '').includes('application/json');
  if (options.blob && response.ok && !isJson) return (await response.blob()) as T;

  let envelope: Envelope<unknown>;
  try {
    envelope = isJson ? await response.json() : { code: response.status >= 500 ? 400 : response.status, msg: '', data: null };
  } catch {
    envelope = { code: 400, msg: '', data: null };
  }

  if (SUCCESS_CODES.has(envelope.code) && response.ok) return (options.envelope ? envelope : envelope.data) as T;
  if (leaving) return unanswered(); // the answer's body was cut off by the unload
  // a session answer to a call made without a token, or about a token replaced meanwhile by a new login, is no news
  const quietSession = options.quietSession || !sentToken || getToken() !== sentToken;
  throw handleFailure(response.status, envelope, { ...options, quietSession });
}

/**
 * A multipart upload (Excel import) with its progress: XMLHttpRequest, because fetch cannot
 * report upload progress. Same headers, session checks, envelope and error handling as
 * request(): a 706 answer opens the import-errors dialog, 401/444 end the session, and so on;
 * a 422 is handed to the caller (its field errors in body.errors).
 */
export function upload<T = unknown>(path: string, form: FormData, onProgress?: (fraction: number | null) => void, timeoutMs = REQUEST_TIMEOUT_MS): Promise<T> {
  const session = checkSession();
  if (session === 'token-user-mismatch') {
    sessionExpired();
    return Promise.reject(new HttpError('ERROR_TOKEN_USERID_NOT_MATCH', 401, { code: 401 }));
  }
  if (session === 'user-changed') {
    userChanged();
    return Promise.reject(new HttpError(translate('qe.session.userChanged'), 401, { code: 401 }));
  }
  const sentToken = getToken();
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', buildUrl(path));
    for (const [name, value] of Object.entries(requestHeaders())) xhr.setRequestHeader(name, value);
    xhr.timeout = timeoutMs;
    xhr.upload.onprogress = (e) => onProgress?.(e.lengthComputable && e.total > 0 ? e.loaded / e.total : null);
    // all bytes sent: the server works on the file now (the caller shows an indeterminate bar)
    xhr.upload.onload = () => onProgress?.(null);
    const failed = () => {
      if (leaving) return;
      const message = translate('qe.error.tryLater');
      toast(message);
      reject(new HttpError(message, 0, { code: 0 }));
    };
    xhr.onerror = failed;
    xhr.ontimeout = failed;
    xhr.onload = () => {
      let envelope: Envelope<unknown>;
      try {
        envelope = JSON.parse(xhr.responseText);
      } catch {
        envelope = { code: xhr.status >= 500 ? 400 : xhr.status, msg: '', data: null };
      }
      const ok = xhr.status >= 200 && xhr.status < 300;
      if (ok && SUCCESS_CODES.has(envelope.code)) return resolve(envelope.data as T);
      const quietSession = !sentToken || getToken() !== sentToken;
      reject(handleFailure(xhr.status, envelope, { quietSession }));
    };
    xhr.send(form);
  });
}

function handleFailure(status: number, envelope: Envelope<unknown>, options: RequestOptions): HttpError {
  const { code } = envelope;
  const msg = envelope.msg || translate('qe.error.operationFailed');
  const error = (message: string) => new HttpError(message, status, { code, errors: status === 422 ? envelope.data : undefined, data: envelope.data });

  if (SESSION_CODES.has(code)) {
    if (!options.quietSession) sessionExpired();
    return error(msg);
  }
  if (status === 422) return error(msg); // the form shows each field's message
  if (options.ignoreErr) return error(msg);
  if (code === 706) {
    const lines = Array.isArray(envelope.data) ? (envelope.data as unknown[]).map(String) : msg.split('\n');
    publish({ kind: 'import-errors', lines });
    return error(msg);
  }
  if (code === 719) {
    publish({ kind: 'download-errors', lines: msg.split('\n') });
    return error(msg);
  }
  if (code === 400 || status >= 500) {
    const text = translate('qe.error.system');
    toast(text);
    return error(text);
  }
  toast(msg);
  return error(msg);
}
