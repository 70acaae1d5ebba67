import { useEffect, useRef, useState } from 'react';
import type { Locale } from '../i18n/locale';
import type { Translate } from '../i18n/messages';
import { clearSession, saveSession, setCurrentUserId } from '../providers/session';
import { publicCall } from './publicApi';
import { Alert, PublicCard, Spinner, useDocumentLanguage } from './PublicScreen';
import type { QuickSession } from '../../shared/calls/filling';

/**
 * /app/quick?token=… — the link of a reminder mail: logs its respondent into that one
 * questionnaire (the server limits the session to it), then `onLoggedIn` opens the answer screen
 * (a path without /qe). Plain React, like the login screen: the link is often opened on a phone.
 */
export function QuickLoginScreen({ locale, translate, onLoggedIn }: { locale: Locale; translate: Translate; onLoggedIn: (to: string) => void }) {
  const [failure, setFailure] = useState<string | null>(null);
  // once per page load: React's strict mode runs effects twice, and the call ends the old session
  const started = useRef(false);
  const first = useRef({ locale, translate, onLoggedIn });
  useDocumentLanguage(locale);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const { locale: lang, translate: t, onLoggedIn: loggedIn } = first.current;
    const token = new URLSearchParams(window.location.search).get('token');
    if (!token) {
      setFailure(t('qe.quick.invalid'));
      return;
    }
    clearSession();
    publicCall<QuickSession>('/v1/quick-login', { locale: lang, translate: t, method: 'POST', body: { token } })
      .then(({ tk, userId, questionnaireId }) => {
        saveSession(tk, userId);
        setCurrentUserId(String(userId));
        loggedIn(`/questionnaire-filling/detail?id=${questionnaireId}`);
      })
      .catch((error: Error) => setFailure(error.message && error.message !== 'ERROR' ? error.message : t('qe.quick.invalid')));
  }, []);

  return (
    <PublicCard title={translate('qe.quick.title')}>
      {failure ? (
        <div data-testid="quick-failed">
          <Alert severity="warning">{failure}</Alert>
          <a className="qe-p-button qe-p-inline" href="/qe/login">
            {translate('qe.quick.toLogin')}
          </a>
        </div>
      ) : (
        <div className="qe-p-center">
          <Spinner size={40} label={translate('qe.app.loading')} />
        </div>
      )}
    </PublicCard>
  );
}
