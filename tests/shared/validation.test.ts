import { describe, expect, it } from 'vitest';
import {
  EMAIL_PATTERN,
  PASSWORD_MAX,
  PASSWORD_MIN,
  isDateRangeValid,
  isValidEmail,
  isValidPassword,
  trimStrings,
} from '../../src/shared/validation.js';

describe('password length', () => {
  it('is 6 to 15 characters (spec §9)', () => {
    expect(PASSWORD_MIN).toBe(6);
    expect(PASSWORD_MAX).toBe(15);
  });

  it('accepts the bounds and refuses one character outside them', () => {
    expect(isValidPassword('a'.repeat(5))).toBe(false);
    expect(isValidPassword('a'.repeat(6))).toBe(true);
    expect(isValidPassword('a'.repeat(15))).toBe(true);
    expect(isValidPassword('a'.repeat(16))).toBe(false);
  });

  it('refuses the empty string and non-strings', () => {
    expect(isValidPassword('')).toBe(false);
    expect(isValidPassword(undefined)).toBe(false);
    expect(isValidPassword(12345678)).toBe(false);
    expect(isValidPassword(['abcdefg'])).toBe(false);
  });
});

describe('email pattern', () => {
  it.each(['a@b.cd', 'teacher01@demo.qe.school', 'first.last-name@my-school.edu.hk', 'under_score@x.org', 'UPPER@EXAMPLE.COM'])('accepts %s', (e) => {
    expect(isValidEmail(e)).toBe(true);
  });

  it.each([
    'plain',
    '@no-local.com',
    'no-domain@',
    'no-tld@domain',
    'short-tld@domain.c',
    'digit-tld@domain.c0m',
    'two@@signs.com',
    'space in@local.com',
    'plus+tag@gmail.com',
    'trailing@domain.com ',
    '',
  ])('refuses %j', (e) => {
    expect(isValidEmail(e)).toBe(false);
  });

  it('refuses non-strings', () => {
    expect(isValidEmail(null)).toBe(false);
    expect(isValidEmail(42)).toBe(false);
  });

  it('is anchored at both ends', () => {
    expect(EMAIL_PATTERN.test('x a@b.cd')).toBe(false);
    expect(EMAIL_PATTERN.test('a@b.cd x')).toBe(false);
  });
});


describe('trimStrings', () => {
  it('trims a string, spaces, tabs and new lines alike', () => {
    expect(trimStrings('  a b \t\n')).toBe('a b');
  });

  it('trims every string of nested objects and arrays', () => {
    const input = { name: ' Ann ', tags: [' a ', ['  b'], { deep: 'c  ' }], nested: { more: { text: '\tx\t' } } };
    expect(trimStrings(input)).toEqual({ name: 'Ann', tags: ['a', ['b'], { deep: 'c' }], nested: { more: { text: 'x' } } });
  });

  it('keeps numbers, booleans, null and undefined as they are', () => {
    expect(trimStrings({ n: 1, b: false, z: null, u: undefined, list: [0, true, null] })).toEqual({ n: 1, b: false, z: null, u: undefined, list: [0, true, null] });
    expect(trimStrings(5)).toBe(5);
    expect(trimStrings(null)).toBe(null);
  });

  it('does not change the value it is given', () => {
    const input = { a: ' x ', list: [' y '] };
    trimStrings(input);
    expect(input).toEqual({ a: ' x ', list: [' y '] });
  });

  it('trims objects without a prototype', () => {
    const query = Object.create(null) as Record<string, unknown>;
    query.q = ' find me ';
    expect(trimStrings(query)).toEqual({ q: 'find me' });
  });

  it('trims a value nested 100,000 deep without overflowing the stack', () => {
    let deep: unknown = ' x ';
    for (let i = 0; i < 100_000; i++) deep = i % 2 ? [deep] : { a: deep };
    let out = trimStrings(deep);
    for (let i = 0; i < 100_000; i++) out = Array.isArray(out) ? out[0] : (out as { a: unknown }).a;
    expect(out).toBe('x');
  });

  it('keeps a "__proto__" key as a key: nothing gets a new prototype', () => {
    const out = trimStrings(JSON.parse('{"__proto__": {"polluted": " yes "}, "b": " c "}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['__proto__', 'b']);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toEqual({ polluted: 'yes' });
    expect((out as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('leaves class instances such as dates and buffers alone', () => {
    const date = new Date('2024-01-02T00:00:00Z');
    const buffer = Buffer.from(' raw ');
    const out = trimStrings({ date, buffer });
    expect(out.date).toBe(date);
    expect(out.buffer).toBe(buffer);
  });
});

describe('isDateRangeValid', () => {
  it('accepts a start before or on the end date', () => {
    expect(isDateRangeValid('2024-09-01', '2025-08-31')).toBe(true);
    expect(isDateRangeValid('2024-09-01', '2024-09-01')).toBe(true);
  });

  it('refuses a start after the end date, across months and years', () => {
    expect(isDateRangeValid('2024-09-02', '2024-09-01')).toBe(false);
    expect(isDateRangeValid('2024-10-01', '2024-09-30')).toBe(false);
    expect(isDateRangeValid('2025-01-01', '2024-12-31')).toBe(false);
  });

  it('accepts an open range (either end missing)', () => {
    expect(isDateRangeValid(null, '2024-01-01')).toBe(true);
    expect(isDateRangeValid('2024-01-01', undefined)).toBe(true);
    expect(isDateRangeValid('', '')).toBe(true);
    expect(isDateRangeValid()).toBe(true);
  });
});
