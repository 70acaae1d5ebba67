import appEn from '../i18n/app-en.js';
import appZhHk from '../i18n/app-zh-hk.js';
import type { MessageKey } from '../i18n/keys.js';
import { fillText, lookupText, type Lang } from '../i18n/text.js';

/**
 * Field and choice labels of the master entities, read from the one place they are written:
 * the message files (qe.fields.{entity}.{property}, qe.enums.{entity}.{property}.{value}).
 * The server needs them for the sheets' column headers and the import's row messages.
 */
const MESSAGES: Record<Lang, unknown> = { en: appEn, 'zh-hk': appZhHk };

const lookup = (lang: Lang, path: string[]) => lookupText(MESSAGES[lang], path);

export function fieldLabel(entityKey: string, property: string, lang: Lang): string {
  return lookup(lang, ['qe', 'fields', entityKey, property]) ?? lookup(lang, ['qe', 'fields', 'common', property]) ?? property;
}

export function choiceLabel(entityKey: string, property: string, value: string, lang: Lang): string {
  return lookup(lang, ['qe', 'enums', entityKey, property, value]) ?? value;
}

/**
 * Any client message by its key, for texts the server answers in the caller's language (the
 * answer problems of a refused reply), with polyglot's %{name} placeholders and its
 * " |||| " plural parts (English: one, other; Chinese: one form).
 */
export function messageText(lang: Lang, key: MessageKey, params: Record<string, string | number | undefined> = {}): string {
  return fillText(lookup(lang, key.split('.')) ?? key, lang, params);
}
