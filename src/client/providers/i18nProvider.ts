import polyglotI18nProvider from 'ra-i18n-polyglot';
import zhHk from '../i18n/zh-hk';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '../i18n/locale';

export { DEFAULT_LOCALE, LOCALES, type Locale } from '../i18n/locale';

/** zh-hk is bundled (the default); English is fetched the first time someone switches to it. */
export const i18nProvider = polyglotI18nProvider(
  (locale) => (locale === 'en' ? import('../i18n/en').then((m) => m.default) : zhHk),
  DEFAULT_LOCALE,
  LOCALES,
  { allowMissing: false },
);

export function currentLocale(): Locale {
  return i18nProvider.getLocale() === 'en' ? 'en' : 'zh-hk';
}

/** For code outside React (the HTTP client). */
export function translate(key: string, options?: Record<string, unknown>): string {
  return i18nProvider.translate(key, options);
}
