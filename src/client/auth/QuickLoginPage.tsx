import { useLocaleState } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import { QuickLoginScreen } from './QuickLoginScreen';

/**
 * /app/quick inside the app. A page load of the reminder mail's link shows QuickLoginScreen
 * without the app (main.tsx); reached from within the app, the answer screen opens with a full
 * load, so nothing of an earlier session stays cached.
 */
export function QuickLoginPage() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  return <QuickLoginScreen locale={locale === 'en' ? 'en' : 'zh-hk'} translate={translate} onLoggedIn={(to) => window.location.replace(`/qe${to}`)} />;
}
