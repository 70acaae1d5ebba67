import type { Lang } from '../errors.js';
import appEn from '../i18n/app-en.js';
import appZhHk from '../i18n/app-zh-hk.js';
import type { MessageKey } from '../i18n/keys.js';

/**
 * Field and choice labels of the master entities, read from the one place they are written:
 * the message files (qe.fields.{entity}.{property}, qe.enums.{entity}.{property}.{value}).
 * The server needs them for the sheets' column headers and the import's row messages.
 */
const MESSAGES: Record<Lang, unknown> = { en: appEn, 'zh-hk': appZhHk };

function lookup(lang: Lang, path: string[]): string | undefined {
  let node: unknown = MESSAGES[lang];
  for (const part of path) {
    if (!node || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' ? node : undefined;
}

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
  const text = lookup(lang, key.split('.')) ?? key;
  const parts = text.split(' |||| ');
  const count = Number(params.smart_count ?? params.count ?? 1);
  const chosen = lang === 'en' && parts.length > 1 && count !== 1 ? parts[1] : parts[0];
  return chosen.replace(/%\{(\w+)\}/g, (whole, name: string) => (params[name] === undefined ? whole : String(params[name])));
}
