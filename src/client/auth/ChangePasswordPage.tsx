import { useState, type FormEvent } from 'react';
import { Alert, Button, Card, CardContent, Stack, TextField } from '@mui/material';
import { HttpError, Title, useLocaleState, useLogout, useNotify } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import { fieldMessage } from '../../shared/field-messages';
import { passwordFilter } from '../../shared/input-filters';
import { isValidPassword, PASSWORD_MAX } from '../../shared/validation';
import { useInputFilter } from '../master/inputFilter';
import { request } from '../providers/http';

type Field = 'oldPassword' | 'newPassword' | 'confirmPassword';

// docs/product-rules.md#input-filters: a password's filter; the old one is whatever the server holds, a new one at most PASSWORD_MAX long
const oldPasswordFilter = passwordFilter();
const newPasswordFilter = passwordFilter(PASSWORD_MAX);

/** /change-psw: old, new and confirm; afterwards every session ends and the user logs in again. */
export function ChangePasswordPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const logout = useLogout();
  const [locale] = useLocaleState();
  const lang = locale === 'en' ? 'en' : 'zh-hk';
  const [values, setValues] = useState<Record<Field, string>>({ oldPassword: '', newPassword: '', confirmPassword: '' });
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const [serverErrors, setServerErrors] = useState<Partial<Record<Field, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const filtered: Record<Field, ReturnType<typeof useInputFilter>> = {
    oldPassword: useInputFilter(oldPasswordFilter),
    newPassword: useInputFilter(newPasswordFilter),
    confirmPassword: useInputFilter(newPasswordFilter),
  };

  const check = (field: Field): string => {
    const v = values[field];
    if (!v) return fieldMessage('required', lang);
    if (field !== 'oldPassword' && !isValidPassword(v)) return fieldMessage('password', lang);
    if (field === 'confirmPassword' && v !== values.newPassword) return fieldMessage('passwordMismatch', lang);
    return '';
  };
  const shown = (field: Field) => serverErrors[field] || (touched[field] ? check(field) : '');

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched({ oldPassword: true, newPassword: true, confirmPassword: true });
    if ((['oldPassword', 'newPassword', 'confirmPassword'] as Field[]).some((f) => check(f))) return;
    setBusy(true);
    setError(null);
    try {
      await request('/v1/change-password', { method: 'POST', body: { oldPassword: values.oldPassword, newPassword: values.newPassword }, ignoreErr: true });
      notify('qe.changePassword.success', { type: 'success', autoHideDuration: 3000 });
      await logout({}, '/login');
    } catch (err) {
      const body = (err as HttpError).body as { errors?: Partial<Record<Field, string>> } | undefined;
      if (body?.errors) setServerErrors(body.errors);
      else setError((err as Error).message);
      setBusy(false);
    }
  };

  const field = (name: Field, autoComplete: string) => (
    <TextField
      key={name}
      type="password"
      name={name}
      label={translate(`qe.changePassword.${name}`)}
      value={values[name]}
      onChange={(e) => {
        setValues((v) => ({ ...v, [name]: e.target.value }));
        setServerErrors((s) => ({ ...s, [name]: undefined }));
      }}
      onBlur={() => setTouched((t) => ({ ...t, [name]: true }))}
      error={Boolean(shown(name))}
      helperText={shown(name) || ' '}
      autoComplete={autoComplete}
      required
      fullWidth
      slotProps={{ htmlInput: { ...filtered[name], 'data-testid': name, maxLength: 100 } }}
    />
  );

  return (
    <Card sx={{ mt: 2, maxWidth: 480 }}>
      <Title title={translate('qe.menu.changePsw')} />
      <CardContent>
        <Stack component="form" onSubmit={submit} noValidate spacing={1}>
          {error && <Alert severity="error">{error}</Alert>}
          {field('oldPassword', 'current-password')}
          {field('newPassword', 'new-password')}
          {field('confirmPassword', 'new-password')}
          <Button type="submit" variant="contained" disabled={busy} data-testid="change-password-submit">
            {translate('qe.changePassword.submit')}
          </Button>
        </Stack>
      </CardContent>
    </Card>
  );
}
