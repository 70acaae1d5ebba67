import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Alert, Button, Link, Stack, TextField, Typography } from '@mui/material';
import { HttpError, useLocaleState, useNotify } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { fieldMessage } from '../../shared/field-messages';
import { isValidEmail, isValidPassword } from '../../shared/validation';
import { normaliseUsername } from '../../shared/usernames';
import { request } from '../providers/http';
import { CenteredCard } from './CenteredCard';
import { LanguageMenu, useDocumentLanguage } from './PublicScreen';
import type { InitState } from '../../shared/calls/school';

const FIELDS = ['schoolNameHk', 'schoolNameEn', 'username', 'password', 'confirmPassword', 'nameHk', 'nameEn', 'email'] as const;
type Field = (typeof FIELDS)[number];

/**
 * What the screen holds across a change of language: react-admin draws the page anew then
 * (ra-core's I18nContextProvider), and neither what was typed nor the keyboard's place may go
 * with it. In memory only, and emptied when the screen is left otherwise.
 */
const kept: { values?: Record<Field, string>; touched?: Partial<Record<Field, boolean>>; initialised?: boolean; switching?: boolean } = {};

/**
 * /init: first run only. Creates the school and its first super administrator (a record of the
 * administrators' list afterwards), then closes for good. The login page sends here before first
 * run, so this screen has the login page's language switch.
 */
export function InitPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const [locale, setLocale] = useLocaleState();
  const lang = locale === 'en' ? 'en' : 'zh-hk';
  const form = useRef<HTMLFormElement>(null);
  const languageSwitch = useRef<HTMLDivElement>(null);
  const [initialised, setInitialised] = useState<boolean | null>(kept.initialised ?? null);
  const [values, setValues] = useState<Record<Field, string>>(() => kept.values ?? (Object.fromEntries(FIELDS.map((f) => [f, ''])) as Record<Field, string>));
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>(kept.touched ?? {});
  const [serverErrors, setServerErrors] = useState<Partial<Record<Field, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useDocumentLanguage(lang);

  useEffect(() => {
    if (kept.initialised === undefined) request<InitState>('/v1/init', { ignoreErr: true }).then((r) => setInitialised(r.initialised), () => setInitialised(false));
  }, []);

  // the server's refusals are not kept: they came in the language they were asked in
  useEffect(() => {
    Object.assign(kept, { values, touched, initialised: initialised ?? undefined });
  }, [values, touched, initialised]);
  useEffect(() => {
    if (kept.switching) languageSwitch.current?.querySelector('button')?.focus();
    kept.switching = false;
    return () => {
      if (!kept.switching) for (const k of Object.keys(kept)) delete kept[k as keyof typeof kept];
    };
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
  // the first field to put right takes the focus: its message is read out with it
  const focusField = (f: Field) => (form.current?.elements.namedItem(f) as HTMLInputElement | null)?.focus();
  const shown = (f: Field) => serverErrors[f] || (touched[f] ? check(f) : '');

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(Object.fromEntries(FIELDS.map((f) => [f, true])));
    const invalid = FIELDS.find((f) => check(f));
    if (invalid) {
      focusField(invalid);
      return;
    }
    setBusy(true);
    setError(null);
    const { confirmPassword: _confirm, email, ...rest } = values;
    try {
      await request('/v1/init', { method: 'POST', body: { ...rest, ...(email.trim() ? { email } : {}) }, ignoreErr: true });
      notify('qe.init.done', { type: 'success' });
      navigate('/login', { replace: true });
    } catch (err) {
      const body = (err as HttpError).body as { errors?: Partial<Record<Field, string>> } | undefined;
      if (body?.errors) {
        setServerErrors(body.errors);
        const first = FIELDS.find((f) => body.errors?.[f]);
        if (first) focusField(first);
      } else setError((err as Error).message || translate('qe.error.tryLater'));
      setBusy(false);
    }
  };

  if (initialised === null) return null;
  const header = (
    <div className="qe-p-header qe-p-header-end" ref={languageSwitch}>
      <LanguageMenu
        locale={lang}
        onChange={(next) => {
          kept.switching = true;
          setLocale(next);
        }}
        translate={translate}
      />
    </div>
  );
  if (initialised) {
    return (
      <CenteredCard title={translate('qe.init.title')} header={header}>
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
    <CenteredCard title={translate('qe.init.title')} header={header}>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {translate('qe.init.intro')}
      </Typography>
      <Stack component="form" ref={form} onSubmit={submit} noValidate spacing={0.5}>
        {error && (
          <Alert severity="error" data-testid="init-error">
            {error}
          </Alert>
        )}
        <Typography variant="subtitle2" component="h2">{translate('qe.init.school')}</Typography>
        {input('schoolNameHk')}
        {input('schoolNameEn')}
        <Typography variant="subtitle2" component="h2">{translate('qe.init.admin')}</Typography>
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
