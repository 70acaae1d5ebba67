import serverEn, { type ServerMessages } from './server-en.js';
import serverZhHk from './server-zh-hk.js';
import type { MessagePaths } from './keys.js';

/** The languages QE speaks: its message files come in these two. */
export type Lang = 'zh-hk' | 'en';

/** The text at a dotted path of a message tree, or undefined where there is none (a group, a missing key). */
export function lookupText(tree: unknown, path: string[]): string | undefined {
  let node: unknown = tree;
  for (const part of path) {
    if (!node || typeof node !== 'object' || !Object.prototype.hasOwnProperty.call(node, part)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/**
 * A message as the client's polyglot shows it: its " |||| " plural parts (English: one, other;
 * Chinese: one form) and its %{name} placeholders filled, a placeholder without a value kept.
 */
export function fillText(text: string, lang: Lang, params: Record<string, string | number | undefined> = {}): string {
  const parts = text.split(' |||| ');
  const count = Number(params.smart_count ?? params.count ?? 1);
  const chosen = lang === 'en' && parts.length > 1 && count !== 1 ? parts[1] : parts[0];
  return chosen.replace(/%\{(\w+)\}/g, (whole, name: string) => (params[name] === undefined ? whole : String(params[name])));
}

const SERVER: Record<Lang, ServerMessages> = { en: serverEn, 'zh-hk': serverZhHk };

/** The key of a text of server-en.ts (qe.errors.…, qe.fieldRules.…, qe.permissions.…, qe.userType.…): a wrong key fails the type check. */
export type ServerKey = MessagePaths<ServerMessages>;

/** A text of server-en.ts / server-zh-hk.ts, filled as `messageText` fills any message (src/shared/master/labels.ts). */
export function serverText(lang: Lang, key: ServerKey, params?: Record<string, string | number | undefined>): string {
  return fillText(lookupText(SERVER[lang], key.split('.')) ?? key, lang, params);
}

/** A text of server-en.ts by a key made while running (a field rule, a page code), or undefined when there is none. */
export function findServerText(lang: Lang, key: string): string | undefined {
  return lookupText(SERVER[lang], key.split('.'));
}

/** A text in both languages, as the database stores names (name_hk, name_en): the key itself where there is none. */
export function serverNames(key: string): { nameHk: string; nameEn: string } {
  return { nameHk: findServerText('zh-hk', key) ?? key, nameEn: findServerText('en', key) ?? key };
}
