import { describe, expect, it } from 'vitest';
import { flatten } from '../../support/messages';
import appEn from '../../../src/shared/i18n/app-en';
import appZhHk from '../../../src/shared/i18n/app-zh-hk';
import { QUESTIONNAIRE_STATUSES, QUESTIONNAIRE_TYPES, TARGET_KINDS } from '../../../src/shared/questionnaire/types';
import { PICK_KINDS, SCOPES, pickKey, statusKey, targetKindKey, typeKey } from '../../../src/client/questionnaires/form/labels';

const files = new Map<object, Map<string, unknown>>([appZhHk, appEn].map((m) => [m, flatten(m)]));
const text = (messages: object, key: string) => files.get(messages)!.get(key);

// the keys these screens build at run time, which the general message test cannot see in the source
const keys = [
  ...QUESTIONNAIRE_STATUSES.map(statusKey),
  ...QUESTIONNAIRE_TYPES.map(typeKey),
  ...TARGET_KINDS.map(targetKindKey),
  ...PICK_KINDS.map(pickKey),
  ...SCOPES.map((s) => `qe.questionnaire.scope.${s}`),
];

describe('questionnaire labels', () => {
  it.each(keys)('%s has a text in zh-hk and in en', (key) => {
    for (const messages of [appZhHk, appEn]) {
      const value = text(messages, key);
      expect(typeof value, key).toBe('string');
      expect((value as string).trim()).not.toBe('');
    }
  });

  it('says the statuses differently in the two languages', () => {
    expect(text(appZhHk, statusKey('PROCESSING'))).not.toBe(text(appEn, statusKey('PROCESSING')));
  });
});
