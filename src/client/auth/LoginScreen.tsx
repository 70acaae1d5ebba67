import { useEffect, useRef, useState, type FormEvent, type InputHTMLAttributes, type Ref } from 'react';
import { passwordFilter, usernameFilter } from '../../shared/input-filters';
import type { Locale } from '../i18n/locale';
import { chainChange, useInputFilter } from '../master/inputFilter';
import type { Translate } from '../i18n/messages';
import { passwordLogin, publicCall, type PublicSchoolInfo } from './publicApi';
import { Alert, LanguageMenu, PublicCard, SchoolIcon, Spinner, useDocumentLanguage } from './PublicScreen';
import type { InitState } from '../../shared/calls/school';
import { SignInButtons } from './SignInButtons';
import { returnToOf, signInProviders, startSignIn, type SignInProvider } from './signInFlow';

/** Where uploaded files are served (the school logo); layout/SchoolBrand.tsx names it for the app. */
const STORAGE_PATH = '/qe/storage/';

/** Where to go after login: the `redirect` parameter when it is a path of ours, else home. */
export function safeRedirect(value: string | null): string {
  return value && value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/login') ? value : '/';
}

export interface LoginScreenProps {
  locale: Locale;
  /** changes the language (absent: no switch) */
  onLocale?: (locale: Locale) => void;
  translate: Translate;
  /** the session is stored: go to `to` (a path without /qe), the dashboard or the `redirect` asked for */
  onLoggedIn: (to: string) => void | Promise<void>;
  /** QE has no school yet: go to /init */
  onUninitialised: () => void;
  /** the form was sent: the app may start loading (the login page itself does not need it) */
  onSubmit?: () => void;
}

const loginPasswordFilter = passwordFilter();

/** School name and logo above the form. */
function SchoolHeader({ school, locale, translate }: { school: PublicSchoolInfo | null; locale: Locale; translate: Translate }) {
  return (
    <div className="qe-p-school">
      {school?.schoolLogo ? <img src={`${STORAGE_PATH}${school.schoolLogo}`} alt="" width={40} height={40} data-testid="login-school-logo" /> : <SchoolIcon className="qe-p-school-icon" />}
      <div>
        <p className="qe-p-school-name" data-testid="login-school-name">
          {school ? (locale === 'en' ? school.nameEn : school.nameHk) : ''}
        </p>
        <p className="qe-p-secondary">{translate('qe.app.title')}</p>
      </div>
    </div>
  );
}

function TextField({ label, error, ...input }: { label: string; error: string; id: string; ref: Ref<HTMLInputElement>; 'data-testid': string } & InputHTMLAttributes<HTMLInputElement>) {
  const helper = `${input.id}-helper`;
  return (
    <div className={error ? 'qe-p-field qe-p-invalid' : 'qe-p-field'}>
      <div className="qe-p-input">
        {/* the placeholder is a space: CSS sees whether the field is empty (:placeholder-shown) and moves the label */}
        <input {...input} placeholder=" " aria-invalid={Boolean(error)} aria-describedby={error ? helper : undefined} aria-required="true" />
        <label htmlFor={input.id}>{label}</label>
      </div>
      <p className="qe-p-helper" id={helper}>
        {error}
      </p>
    </div>
  );
}

/**
 * /login (and /app/login without the language switch): the school's name and logo, user name and
 * password with the login messages of docs/product-rules.md#validation (the user name is trimmed), the server's message when a login
 * is refused; below it, a button per identity provider the school has enabled (sign-in with the
 * school's own accounts, SignInButtons.tsx). Before first run it sends to /init. Plain React: it is the page a phone on a slow
 * network opens first, before react-admin and MUI are downloaded (main.tsx; in the app,
 * LoginPage.tsx shows this same screen).
 */
export function LoginScreen({ locale, onLocale, translate, onLoggedIn, onUninitialised, onSubmit }: LoginScreenProps) {
  const [school, setSchool] = useState<PublicSchoolInfo | null>(null);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState({ username: false, password: false });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // the school's identity providers (none until they are known, and when the call fails), and the one whose page is opening
  const [providers, setProviders] = useState<SignInProvider[]>([]);
  const [starting, setStarting] = useState<number | null>(null);
  // docs/product-rules.md#input-filters: what a user name or a password cannot hold is stripped as it is typed
  const usernameFiltered = useInputFilter(usernameFilter);
  const passwordFiltered = useInputFilter(loginPasswordFilter);
  const usernameInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  // the callbacks of the first render: the calls below are made once
  const first = useRef({ locale, translate, onUninitialised });
  useDocumentLanguage(locale);
  // a refusal is shown in the language it came in: another language starts afresh, as the app's remount did
  useEffect(() => setError(null), [locale]);

  useEffect(() => {
    const { locale: lang, translate: t, onUninitialised: uninitialised } = first.current;
    let live = true;
    publicCall<InitState>('/v1/init', { locale: lang, translate: t })
      .then(({ initialised }) => live && !initialised && uninitialised())
      .catch(() => undefined);
    publicCall<PublicSchoolInfo>('/v1/school-info', { locale: lang, translate: t })
      .then((info) => live && setSchool(info))
      .catch(() => undefined);
    void signInProviders({ locale: lang, translate: t }).then((list) => live && setProviders(list));
    return () => {
      live = false;
    };
  }, []);

  // back from the provider's page with the browser's Back button (the page from the cache): the buttons work again
  useEffect(() => {
    const shown = (e: PageTransitionEvent) => e.persisted && setStarting(null);
    window.addEventListener('pageshow', shown);
    return () => window.removeEventListener('pageshow', shown);
  }, []);

  const usernameError = touched.username && !username.trim() ? translate('qe.login.usernameRequired') : '';
  const passwordError = touched.password && !password ? translate('qe.login.passwordRequired') : '';

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched({ username: true, password: true });
    if (!username.trim() || !password) {
      // the first field to fill in takes the focus: its message is read out with it
      (!username.trim() ? usernameInput : passwordInput).current?.focus();
      return;
    }
    onSubmit?.();
    setBusy(true);
    setError(null);
    try {
      await passwordLogin(username, password, { locale, translate });
    } catch (err) {
      setError((err as Error)?.message || translate('qe.error.tryLater'));
      setBusy(false);
      return;
    }
    // busy until the next screen replaces this one (the app may still be downloading)
    await onLoggedIn(safeRedirect(new URLSearchParams(window.location.search).get('redirect')));
  };

  /** A provider's button: its page opens, and the user comes back to /sign-in-callback, then where they meant to go. */
  const signInWith = async (provider: SignInProvider) => {
    setError(null);
    setStarting(provider.id);
    try {
      await startSignIn(provider.id, returnToOf(safeRedirect(new URLSearchParams(window.location.search).get('redirect'))), { locale, translate });
      // the browser is leaving for the provider's page: the buttons wait until it has
    } catch (err) {
      setError((err as Error)?.message || translate('qe.error.tryLater'));
      setStarting(null);
    }
  };

  return (
    <PublicCard
      title={translate('qe.login.title')}
      header={
        <div className="qe-p-header">
          <SchoolHeader school={school} locale={locale} translate={translate} />
          {onLocale && <LanguageMenu locale={locale} onChange={onLocale} translate={translate} />}
        </div>
      }
    >
      <form className="qe-p-form" onSubmit={submit} noValidate>
        {error && (
          <Alert severity="error" testId="login-error">
            {error}
          </Alert>
        )}
        <TextField
          ref={usernameInput}
          id="login-username"
          name="username"
          label={translate('qe.login.username')}
          {...usernameFiltered}
          value={username}
          onChange={chainChange(usernameFiltered.onChange, (e) => setUsername(e.target.value))}
          onBlur={() => setTouched((t) => ({ ...t, username: true }))}
          error={usernameError}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          autoFocus
          maxLength={100}
          data-testid="login-username"
        />
        <TextField
          ref={passwordInput}
          id="login-password"
          name="password"
          type="password"
          label={translate('qe.login.password')}
          {...passwordFiltered}
          value={password}
          onChange={chainChange(passwordFiltered.onChange, (e) => setPassword(e.target.value))}
          onBlur={() => setTouched((t) => ({ ...t, password: true }))}
          error={passwordError}
          autoComplete="current-password"
          maxLength={100}
          data-testid="login-password"
        />
        <button type="submit" className="qe-p-button" disabled={busy || starting !== null} aria-busy={busy} data-testid="login-submit">
          {busy && <Spinner size={18} />}
          {translate('qe.login.submit')}
        </button>
      </form>
      <SignInButtons providers={providers} locale={locale} translate={translate} starting={starting} onChoose={(p) => void signInWith(p)} />
    </PublicCard>
  );
}
