import type { AppMessages } from './app-en.js';
import type { FieldRule } from '../field-messages.js';

/** The dotted paths to the texts of a message tree. */
type Paths<T, P extends string> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Paths<T[K], `${P}${K}.`>;
}[keyof T & string];

/** The dotted paths to the groups of a message tree, each ending in a dot. */
type Groups<T, P extends string> = {
  [K in keyof T & string]: T[K] extends string ? never : `${P}${K}.` | Groups<T[K], `${P}${K}.`>;
}[keyof T & string];

/** The key of one of QE's own texts, as written in app-en.ts (app-zh-hk.ts has the same): a wrong key fails the type check. */
export type MessageKey = Paths<AppMessages, ''>;

/** A key made while running from a group QE has, below `qe.`: `qe.enums.${entity}.${property}` — its group is checked, the rest is not. */
export type ComposedKey = `${Groups<AppMessages['qe'], 'qe.'>}${string}`;

/**
 * Marks a key made while running (from an enum's value, a problem's name) as a message key: the
 * compiler checks the group it starts with. A plain string literal needs no mark, and gets none
 * so that a mistyped one is caught.
 */
export const composedKey = (key: ComposedKey): MessageKey => key as MessageKey;

type DefinitionRules<R> = R extends `definition.${infer P}` ? P : never;
/** The designer's problems with a definition, which the client's message files take from field-messages.ts (client/i18n/shared-messages.ts). */
export type DefinitionProblemKey = `qe.designer.problems.${DefinitionRules<FieldRule>}`;
