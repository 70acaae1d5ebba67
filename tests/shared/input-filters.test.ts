import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  filterFor,
  parseClassBody,
  parseRepeatedClass,
  passwordFilter,
  typeInto,
  USERNAME_PATTERN,
  usernameFilter,
  type FilterableProperty,
  type InputFilter,
} from '../../src/shared/input-filters.js';
import { normaliseDocumentNumber, validDocumentNumber } from '../../src/shared/personal.js';
import { normaliseUsername } from '../../src/shared/usernames.js';
import { readSchemas } from '../../scripts/codegen.js';
import { EMAIL_PATTERN } from '../../src/shared/validation.js';

const EMAIL = EMAIL_PATTERN.source;
const f = (p: FilterableProperty) => filterFor(p)!;

/** Types `text` one character at a time, the caret at the end, as a user would. */
const typeAll = (filter: InputFilter, text: string, start = '') => [...text].reduce((value, c) => typeInto(filter, value, value + c, value.length + c.length).value, start);

/** A seeded generator (mulberry32): the same strings on every run. */
function random(seed: number) {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const CJK = [...'陳大文學生電話０１２３ＡＢ（）＃－　'];
function randomStrings(count: number, seed = 15): string[] {
  const next = random(seed);
  return Array.from({ length: count }, () => {
    const n = Math.floor(next() * 40);
    let s = '';
    for (let i = 0; i < n; i++) s += next() < 0.85 ? String.fromCharCode(0x20 + Math.floor(next() * 95)) : CJK[Math.floor(next() * CJK.length)];
    return s;
  });
}

describe('the class parser', () => {
  it('reads ranges, \\w, \\d, escapes and a hyphen at either end as literal', () => {
    const has = (body: string, chars: string) => {
      const set = parseClassBody(body)!;
      return [...chars].map((c) => set.some(([a, b]) => c.codePointAt(0)! >= a && c.codePointAt(0)! <= b));
    };
    expect(has('A-Za-z0-9_-', 'aZ09_-')).toEqual([true, true, true, true, true, true]);
    expect(has('A-Za-z0-9_-', '.@ ')).toEqual([false, false, false]);
    expect(has('\\w.-', 'a_9.-')).toEqual([true, true, true, true, true]);
    expect(has('\\w.-', '@ ')).toEqual([false, false]);
    expect(has('\\d', '09a')).toEqual([true, true, false]);
    expect(has('-a', '-ab')).toEqual([true, true, false]);
    expect(has('a\\-z', 'a-zb')).toEqual([true, true, true, false]);
    expect(has('0-9+() -', '5+() -x')).toEqual([true, true, true, true, true, true, false]);
  });

  it('refuses what it cannot read safely: negation, \\s, \\p{…}, \\u escapes, a reversed range', () => {
    for (const body of ['^a-z', 'a\\s', '\\p{L}', '\\u0041', 'z-a', '']) expect(parseClassBody(body)).toBeNull();
  });

  it('takes one class repeated, after an optional literal prefix inside the class', () => {
    expect(parseRepeatedClass('^[A-Za-z0-9_-]+$')?.prefix).toBe('');
    expect(parseRepeatedClass('^S[A-Za-z0-9_-]*$')?.prefix).toBe('S');
    expect(parseRepeatedClass('^[0-9]{2,8}$')).not.toBeNull();
    for (const p of [EMAIL, '^$|^[a-z]+$', '[a-z]+', '^[a-z]+', '^#[0-9]+$', '^[a-z]+[0-9]+$', '^[a-z]$']) expect(parseRepeatedClass(p)).toBeNull();
  });
});

describe('filterFor', () => {
  it('a code: letters, digits, underscore, hyphen; nothing else', () => {
    const code = f({ type: 'string', pattern: '^[A-Za-z0-9_-]+$', maxLength: 30 });
    expect(code.kind).toBe('pattern');
    expect(code('T 01.中!_a-b')).toBe('T01_a-b');
    expect(code.inputMode).toBeUndefined();
  });

  it('a student code: only the class part filters (its "must begin with S" stays the blur check)', () => {
    const code = f({ type: 'string', pattern: '^S[A-Za-z0-9_-]*$' });
    expect(code('S12 3!')).toBe('S123');
    expect(code('x1')).toBe('x1');
  });

  it('a user name: letters, digits and _ . @ -', () => {
    const username = f({ type: 'string', pattern: USERNAME_PATTERN });
    expect(username('chan.tai-man_1@school 陳!')).toBe('chan.tai-man_1@school');
    expect(usernameFilter(' lee ')).toBe('lee');
  });

  it('a user name keeps the full-width forms an input method types, which the server reads as the ordinary ones (src/shared/usernames.ts)', () => {
    const username = f({ type: 'string', pattern: USERNAME_PATTERN });
    expect(username('ｆｕｌｌ１２３')).toBe('ｆｕｌｌ１２３');
    expect(usernameFilter('ｃｈａｎ．ｔａｉ－ｍａｎ＿１＠ｓｃｈｏｏｌ 陳！')).toBe('ｃｈａｎ．ｔａｉ－ｍａｎ＿１＠ｓｃｈｏｏｌ');
    // a space, full-width or not, is still refused; and a code's pattern keeps only its own characters
    expect(usernameFilter('ｆｕｌｌ\u3000１２３')).toBe('ｆｕｌｌ１２３');
    expect(f({ type: 'string', pattern: '^S[A-Za-z0-9_-]*$' })('Ｓ１２')).toBe('');
  });

  it('a phone: digits, +, brackets, space, hyphen; the phone keyboard', () => {
    const tel = f({ type: ['string', 'null'], pattern: '^[0-9+() -]*$', maxLength: 30 });
    expect(tel('+852 (2345)-678x9#')).toBe('+852 (2345)-6789');
    expect(tel.inputMode).toBe('tel');
  });

  it('an e-mail address, a name, an enum, a date get no filter', () => {
    expect(filterFor({ type: ['string', 'null'], pattern: EMAIL, maxLength: 100 })).toBeNull();
    expect(filterFor({ type: 'string', maxLength: 100 })).toBeNull();
    expect(filterFor({ type: 'string', enum: ['1', '2'] })).toBeNull();
    expect(filterFor({ type: ['string', 'null'], format: 'date' })).toBeNull();
    expect(filterFor({ type: 'boolean' })).toBeNull();
  });

  it('an amount: digits and a single dot, at most 2 decimals and 20 digits', () => {
    const amount = f({ type: 'string', 'x-qe-input': 'amount' });
    expect(amount.inputMode).toBe('decimal');
    expect(amount('12.3.4')).toBe('12.34');
    expect(amount('1.234')).toBe('1.23');
    expect(amount('-$1,000.5')).toBe('1000.5');
    expect(amount('1'.repeat(21))).toBe('1'.repeat(20));
    expect(amount(`${'9'.repeat(19)}.123`)).toBe(`${'9'.repeat(19)}.1`);
    // typed one key at a time
    expect(typeAll(amount, '12..3.45')).toBe('12.34');
    expect(typeAll(amount, '1'.repeat(25))).toBe('1'.repeat(20));
  });

  it('an integer: digits, and a leading minus only where the minimum allows negatives', () => {
    const seq = f({ type: 'integer', minimum: 0, maximum: 9999 });
    expect(seq.kind).toBe('integer');
    expect(seq.inputMode).toBe('numeric');
    expect(seq('-12.5e3')).toBe('1253');
    const signed = f({ type: ['integer', 'null'] });
    expect(signed('-12-3')).toBe('-123');
    expect(signed('1-2')).toBe('12');
    expect(f({ type: 'string', 'x-qe-input': 'integer', minimum: -5 })('--7')).toBe('-7');
  });

  it('a password: everything the server accepts (any character, 6 to 15 after trimming) but control characters', () => {
    const password = f({ type: 'string', 'x-qe-input': 'password', maxLength: 15 });
    expect(password('Ab c!~密碼é')).toBe('Ab c!~密碼é');
    expect(password('ab\tc\nd\u0000e\u007f')).toBe('abcde');
    expect(passwordFilter()('x'.repeat(40))).toHaveLength(40);
  });

  it('an identity card: letters, digits, parentheses, hash, hyphen — and what the server reads as those', () => {
    const card = f({ type: ['string', 'null'], 'x-qe-input': 'identityCard', maxLength: 30 });
    expect(card('A123456(7)')).toBe('A123456(7)');
    expect(card('a 123-45#6/7!@_.中')).toBe('a 123-45#6/7');
    expect(card('Ａ１２３４５６（７）')).toBe('Ａ１２３４５６（７）');
    // never strips a character the server would accept in a document number
    for (const s of randomStrings(200, 7)) {
      for (const c of s) if (validDocumentNumber('OTHER', normaliseDocumentNumber(`AB12${c}`))) expect(card(c)).toBe(c);
    }
  });

  it('refuses an x-qe-input it does not know', () => {
    expect(() => filterFor({ type: 'string', 'x-qe-input': 'money' })).toThrow(/money/);
  });
});

describe('typing (typeInto)', () => {
  const code = f({ type: 'string', pattern: '^[A-Za-z0-9_-]+$', maxLength: 6 });

  it('leaves the value and the caret alone when nothing is refused', () => {
    expect(typeInto(code, 'ab', 'abc', 3)).toEqual({ value: 'abc', caret: 3 });
    expect(typeInto(code, 'abc', 'ac', 1)).toEqual({ value: 'ac', caret: 1 });
  });

  it('a character refused in the middle leaves the rest and the caret where they were', () => {
    expect(typeInto(code, 'abcd', 'ab!cd', 3)).toEqual({ value: 'abcd', caret: 2 });
    // a selection replaced by a refused character: the selection is gone, the caret where it began
    expect(typeInto(code, 'abcd', 'a!d', 2)).toEqual({ value: 'ad', caret: 1 });
  });

  it('a paste keeps its allowed characters, the caret after them', () => {
    expect(typeInto(code, 'ad', 'ab c!d', 5)).toEqual({ value: 'abcd', caret: 3 });
  });

  it('maxLength: one more key is refused, a longer paste is kept whole (its length message shows)', () => {
    expect(typeInto(code, 'abcdef', 'abcXdef', 4)).toEqual({ value: 'abcdef', caret: 3 });
    expect(typeInto(code, 'abc', 'abcdefghij', 10)).toEqual({ value: 'abcdefghij', caret: 10 });
    expect(typeAll(code, 'abcdefghij')).toBe('abcdef');
  });

  it('a value already too long or off is not made worse, and does not block deleting', () => {
    const amount = f({ type: 'string', 'x-qe-input': 'amount' });
    expect(typeInto(amount, '1.234', '1.23', 4).value).toBe('1.23');
    expect(typeInto(amount, '1.234', '1.2345', 6).value).toBe('1.2345');
    expect(typeInto(amount, '1.234', '1.234x', 6).value).toBe('1.234');
  });
});

/** Every property of every schema, with the properties of child rows. */
function everyProperty(): [string, FilterableProperty & { items?: { properties?: Record<string, FilterableProperty> } }][] {
  const dir = join(__dirname, '../../schemas');
  const out: [string, FilterableProperty][] = [];
  for (const file of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
    const schema = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { properties: Record<string, FilterableProperty & { items?: { properties?: Record<string, FilterableProperty> } }> };
    for (const [name, p] of Object.entries(schema.properties)) {
      out.push([`${file} ${name}`, p]);
      for (const [child, c] of Object.entries(p.items?.properties ?? {})) out.push([`${file} ${name}[].${child}`, c]);
    }
  }
  return out;
}

describe('every schema property', () => {
  const strings = randomStrings(500);
  const properties = everyProperty();

  it('what the filter leaves is accepted by the property’s own pattern (within maxLength)', () => {
    let checked = 0;
    for (const [where, p] of properties) {
      const filter = filterFor(p);
      if (!filter) continue;
      const pattern = p.pattern ? new RegExp(p.pattern, 'u') : null;
      // a fixed prefix (a student code's S) is the blur check's: the filter answers for what follows it
      const prefix = p.pattern ? (parseRepeatedClass(p.pattern)?.prefix ?? '') : '';
      for (const s of strings) {
        for (const out of [filter(s), typeAll(filter, s)]) {
          if (!out || (p.maxLength !== undefined && [...out].length > p.maxLength)) continue;
          const kept = out.startsWith(prefix) ? out : prefix + out;
          // a user name is checked as the server reads it (ｆｕｌｌ１２３ is full123)
          const whole = p.pattern === USERNAME_PATTERN ? normaliseUsername(kept) : kept;
          if (pattern && !pattern.test(whole)) throw new Error(`${where}: the filter let ${JSON.stringify(out)} through, which ${p.pattern} refuses`);
          if (filter.kind === 'integer' && !/^-?\d*$/.test(out)) throw new Error(`${where}: ${out} is not an integer`);
          checked++;
        }
        // typed key by key, maxLength holds
        if (p.maxLength !== undefined) expect([...typeAll(filter, s)].length).toBeLessThanOrEqual(p.maxLength);
        // the filter is stable: filtering again changes nothing
        expect(filter(filter(s))).toBe(filter(s));
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('the filters the schemas call for: codes, user names, phones, passwords, identity cards and integers — none for names and e-mail', () => {
    const kinds = Object.fromEntries(properties.map(([where, p]) => [where, filterFor(p)?.kind ?? null]));
    expect(kinds['student.json code']).toBe('pattern');
    expect(kinds['student.json username']).toBe('pattern');
    expect(kinds['student.json password']).toBe('password');
    expect(kinds['student.json studentNumber']).toBe('integer');
    expect(kinds['teacher.json tel']).toBe('pattern');
    expect(filterFor(properties.find(([w]) => w === 'teacher.json tel')![1])?.inputMode).toBe('tel');
    expect(kinds['teacher.json identityCardNo']).toBe('identityCard');
    expect(kinds['admin.json identityCardNo']).toBe('identityCard');
    expect(kinds['grade-class.json classes[].code']).toBe('pattern');
    expect(kinds['mail-setting.json port']).toBe('integer');
    for (const where of ['student.json nameHk', 'student.json email', 'teacher.json googleMail', 'mail-setting.json fromAddress', 'mail-setting.json reminderContent', 'teacher.json abbr']) expect(kinds[where]).toBeNull();
  });

  it('the login screen keeps every character a schema’s user name may hold', () => {
    for (const [, p] of properties.filter(([where]) => where.endsWith(' username') && !where.startsWith('mail-setting'))) {
      const own = filterFor(p)!;
      for (let c = 0x20; c < 0x7f; c++) {
        const ch = String.fromCharCode(c);
        if (own(ch) === ch) expect(usernameFilter(ch)).toBe(ch);
      }
    }
  });
});

describe('codegen and e-mail fields', () => {
  it('gives an e-mail field (x-qe-rule "email") the one EMAIL_PATTERN, and refuses a pattern of its own', () => {
    const student = readSchemas(join(__dirname, '../../schemas')).find((e) => e.key === 'student')!;
    expect(student.schema.properties.email.pattern).toBe(EMAIL_PATTERN.source);
    const dir = mkdtempSync(join(tmpdir(), 'qe-email-'));
    try {
      const schema = (email: object) => ({
        $id: 'room',
        type: 'object',
        properties: { id: { type: 'integer' }, code: { type: 'string' }, email: { type: 'string', 'x-qe-rule': 'email', ...email } },
        'x-qe': { resource: 'rooms', route: 'rooms', name: 'rooms', permission: 'room', page: { actions: ['view'] }, table: 'rooms', columns: ['code'], search: [], defaultSort: { field: 'code', order: 'ASC' } },
      });
      writeFileSync(join(dir, 'room.json'), JSON.stringify(schema({})));
      expect(readSchemas(dir)[0].schema.properties.email.pattern).toBe(EMAIL_PATTERN.source);
      writeFileSync(join(dir, 'room.json'), JSON.stringify(schema({ pattern: '^.+@.+$' })));
      expect(() => readSchemas(dir)).toThrow(/email is an e-mail field with a pattern of its own/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('codegen and x-qe-input', () => {
  it('reads the schemas with their x-qe-input, and refuses one it does not know, in a child row too', () => {
    expect(readSchemas(join(__dirname, '../../schemas')).find((e) => e.key === 'student')?.schema.properties.password['x-qe-input']).toBe('password');
    const dir = mkdtempSync(join(tmpdir(), 'qe-inputs-'));
    try {
      const schema = (items: object) => ({
        $id: 'room',
        type: 'object',
        properties: { id: { type: 'integer' }, code: { type: 'string' }, parts: { type: 'array', items: { type: 'object', properties: items } } },
        'x-qe': { resource: 'rooms', route: 'rooms', name: 'rooms', permission: 'room', page: { actions: ['view'] }, table: 'rooms', columns: ['code'], search: [], defaultSort: { field: 'code', order: 'ASC' } },
      });
      writeFileSync(join(dir, 'room.json'), JSON.stringify(schema({ price: { type: 'string', 'x-qe-input': 'amount' } })));
      expect(readSchemas(dir)).toHaveLength(1);
      writeFileSync(join(dir, 'room.json'), JSON.stringify(schema({ price: { type: 'string', 'x-qe-input': 'money' } })));
      expect(() => readSchemas(dir)).toThrow(/parts\[\]\.price has x-qe-input "money"/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
