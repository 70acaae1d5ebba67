import { useState } from 'react';
import { Alert, Box, Button, Card, CardContent, TextField, Typography } from '@mui/material';
import SendIcon from '@mui/icons-material/Send';
import { useLocale, useNotify, type HttpError } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import { useQueryClient } from '@tanstack/react-query';
import { useWatch } from 'react-hook-form';
import { fieldMessage } from '../../shared/field-messages';
import type { MasterEntity } from '../../shared/master/entity';
import { isValidEmail } from '../../shared/validation';
import { request } from '../providers/http';
import { SingleScreen } from './SingleScreen';
import { MailOutbox, OUTBOX_QUERY } from './MailOutbox';

/** Sends a test mail with the saved setting: POST /v1/{resource}/test {to}. */
export function TestMail({ resource, saved }: { resource: string; saved: boolean }) {
  const translate = useTranslate();
  const notify = useNotify();
  const lang = useLocale() === 'en' ? 'en' : 'zh-hk';
  const [to, setTo] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const queryClient = useQueryClient();

  const send = async () => {
    const address = to.trim();
    if (!isValidEmail(address)) {
      setError(fieldMessage(address ? 'email' : 'required', lang));
      return;
    }
    setError(null);
    setBusy(true);
    try {
      await request(`/v1/${resource}/test`, { method: 'POST', body: { to: address }, ignoreErr: true });
      notify('qe.master.mail.testSent', { type: 'success', messageArgs: { to: address } });
      // with the development outbox on, the mail shows there
      void queryClient.invalidateQueries({ queryKey: OUTBOX_QUERY });
    } catch (e) {
      const failure = e as HttpError;
      const fieldErrors = (failure.body as { errors?: Record<string, string> } | undefined)?.errors;
      if (fieldErrors?.to) setError(fieldErrors.to);
      else notify(failure.message || 'qe.error.operationFailed', { type: 'error', autoHideDuration: 6000 });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card sx={{ mt: 2 }} data-testid="test-mail">
      <CardContent>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 500, mb: 1 }}>
          {translate('qe.master.mail.testTitle')}
        </Typography>
        <Box sx={{ display: 'flex', gap: 2, alignItems: 'flex-start', flexWrap: 'wrap' }}>
          <TextField
            size="small"
            type="email"
            label={translate('qe.master.mail.recipient')}
            value={to}
            onChange={(e) => setTo(e.target.value)}
            error={Boolean(error)}
            helperText={error ?? translate(saved ? 'qe.master.mail.testLanguage' : 'qe.master.mail.saveFirst')}
            disabled={!saved || busy}
            sx={{ width: 340, maxWidth: '100%' }}
            slotProps={{ htmlInput: { 'data-testid': 'test-mail-to' } }}
          />
          <Button variant="outlined" startIcon={<SendIcon />} onClick={send} disabled={!saved || busy} data-testid="test-mail-send">
            {translate('qe.master.mail.send')}
          </Button>
        </Box>
      </CardContent>
    </Card>
  );
}

/** While the form's "allow an untrusted certificate" is on (saved or not yet): what that gives away. */
export function UntrustedCertificateWarning() {
  const translate = useTranslate();
  const on = useWatch({ name: 'allowUntrustedCertificate' });
  if (!on) return null;
  return (
    <Alert severity="warning" sx={{ mb: 2, width: '100%' }} data-testid="untrusted-certificate-warning">
      {translate('qe.master.mail.untrustedWarning')}
    </Alert>
  );
}

/**
 * The mail setting (/master/mails): the SMTP server, the reminder template in Chinese and in
 * English with their placeholders (each recipient gets the one of their language, an English
 * reader the Chinese one while the English one is empty), a test mail, and the development outbox
 * when it is on.
 */
export function MailSettingScreen({ entity }: { entity: MasterEntity }) {
  const translate = useTranslate();
  const placeholders = translate('qe.master.mail.placeholders');
  const helperTexts = {
    reminderSubject: placeholders,
    reminderContent: placeholders,
    reminderSubjectEn: translate('qe.master.mail.englishTemplate'),
    reminderContentEn: placeholders,
  };
  return (
    <SingleScreen entity={entity} helperTexts={helperTexts} afterInput={{ allowUntrustedCertificate: <UntrustedCertificateWarning /> }}>
      {(saved, mayEdit) => (
        <>
          {mayEdit && <TestMail resource={entity.meta.resource} saved={saved != null} />}
          <MailOutbox resource={entity.meta.resource} />
        </>
      )}
    </SingleScreen>
  );
}
