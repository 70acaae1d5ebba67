/**
 * The two languages, and where the chosen one is kept: react-admin's store in local storage
 * (providers/store.ts builds it with STORE_VERSION and STORE_APP_KEY), under its `locale` key as
 * a JSON string. The screens outside the app (login, quick login: auth/PublicApp.tsx) run without
 * react-admin and read and write that same entry, so the app opens in the language chosen on
 * the login page, and the login page in the one chosen in the app. No react-admin here: the
 * login page's first script imports this file.
 */
export type Locale = 'zh-hk' | 'en';
export const DEFAULT_LOCALE: Locale = 'zh-hk';
export const LOCALES: { locale: Locale; name: string }[] = [
  { locale: 'zh-hk', name: '繁體中文' },
  { locale: 'en', name: 'English' },
];

/** `<html lang>` for a language: screen readers and the browser's own texts follow it. */
export function setPageLanguage(locale: string): void {
  document.documentElement.lang = locale === 'en' ? 'en' : 'zh-HK';
}

export const STORE_VERSION = '1';
export const STORE_APP_KEY = 'qe';
// react-admin's localStorageStore names its entries `RaStore${appKey}.${key}` (no dot after RaStore)
const LOCALE_ITEM = `RaStore${STORE_APP_KEY}.locale`;
const VERSION_ITEM = `RaStore${STORE_APP_KEY}.version`;

/** The language chosen on this device, zh-hk when none (or local storage cannot be read). */
export function storedLocale(): Locale {
  try {
    const version = localStorage.getItem(VERSION_ITEM);
    // a store of another version is emptied by react-admin when the app starts
    if (version !== null && version !== STORE_VERSION) return DEFAULT_LOCALE;
    const value = localStorage.getItem(LOCALE_ITEM);
    return value !== null && JSON.parse(value) === 'en' ? 'en' : DEFAULT_LOCALE;
  } catch {
    return DEFAULT_LOCALE;
  }
}

/** Remembers the language as react-admin's `useLocaleState` does. */
export function storeLocale(locale: Locale): void {
  try {
    if (localStorage.getItem(VERSION_ITEM) === null) localStorage.setItem(VERSION_ITEM, STORE_VERSION);
    localStorage.setItem(LOCALE_ITEM, JSON.stringify(locale));
  } catch {
    // private mode without storage: the choice lasts as long as the page
  }
}
