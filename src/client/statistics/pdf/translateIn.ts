import polyglotI18nProvider from 'ra-i18n-polyglot';
import zhHk from '../../i18n/zh-hk';
import { LOCALES } from '../../i18n/locale';
import type { Lang } from '../../../shared/i18n/text';
import type { Translate } from './options';

/**
 * The translate function of a report in a language other than the interface's: the same
 * messages and the same polyglot as react-admin's (providers/i18nProvider.ts), so the report's
 * own texts read as they would with the interface in that language. English is fetched when
 * first asked for, as the interface fetches it.
 */
export async function translateIn(lang: Lang): Promise<Translate> {
  const messages = lang === 'en' ? (await import('../../i18n/en')).default : zhHk;
  const provider = polyglotI18nProvider(() => messages, lang, LOCALES, { allowMissing: false });
  return (key, options) => provider.translate(key, options);
}
