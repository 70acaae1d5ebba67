import { useLocaleState } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import { SignInCallbackScreen } from './SignInCallbackScreen';

/**
 * /sign-in-callback inside the app. A page load of it — the provider sends the browser back —
 * shows SignInCallbackScreen without the app (main.tsx); reached from within the app, the screen
 * the user meant to go to opens with a full load, so nothing of an earlier session stays cached.
 */
export function SignInCallbackPage() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  return <SignInCallbackScreen locale={locale === 'en' ? 'en' : 'zh-hk'} translate={translate} onLoggedIn={(to) => window.location.replace(`/qe${to}`)} />;
}
