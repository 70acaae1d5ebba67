import { HttpError } from 'react-admin';
import type { Envelope } from '../../shared/envelope';
import { SESSION_CODES } from '../../shared/errors';
import { publish } from './notifier';
import { translate } from './i18nProvider';
import { sessionExpired } from './session-end';

/** What a failed call may ask for: no message (the caller shows it), no session alert. */
export interface FailureOptions {
  ignoreErr?: boolean;
  quietSession?: boolean;
}

export function toast(message: string, type: 'error' | 'success' | 'info' | 'warning' = 'error') {
  publish({ kind: 'toast', message, type });
}

/** A refused call as an HttpError, having shown what docs/errors.md#how-the-client-shows-them says for its code. */
export function handleFailure(status: number, envelope: Envelope<unknown>, options: FailureOptions): HttpError {
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
