import type { TranslationMessages } from 'react-admin';
import { FIELD_MESSAGES } from '../../shared/field-messages';
import type { Lang } from '../../shared/errors';

// The texts the server words too, taken from src/shared so that one catalogue holds them.

/**
 * react-admin's own field checks (required, minLength, maxLength, minValue, maxValue) worded as
 * the server's (src/shared/field-messages.ts): a field says the same on blur as after saving.
 */
export function withFieldMessages(messages: TranslationMessages, lang: Lang): TranslationMessages {
  const text = (rule: string, placeholder: string) => FIELD_MESSAGES[rule][lang].replace('%{limit}', `%{${placeholder}}`);
  const { ra } = messages;
  return {
    ...messages,
    ra: {
      ...ra,
      validation: {
        ...ra.validation,
        required: FIELD_MESSAGES.required[lang],
        minLength: text('minLength', 'min'),
        maxLength: text('maxLength', 'max'),
        minValue: text('minimum', 'min'),
        maxValue: text('maximum', 'max'),
      },
    },
  };
}

/**
 * The designer's problems with a definition (qe.designer.problems.*) as the server words them
 * when it refuses one (the `definition.*` rules of src/shared/field-messages.ts).
 */
export function withDefinitionProblems<T extends { qe: { designer: object } }>(app: T, lang: Lang): T {
  const problems = Object.fromEntries(
    Object.entries(FIELD_MESSAGES)
      .filter(([rule]) => rule.startsWith('definition.'))
      .map(([rule, text]) => [rule.slice('definition.'.length), text[lang]]),
  );
  return { ...app, qe: { ...app.qe, designer: { ...app.qe.designer, problems } } };
}
