import { useEffect, useState, type FormEvent } from 'react';
import { Alert, Button, Link, Stack, TextField, Typography } from '@mui/material';
import { HttpError, useLocaleState, useNotify } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { fieldMessage } from '../../shared/field-messages';
import { isValidEmail, isValidPassword } from '../../shared/validation';
import { normaliseUsername } from '../../shared/usernames';
import { request } from '../providers/http';
import { CenteredCard } from './CenteredCard';
import type { InitState } from '../../shared/calls/school';

const FIELDS = ['schoolNameHk', 'schoolNameEn', 'username', 'password', 'confirmPassword', 'nameHk', 'nameEn', 'email'] as const;
type Field = (typeof FIELDS)[number];

/** /init: first run only. Creates the school and its first super administrator, then closes for good. */
export function InitPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const [locale] = useLocaleState();
  const lang = locale === 'en' ? 'en' : 'zh-hk';
  const [initialised, setInitialised] = useState<boolean | null>(null);
  const [values, setValues] = useState<Record<Field, string>>(() => Object.fromEntries(FIELDS.map((f) => [f, ''])) as Record<Field, string>);
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const [serverErrors, setServerErrors] = useState<Partial<Record<Field, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    request<InitState>('/v1/init', { ignoreErr: true }).then((r) => setInitialised(r.initialised), () => setInitialised(false));
  }, []);

  const check = (f: Field): string => {
    const v = values[f].trim();
    if (f === 'email') return v && !isValidEmail(v) ? fieldMessage('email', lang) : '';
    if (!v) return fieldMessage('required', lang);
    // a full-width name is the ordinary one (src/shared/usernames.ts): the server reads it so
    if (f === 'username' && !/^[A-Za-z0-9_.-]+$/.test(normaliseUsername(v))) return translate('qe.init.usernamePattern');
    if (f === 'password' && !isValidPassword(v)) return fieldMessage('password', lang);
    if (f === 'confirmPassword' && v !== values.password.trim()) return fieldMessage('passwordMismatch', lang);
    return '';
  };
  const shown = (f: Field) => serverErrors[f] || (touched[f] ? check(f) : '');

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(Object.fromEntries(FIELDS.map((f) => [f, true])));
    if (FIELDS.some((f) => check(f))) return;
    setBusy(true);
    setError(null);
    const { confirmPassword: _confirm, email, ...rest } = values;
    try {
      await request('/v1/init', { method: 'POST', body: { ...rest, ...(email.trim() ? { email } : {}) }, ignoreErr: true });
      notify('qe.init.done', { type: 'success' });
      navigate('/login', { replace: true });
    } catch (err) {
      const body = (err as HttpError).body as { errors?: Partial<Record<Field, string>> } | undefined;
      if (body?.errors) setServerErrors(body.errors);
      else setError((err as Error).message);
      setBusy(false);
    }
  };

  if (initialised === null) return null;
  if (initialised) {
    return (
      <CenteredCard title={translate('qe.init.title')}>
        <Typography data-testid="init-closed">{translate('qe.init.closed')}</Typography>
        <Link component={RouterLink} to="/login" sx={{ mt: 2, display: 'inline-block' }}>
          {translate('qe.login.title')}
        </Link>
      </CenteredCard>
    );
  }

  const input = (f: Field, extra: { type?: string; autoComplete?: string } = {}) => (
    <TextField
      key={f}
      name={f}
      label={translate(`qe.init.${f}`)}
      value={values[f]}
      onChange={(e) => {
        setValues((v) => ({ ...v, [f]: e.target.value }));
        setServerErrors((s) => ({ ...s, [f]: undefined }));
      }}
      onBlur={() => setTouched((t) => ({ ...t, [f]: true }))}
      error={Boolean(shown(f))}
      helperText={shown(f) || ' '}
      required={f !== 'email'}
      fullWidth
      size="small"
      {...extra}
      slotProps={{ htmlInput: { 'data-testid': `init-${f}`, maxLength: f.startsWith('school') ? 200 : 100 } }}
    />
  );

  return (
    <CenteredCard title={translate('qe.init.title')}>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {translate('qe.init.intro')}
      </Typography>
      <Stack component="form" onSubmit={submit} noValidate spacing={0.5}>
        {error && <Alert severity="error">{error}</Alert>}
        <Typography variant="subtitle2">{translate('qe.init.school')}</Typography>
        {input('schoolNameHk')}
        {input('schoolNameEn')}
        <Typography variant="subtitle2">{translate('qe.init.admin')}</Typography>
        {input('username', { autoComplete: 'username' })}
        {input('password', { type: 'password', autoComplete: 'new-password' })}
        {input('confirmPassword', { type: 'password', autoComplete: 'new-password' })}
        {input('nameHk')}
        {input('nameEn')}
        {input('email', { type: 'email', autoComplete: 'email' })}
        <Button type="submit" variant="contained" disabled={busy} data-testid="init-submit">
          {translate('qe.init.submit')}
        </Button>
      </Stack>
    </CenteredCard>
  );
}
