import { HttpError } from 'react-admin';
import { checkSession, clearSession } from './session';
import { translate } from './i18nProvider';

let expiredShown = false;

/** 401/444: once only, log out, tell the user, reload 300 ms later (docs/errors.md#how-the-client-shows-them). */
export function sessionExpired(): void {
  if (expiredShown) return;
  expiredShown = true;
  clearSession();
  window.alert(translate('qe.session.expired'));
  setTimeout(() => window.location.reload(), 300);
}

/** The stored token belongs to someone else than the user this page was loaded for (docs/errors.md#how-the-client-shows-them). */
export function userChanged(): void {
  if (expiredShown) return;
  expiredShown = true;
  window.alert(translate('qe.session.userChanged'));
  window.location.href = '/qe/dashboard';
}

/**
 * Before a call: the error to answer at once when the stored session is no longer this page's
 * (its token belongs to another user, or another tab logged in as someone else), having said so.
 */
export function sessionRefusal(): HttpError | null {
  const session = checkSession();
  if (session === 'token-user-mismatch') {
    sessionExpired();
    return new HttpError('ERROR_TOKEN_USERID_NOT_MATCH', 401, { code: 401 });
  }
  if (session === 'user-changed') {
    userChanged();
    return new HttpError(translate('qe.session.userChanged'), 401, { code: 401 });
  }
  return null;
}
