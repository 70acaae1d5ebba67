import type { TranslationMessages } from 'react-admin';
import { fieldMessage } from '../../shared/field-messages';
import type { Lang } from '../../shared/errors';
import type { AppMessages } from '../../shared/i18n/app-en';

// The texts the server words too, taken from the field rules of the message files
// (qe.fieldRules, src/shared/i18n/server-en.ts) so that one catalogue holds them.

/**
 * react-admin's own field checks (required, minLength, maxLength, minValue, maxValue) worded as
 * the server's (src/shared/field-messages.ts): a field says the same on blur as after saving.
 */
export function withFieldMessages(messages: TranslationMessages, lang: Lang): TranslationMessages {
  // react-admin fills %{min} / %{max} where the field rule says %{limit}
  const text = (rule: 'minLength' | 'maxLength' | 'minimum' | 'maximum', placeholder: string) => fieldMessage(rule, lang, { limit: `%{${placeholder}}` });
  const { ra } = messages;
  return {
    ...messages,
    ra: {
      ...ra,
      validation: {
        ...ra.validation,
        required: fieldMessage('required', lang),
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
 * when it refuses one: the `definition.*` field rules (qe.fieldRules.definition).
 */
export function withDefinitionProblems<T extends AppMessages>(app: T): T {
  return { ...app, qe: { ...app.qe, designer: { ...app.qe.designer, problems: app.qe.fieldRules.definition } } };
}
