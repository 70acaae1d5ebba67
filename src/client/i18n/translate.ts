import { useTranslate as useReactAdminTranslate } from 'react-admin';
import type { Translate } from './messages';

/**
 * react-admin's `useTranslate`, its keys typed: QE's screens name their texts by the keys of
 * app-en.ts (shared/i18n/keys.ts), so a mistyped key fails the type check; a key made while
 * running is marked with `composedKey`.
 */
export const useTranslate: () => Translate = useReactAdminTranslate;
