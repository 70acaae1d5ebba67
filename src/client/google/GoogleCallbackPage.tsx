import { useEffect, useRef, useState } from 'react';
import { Typography } from '@mui/material';
import { useTranslate } from '../i18n/translate';
import { CenteredCard } from '../auth/CenteredCard';
import { GOOGLE_MESSAGE, type GoogleMessage } from './message';

/** The answer of the provider in this page's query string, as the opener expects it. */
export function callbackMessage(search: string): GoogleMessage {
  const params = new URLSearchParams(search);
  const message: GoogleMessage = { type: GOOGLE_MESSAGE, code: params.get('code'), state: params.get('state') };
  const error = params.get('error');
  if (error) message.error = error;
  return message;
}

/**
 * /google-callback (public, no layout): where the provider sends the sign-in popup back. It
 * hands `code` and `state` to the QE window that opened it — postMessage to this same origin
 * only — and closes itself; opened any other way, it says so.
 */
export function GoogleCallbackPage() {
  const translate = useTranslate();
  const [orphan, setOrphan] = useState(false);
  // once per page: React's strict mode runs effects twice
  const posted = useRef(false);

  useEffect(() => {
    const opener = window.opener as Window | null;
    if (!opener || opener === window) {
      setOrphan(true);
      return;
    }
    if (posted.current) return;
    posted.current = true;
    opener.postMessage(callbackMessage(window.location.search), window.location.origin);
    window.close();
  }, []);

  return (
    <CenteredCard title={translate('qe.menu.googleCallback')}>
      <Typography data-testid={orphan ? 'google-callback-orphan' : 'google-callback'} sx={{ color: orphan ? 'text.primary' : 'text.secondary' }}>
        {translate(orphan ? 'qe.google.noOpener' : 'qe.google.returning')}
      </Typography>
    </CenteredCard>
  );
}
