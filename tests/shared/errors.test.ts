import { describe, expect, it } from 'vitest';
import { ERRORS, SESSION_CODES, SUCCESS_CODES, errorText, interpolate, type ErrorKey, type Lang } from '../../src/shared/errors.js';
import { FIELD_RULES, fieldMessage } from '../../src/shared/field-messages.js';
import appEn from '../../src/shared/i18n/app-en.js';
import appZhHk from '../../src/shared/i18n/app-zh-hk.js';
import { flatten } from '../support/messages.js';

const keys = Object.keys(ERRORS) as ErrorKey[];
/** The message catalogue as the client's files hold it, one language each. */
const catalogue: Record<Lang, Map<string, unknown>> = { en: flatten(appEn), 'zh-hk': flatten(appZhHk) };
const text = (lang: Lang, key: string) => catalogue[lang].get(key) as string;
const placeholders = (text: string) => [...text.matchAll(/%\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('interpolate', () => {
  it('replaces every named placeholder with its value, numbers included', () => {
    expect(interpolate('%{a} and %{b} and %{a}', { a: 'x', b: 2 })).toBe('x and 2 and x');
  });

  it('leaves a placeholder without a value as it is', () => {
    expect(interpolate('wait %{minutes} min', {})).toBe('wait %{minutes} min');
    expect(interpolate('wait %{minutes} min')).toBe('wait %{minutes} min');
  });

  it('answers text without placeholders unchanged', () => {
    expect(interpolate('plain text', { a: 1 })).toBe('plain text');
  });

  it('puts a falsy value (0, empty string) in rather than keeping the placeholder', () => {
    expect(interpolate('%{n}|%{s}|', { n: 0, s: '' })).toBe('0||');
  });
});

describe('errorText', () => {
  it('answers the zh-hk and the en text of a catalogue entry (qe.errors.<KEY> of the message files)', () => {
    expect(errorText('LOGIN_FAILED', 'zh-hk')).toBe(text('zh-hk', 'qe.errors.LOGIN_FAILED'));
    expect(errorText('LOGIN_FAILED', 'en')).toBe(text('en', 'qe.errors.LOGIN_FAILED'));
    expect(errorText('LOGIN_FAILED', 'en')).toBe('Incorrect user name or password');
    expect(errorText('LOGIN_FAILED', 'zh-hk')).not.toBe(errorText('LOGIN_FAILED', 'en'));
  });

  it('fills in the parameters in both languages', () => {
    expect(errorText('LOGIN_RATE_LIMITED', 'en', { minutes: 7 })).toBe('Too many failed logins, please try again in 7 minutes');
    const zh = errorText('LOGIN_RATE_LIMITED', 'zh-hk', { minutes: 7 });
    expect(zh).toContain('7');
    expect(zh).not.toContain('%{');
    expect(errorText('DUPLICATE', 'en', { field: 'Username', value: 'teacher01' })).toBe('Username "teacher01" is already in use');
  });
});

describe('the error catalogue', () => {
  it('has a text in the message files for every entry, and no text for an entry it lacks', () => {
    for (const lang of ['en', 'zh-hk'] as const) {
      const texts = [...catalogue[lang].keys()].filter((k) => k.startsWith('qe.errors.')).map((k) => k.slice('qe.errors.'.length));
      expect(texts.sort(), lang).toEqual([...keys].sort());
    }
  });

  it.each(keys)('%s has a non-empty zh-hk and en text', (key) => {
    expect(text('zh-hk', `qe.errors.${key}`).trim()).not.toBe('');
    expect(text('en', `qe.errors.${key}`).trim()).not.toBe('');
  });

  it.each(keys)('%s uses the same placeholders in both languages', (key) => {
    expect(placeholders(text('zh-hk', `qe.errors.${key}`))).toEqual(placeholders(text('en', `qe.errors.${key}`)));
  });

  it('gives every entry its own code, but for refusals that share one with a message of their own (refused uploads 716, illegal changes 709, refused callers 405)', () => {
    const sharing: Record<number, ErrorKey[]> = {
      716: ['IMAGE_REFUSED', 'FILE_TYPE_REFUSED'],
      709: ['ILLEGAL_TRANSITION', 'OWN_DEVELOPER_ACCESS', 'ALREADY_SUBMITTED', 'NOT_OPEN_YET', 'QUESTIONNAIRE_CLOSED', 'NOTICE_IN_PROGRESS', 'ANONYMOUS_NO_DRAFT', 'TEMPLATE_RETIRED'],
      713: ['MAIL_FAILED', 'MAIL_SETTING_MISSING', 'PUBLIC_URL_REQUIRED', 'MAIL_PASSWORD_UNREADABLE', 'MAIL_CERTIFICATE_UNTRUSTED'],
      405: ['PERMISSION_DENIED', 'NOT_A_RESPONDENT'],
      // a request refused before a route reads it (body, URL, headers, media type, time, Expect), or a draft too large to keep
      406: ['INVALID_REQUEST', 'REQUEST_TOO_LARGE', 'URL_TOO_LONG', 'UNSUPPORTED_MEDIA_TYPE', 'HEADERS_TOO_LARGE', 'REQUEST_TIMEOUT', 'EXPECTATION_FAILED', 'DRAFT_TOO_LARGE'],
      // try again later: a hold-up on the server's side, or too many requests (drafts saved too often among them)
      20000: ['TRY_LATER', 'RATE_LIMITED', 'DRAFT_SAVES_LIMITED'],
      702: ['LOGIN_RATE_LIMITED', 'PASSWORD_RATE_LIMITED'],
    };
    const shared = new Set(Object.values(sharing).flat());
    const codes = keys.filter((k) => !shared.has(k)).map((k) => ERRORS[k].code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const [code, group] of Object.entries(sharing)) {
      for (const key of group) expect(ERRORS[key].code).toBe(Number(code));
      expect(codes).not.toContain(Number(code));
    }
  });

  it('answers errors with an HTTP error status (4xx or 5xx)', () => {
    for (const key of keys) {
      expect(ERRORS[key].http, key).toBeGreaterThanOrEqual(400);
      expect(ERRORS[key].http, key).toBeLessThan(600);
    }
  });

  it('has the session codes 401 and 444 of spec §8, answered with HTTP 401', () => {
    expect([...SESSION_CODES].sort()).toEqual([401, 444]);
    for (const key of keys.filter((k) => SESSION_CODES.has(ERRORS[k].code))) expect(ERRORS[key].http).toBe(401);
    expect(keys.filter((k) => SESSION_CODES.has(ERRORS[k].code))).toHaveLength(2);
  });

  it('keeps success codes out of the catalogue', () => {
    expect([...SUCCESS_CODES].sort()).toEqual([200, 201]);
    for (const key of keys) expect(SUCCESS_CODES.has(ERRORS[key].code)).toBe(false);
  });
});

describe('field messages', () => {
  it('lists every field rule of the message files (qe.fieldRules)', () => {
    for (const lang of ['en', 'zh-hk'] as const) {
      const texts = [...catalogue[lang].keys()].filter((k) => k.startsWith('qe.fieldRules.')).map((k) => k.slice('qe.fieldRules.'.length));
      expect(texts, lang).toEqual([...FIELD_RULES]);
    }
    expect(FIELD_RULES).toEqual(expect.arrayContaining(['required', 'definition.noSection', 'import.rows']));
  });

  it.each([...FIELD_RULES])('%s has a non-empty zh-hk and en text', (rule) => {
    expect(text('zh-hk', `qe.fieldRules.${rule}`).trim()).not.toBe('');
    expect(text('en', `qe.fieldRules.${rule}`).trim()).not.toBe('');
    expect(placeholders(text('zh-hk', `qe.fieldRules.${rule}`))).toEqual(placeholders(text('en', `qe.fieldRules.${rule}`)));
    expect(fieldMessage(rule, 'zh-hk')).toBe(text('zh-hk', `qe.fieldRules.${rule}`));
    expect(fieldMessage(rule, 'en')).toBe(text('en', `qe.fieldRules.${rule}`));
  });

  it('fills in the limit of a length rule', () => {
    expect(fieldMessage('minLength', 'en', { limit: 6 })).toBe('At least 6 characters');
    expect(fieldMessage('maxLength', 'zh-hk', { limit: 15 })).toBe('最多 15 個字元');
  });

  it('falls back to the wrong-format text for a rule it does not know (made while running: a string)', () => {
    for (const rule of ['no-such-rule', 'definition', 'toString', 'import.constructor'] as string[]) {
      expect(fieldMessage(rule, 'en'), rule).toBe(text('en', 'qe.fieldRules.format'));
      expect(fieldMessage(rule, 'zh-hk'), rule).toBe(text('zh-hk', 'qe.fieldRules.format'));
    }
  });

  it('has the login texts of spec §5', () => {
    expect(fieldMessage('usernameRequired', 'en')).toBe('Please enter user name');
    expect(fieldMessage('passwordRequired', 'en')).toBe('Please enter password');
    expect(fieldMessage('email', 'en')).toBe('Please enter a correct email address');
  });
});
