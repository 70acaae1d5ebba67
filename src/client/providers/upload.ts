import { HttpError } from 'react-admin';
import { REQUEST_TIMEOUT_MS, type Envelope } from '../../shared/envelope';
import { SUCCESS_CODES } from '../../shared/errors';
import { handleFailure, toast } from './failures';
import { buildUrl, requestHeaders } from './http';
import { translate } from './i18nProvider';
import { isLeaving } from './page-leaving';
import { getToken } from './session';
import { sessionRefusal } from './session-end';

/**
 * A multipart upload (Excel import) with its progress: XMLHttpRequest, because fetch cannot
 * report upload progress. Same headers, session checks, envelope and error handling as
 * request(): a 706 answer opens the import-errors dialog, 401/444 end the session, and so on;
 * a 422 is handed to the caller (its field errors in body.errors).
 */
export function upload<T = unknown>(path: string, form: FormData, onProgress?: (fraction: number | null) => void, timeoutMs = REQUEST_TIMEOUT_MS): Promise<T> {
  const refused = sessionRefusal();
  if (refused) return Promise.reject(refused);
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
      if (isLeaving()) return;
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
