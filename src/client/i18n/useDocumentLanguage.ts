import { useEffect } from 'react';
import { setPageLanguage, type Locale } from './locale';

/** The page's `<html lang>` following the language shown, for the screens outside the app's layout (login, quick login, tutorial). */
export function useDocumentLanguage(locale: Locale): void {
  useEffect(() => setPageLanguage(locale), [locale]);
}
