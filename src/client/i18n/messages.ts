import publicZhHk from '../../shared/i18n/public-zh-hk';
import type { PublicMessages } from '../../shared/i18n/public-en';
import type { Locale } from './locale';
import type { DefinitionProblemKey, MessageKey } from '../../shared/i18n/keys';

/** react-admin's own texts (ra.action.save): their keys are react-admin's, not checked here. */
export type RaKey = `ra.${string}`;

/** What every screen translates with: react-admin's `translate` (i18n/translate.ts), or `translator` below. A key QE does not have fails the type check. */
export type Translate = (key: MessageKey | DefinitionProblemKey | RaKey, options?: Record<string, unknown>) => string;

/**
 * The texts of the screens outside the app in one language, without react-admin or polyglot:
 * zh-hk is in the first script (the default), en is fetched when it is the chosen one. Only
 * public-*.ts, the few texts those screens show (the app's message files include them).
 */
export async function publicMessages(locale: Locale): Promise<PublicMessages> {
  return locale === 'en' ? (await import('../../shared/i18n/public-en')).default : publicZhHk;
}

/** The zh-hk texts, there at once. */
export const defaultMessages: PublicMessages = publicZhHk;

/** `translate` over one message file: a dotted key, `%{name}` placeholders as polyglot fills them; an unknown key answers itself, as polyglot does. */
export function translator(messages: PublicMessages): Translate {
  return (key, options) => {
    let value: unknown = messages;
    for (const part of key.split('.')) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
    if (typeof value !== 'string') return key;
    return options ? value.replace(/%\{(\w+)\}/g, (whole, name: string) => (name in options ? String(options[name]) : whole)) : value;
  };
}
