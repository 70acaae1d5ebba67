import type { AppMessages } from './app-en.js';

/** The dotted paths to the texts of a message tree (each after the prefix P). */
export type MessagePaths<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : MessagePaths<T[K], `${P}${K}.`>;
}[keyof T & string];

/** The dotted paths to the groups of a message tree, each ending in a dot. */
type Groups<T, P extends string> = {
  [K in keyof T & string]: T[K] extends string ? never : `${P}${K}.` | Groups<T[K], `${P}${K}.`>;
}[keyof T & string];

/** The key of one of QE's own texts, as written in app-en.ts (app-zh-hk.ts has the same): a wrong key fails the type check. */
export type MessageKey = MessagePaths<AppMessages>;

/** A key made while running from a group QE has, below `qe.`: `qe.enums.${entity}.${property}` — its group is checked, the rest is not. */
export type ComposedKey = `${Groups<AppMessages['qe'], 'qe.'>}${string}`;

/**
 * Marks a key made while running (from an enum's value, a problem's name) as a message key: the
 * compiler checks the group it starts with. A plain string literal needs no mark, and gets none
 * so that a mistyped one is caught.
 */
export const composedKey = (key: ComposedKey): MessageKey => key as MessageKey;

/**
 * The designer's problems with a definition: the client's message files copy the `definition.*`
 * field rules (qe.fieldRules.definition, server-en.ts) to qe.designer.problems
 * (client/i18n/shared-messages.ts).
 */
export type DefinitionProblemKey = `qe.designer.problems.${keyof AppMessages['qe']['fieldRules']['definition'] & string}`;
