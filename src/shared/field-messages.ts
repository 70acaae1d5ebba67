import serverEn, { type ServerMessages } from './i18n/server-en.js';
import { fillText, findServerText, type Lang } from './i18n/text.js';
import type { MessagePaths } from './i18n/keys.js';

/**
 * Texts for a form field that breaks a rule, keyed by the rule (ajv's keyword where one exists):
 * qe.fieldRules.<rule> of the message files (src/shared/i18n/server-en.ts and server-zh-hk.ts),
 * a dotted rule (definition.badRule, import.rows) a group of its own there. Server 422 answers,
 * the import's lines and client-side checks use the same texts.
 */

/** A field rule's name (required, definition.badRule…): a wrong one fails the type check. */
export type FieldRule = MessagePaths<ServerMessages['qe']['fieldRules']>;

function rulesOf(tree: object, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([k, v]) => (typeof v === 'string' ? [`${prefix}${k}`] : rulesOf(v as object, `${prefix}${k}.`)));
}

/** Every field rule, in the order the message files give them. */
export const FIELD_RULES = rulesOf(serverEn.qe.fieldRules) as readonly FieldRule[];

export const isFieldRule = (rule: string): rule is FieldRule => (FIELD_RULES as readonly string[]).includes(rule);

/**
 * A rule's text in a language, its placeholders filled. A rule written out must be a FieldRule (a
 * misspelt one fails the type check); one made while running (an ajv keyword) is a string, and
 * one the message files do not know reads as a wrong format.
 */
export function fieldMessage<R extends string>(rule: R & (string extends R ? string : FieldRule), lang: Lang, params: Record<string, string | number> = {}): string {
  const text = findServerText(lang, `qe.fieldRules.${rule}`) ?? findServerText(lang, 'qe.fieldRules.format')!;
  return fillText(text, lang, params);
}

/**
 * The field rule for an ajv error: the property's own `x-qe-rule` (email, studentCode, password)
 * when its pattern or length fails, else ajv's keyword.
 */
export function ruleOf(keyword: string, parentSchema?: unknown): string {
  const own = (parentSchema as { 'x-qe-rule'?: string } | undefined)?.['x-qe-rule'];
  return own && ['pattern', 'minLength', 'maxLength', 'format'].includes(keyword) ? own : keyword;
}
