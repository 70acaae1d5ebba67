import { useEffect, useState } from 'react';
import type { PublicMessages } from '../../shared/i18n/public-en';
import { DEFAULT_LOCALE, storedLocale, storeLocale, type Locale } from '../i18n/locale';
import { defaultMessages, publicMessages, translator } from '../i18n/messages';
import { LoginScreen } from './LoginScreen';
import { QuickLoginScreen } from './QuickLoginScreen';
import { SignInCallbackScreen } from './SignInCallbackScreen';
import { SIGN_IN_CALLBACK_PATH } from './signInFlow';

/** The screens a page load may open without the app (react-admin, MUI): see publicScreenOf. */
export type PublicScreenName = 'login' | 'app-login' | 'quick' | 'sign-in-callback';

/**
 * Which of them a path (without /qe) opens on a page load, or null for the app: the login page
 * when nobody is logged in (with a session, /login leads home, in the app), the reminder
 * mail's quick login, which starts a session of its own, and the page the school's identity
 * provider sends the browser back to (a sign-in starts a session; the super administrator's test
 * is made with theirs).
 */
export function publicScreenOf(path: string, hasToken: boolean): PublicScreenName | null {
  if (path === '/app/quick') return 'quick';
  if (path === SIGN_IN_CALLBACK_PATH) return 'sign-in-callback';
  if (hasToken) return null;
  if (path === '/login') return 'login';
  if (path === '/app/login') return 'app-login';
  return null;
}

/**
 * The public screens as the first script shows them: QE's texts of the chosen language (the
 * one react-admin's store remembers, i18n/locale.ts) without react-admin, and the app, loaded by
 * `openApp` only once it is needed: after a login, or before first run (/init).
 */
export function PublicApp({ screen, openApp, preloadApp }: { screen: PublicScreenName; openApp: (to: string) => Promise<void>; preloadApp: () => void }) {
  const [locale, setLocale] = useState<Locale>(storedLocale);
  const [messages, setMessages] = useState<{ locale: Locale; texts: PublicMessages } | null>(() => (locale === DEFAULT_LOCALE ? { locale, texts: defaultMessages } : null));

  useEffect(() => {
    if (messages?.locale === locale) return;
    let live = true;
    publicMessages(locale).then(
      (texts) => live && setMessages({ locale, texts }),
      // the English file did not arrive: the screen stays in (or falls back to) Chinese
      () => live && (setLocale(DEFAULT_LOCALE), setMessages({ locale: DEFAULT_LOCALE, texts: defaultMessages })),
    );
    return () => {
      live = false;
    };
  }, [locale, messages?.locale]);

  // the answer screen (the screen the user meant to go to) comes next: its code downloads while the link (the sign-in) is checked
  useEffect(() => {
    if (screen === 'quick' || screen === 'sign-in-callback') preloadApp();
  }, [screen, preloadApp]);

  // until the chosen language's texts are here (English, fetched), nothing: no flash of Chinese
  if (!messages) return null;
  const translate = translator(messages.texts);
  const shown = messages.locale;
  if (screen === 'quick') return <QuickLoginScreen locale={shown} translate={translate} onLoggedIn={openApp} />;
  if (screen === 'sign-in-callback') return <SignInCallbackScreen locale={shown} translate={translate} onLoggedIn={(to) => void openApp(to)} />;
  return (
    <LoginScreen
      locale={shown}
      onLocale={
        screen === 'login'
          ? (next) => {
              storeLocale(next);
              setLocale(next);
            }
          : undefined
      }
      translate={translate}
      onSubmit={preloadApp}
      onLoggedIn={openApp}
      onUninitialised={() => void openApp('/init')}
    />
  );
}
