import type { Lang } from '../errors.js';
import appEn from '../../client/i18n/app-en.js';
import appZhHk from '../../client/i18n/app-zh-hk.js';

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
