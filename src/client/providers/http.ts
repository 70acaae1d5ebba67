import { HttpError } from 'react-admin';
import { REQUEST_TIMEOUT_MS, SYSTEM_CODE, type Envelope } from '../../shared/envelope';
import { SUCCESS_CODES } from '../../shared/errors';
import { trimBody, trimStrings } from '../../shared/validation';
import { handleFailure, toast } from './failures';
import { currentLocale, translate } from './i18nProvider';
import { isLeaving, unanswered } from './page-leaving';
import { getToken } from './session';
import { sessionRefusal } from './session-end';


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
  /** the call's body schema (src/shared/calls/): a reply's answers in it keep their leading spaces (trimBody) */
  bodySchema?: unknown;
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
  const refused = sessionRefusal();
  if (refused) throw refused;

  const headers = requestHeaders();
  const sentToken = getToken();
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(trimBody(options.body, options.bodySchema));
  }

  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? REQUEST_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.query), { method: options.method ?? 'GET', headers, body, signal: controller.signal });
  } catch {
    clearTimeout(timer);
    if (isLeaving()) return unanswered();
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
  if (isLeaving()) return unanswered(); // the answer's body was cut off by the unload
  // a session answer to a call made without a token, or about a token replaced meanwhile by a new login, is no news
  const quietSession = options.quietSession || !sentToken || getToken() !== sentToken;
  throw handleFailure(response.status, envelope, { ...options, quietSession });
}
