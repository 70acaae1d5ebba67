import { useEffect, useState } from 'react';
import { Alert, Box, Button, CircularProgress } from '@mui/material';
import { useTranslate } from 'react-admin';
import { request } from '../providers/http';
import { clearSession, saveSession } from '../providers/session';
import { CenteredCard } from './CenteredCard';

/**
 * /app/quick?token=… — the link of a reminder mail: logs its respondent into that one
 * questionnaire (the server limits the session to it) and opens the answer screen.
 */
export function QuickLoginPage() {
  const translate = useTranslate();
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    const token = new URLSearchParams(window.location.search).get('token');
    if (!token) {
      setFailure(translate('qe.quick.invalid'));
      return;
    }
    clearSession();
    request<{ tk: string; userId: number; questionnaireId: number }>('/v1/quick-login', { method: 'POST', body: { token }, ignoreErr: true, quietSession: true })
      .then(({ tk, userId, questionnaireId }) => {
        saveSession(tk, userId);
        // a full load, so nothing of an earlier session stays cached
        window.location.replace(`/qe/questionnaire-filling/detail?id=${questionnaireId}`);
      })
      .catch((error: Error) => setFailure(error.message && error.message !== 'ERROR' ? error.message : translate('qe.quick.invalid')));
  }, [translate]);
  return (
    <CenteredCard title={translate('qe.quick.title')}>
      {failure ? (
        <Box data-testid="quick-failed">
          <Alert severity="warning" sx={{ mb: 2 }}>
            {failure}
          </Alert>
          <Button variant="contained" href="/qe/login">
            {translate('qe.quick.toLogin')}
          </Button>
        </Box>
      ) : (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 2 }}>
          <CircularProgress aria-label={translate('qe.app.loading')} />
        </Box>
      )}
    </CenteredCard>
  );
}
