import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';
import LockResetIcon from '@mui/icons-material/LockReset';
import { useLocale, useNotify, useRecordContext, type HttpError } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import type { Lang } from '../../shared/errors';
import { fieldMessage } from '../../shared/field-messages';
import type { EntityMeta } from '../../shared/master/entity';
import { passwordFilter } from '../../shared/input-filters';
import { isValidPassword, PASSWORD_MAX } from '../../shared/validation';
import { request } from '../providers/http';
import { useInputFilter } from './inputFilter';
import { useRecordName } from './labels';

/** docs/product-rules.md#input-filters: a new password's filter, as the account forms' password field has */
const newPasswordFilter = passwordFilter(PASSWORD_MAX);

interface Errors {
  password?: string;
  confirm?: string;
}

/** An account's password is never shown or edited in its form: this dialog sets a new one (PUT /v1/{resource}/{id}/password). */
export function ResetPasswordButton({ meta }: { meta: EntityMeta }) {
  const record = useRecordContext();
  const translate = useTranslate();
  const notify = useNotify();
  const nameOf = useRecordName();
  const lang: Lang = useLocale() === 'en' ? 'en' : 'zh-hk';
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const passwordFiltered = useInputFilter(newPasswordFilter);
  const confirmFiltered = useInputFilter(newPasswordFilter);
  if (!record) return null;

  const close = () => {
    setOpen(false);
    setPassword('');
    setConfirm('');
    setErrors({});
  };

  const submit = async () => {
    const found: Errors = {};
    if (!isValidPassword(password)) found.password = fieldMessage('password', lang);
    if (password !== confirm) found.confirm = fieldMessage('passwordMismatch', lang);
    setErrors(found);
    if (found.password || found.confirm) return;
    setBusy(true);
    try {
      await request(`/v1/${meta.resource}/${encodeURIComponent(String(record.id))}/password`, { method: 'PUT', body: { password }, ignoreErr: true });
      notify('qe.master.password.done', { type: 'success' });
      close();
    } catch (e) {
      const error = e as HttpError;
      const fieldErrors = (error.body as { errors?: Record<string, string> } | undefined)?.errors;
      if (fieldErrors?.password) setErrors({ password: fieldErrors.password });
      else notify(error.message || 'qe.error.operationFailed', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button type="button" startIcon={<LockResetIcon />} onClick={() => setOpen(true)} data-testid="reset-password">
        {translate('qe.master.password.reset')}
      </Button>
      <Dialog open={open} onClose={busy ? undefined : close} fullWidth maxWidth="xs" aria-labelledby="qe-reset-password-title">
        <DialogTitle id="qe-reset-password-title">{translate('qe.master.password.title', { name: nameOf(record) })}</DialogTitle>
        <DialogContent>
          <TextField
            type="password"
            label={translate('qe.master.password.newPassword')}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            error={Boolean(errors.password)}
            helperText={errors.password ?? ' '}
            autoComplete="new-password"
            fullWidth
            required
            margin="dense"
            slotProps={{ htmlInput: { ...passwordFiltered, 'data-testid': 'reset-password-new' } }}
          />
          <TextField
            type="password"
            label={translate('qe.master.password.confirmPassword')}
            value={confirm}
            onChange={(e) => setConfirm(e.target.value)}
            error={Boolean(errors.confirm)}
            helperText={errors.confirm ?? ' '}
            autoComplete="new-password"
            fullWidth
            required
            margin="dense"
            slotProps={{ htmlInput: { ...confirmFiltered, 'data-testid': 'reset-password-confirm' } }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={close} disabled={busy}>
            {translate('qe.common.cancel')}
          </Button>
          <Button variant="contained" onClick={submit} disabled={busy} data-testid="reset-password-submit">
            {translate('qe.common.confirm')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
