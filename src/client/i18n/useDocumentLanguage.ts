import { useLayoutEffect } from 'react';
import { setPageLanguage, type Locale } from './locale';

/**
 * The page's `<html lang>` following the language shown, for the screens outside the app's layout
 * (login, quick login, tutorial): set with the render that changes the texts, before the browser
 * paints them or a screen reader reads them (a passive effect came a moment later, on a busy machine
 * after the new texts were already read).
 */
export function useDocumentLanguage(locale: Locale): void {
  useLayoutEffect(() => setPageLanguage(locale), [locale]);
}
