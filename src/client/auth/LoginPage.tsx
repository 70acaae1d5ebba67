import { useLocaleState } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import { useQueryClient } from '@tanstack/react-query';
import { Navigate, useNavigate } from 'react-router-dom';
import { forgetUserInfo } from '../providers/authProvider';
import { getToken } from '../providers/session';
import { LoginScreen } from './LoginScreen';

/**
 * /login inside the app (after a logout, or an expired session): the same screen the first
 * script draws without react-admin (LoginScreen.tsx), with react-admin's language and router. A
 * logged-in user is sent to /.
 */
export function LoginPage({ chromeless = false }: { chromeless?: boolean }) {
  const translate = useTranslate();
  const [locale, setLocale] = useLocaleState();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  if (getToken()) return <Navigate to="/" replace />;
  return (
    <LoginScreen
      locale={locale === 'en' ? 'en' : 'zh-hk'}
      onLocale={chromeless ? undefined : setLocale}
      translate={translate}
      onUninitialised={() => navigate('/init', { replace: true })}
      onLoggedIn={(to) => {
        forgetUserInfo();
        // react-admin keeps the failed pre-login checkAuth in its cache, and the layout would
        // log the new session out on that stale answer: forget every auth answer
        queryClient.removeQueries({ queryKey: ['auth'] });
        navigate(to, { replace: true });
      }}
    />
  );
}
