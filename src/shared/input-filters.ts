/**
 * Input filters (docs/product-rules.md#input-filters): what may not be typed into a field is stripped as it is typed — the
 * allowed characters are not shown. A field's filter follows from its JSON Schema property:
 *
 *  - `"x-qe-input"` says what a pattern does not: `password`, `identityCard`, `amount`, `integer`;
 *  - an integer (or number) property gets the integer (or decimal) filter without it;
 *  - a `pattern` that is one character class, repeated (`^[A-Za-z0-9_-]+$`, `^[0-9+() -]*$`), after
 *    an optional fixed prefix (`^S[A-Za-z0-9_-]*$`), strips what is outside the class (a user
 *    name's, USERNAME_PATTERN, keeps the full-width forms the server reads as the class's own);
 *  - any other pattern (an e-mail address) or none (a name, an address) gets no filter: the check
 *    on blur and the server's stay the only ones.
 *
 * A filter only ever removes characters: it never adds, changes or reorders one. Pure, no DOM:
 * the screens (src/client/master/inputFilter.ts) and the tests use it alike.
 */
import { normaliseDocumentNumber } from './personal.js';
import { normaliseUsername } from './usernames.js';

/** What `"x-qe-input"` may name. */
export const INPUT_KINDS = ['password', 'identityCard', 'amount', 'integer'] as const;
export type InputKindName = (typeof INPUT_KINDS)[number];

/** What a filter is made from: the JSON Schema keywords it reads. */
export interface FilterableProperty {
  type?: string | string[];
  pattern?: string;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  enum?: unknown[];
  format?: string;
  'x-qe-input'?: string;
}

export interface InputFilter {
  /** the value without what may not be typed (a whole value: pasted, loaded) — never cut at maxLength */
  (typed: string): string;
  readonly kind: 'pattern' | InputKindName | 'number';
  /** the on-screen keyboard a phone should show */
  readonly inputMode?: 'numeric' | 'decimal' | 'tel';
  /** one more character typed past this is refused (a longer paste is kept: its length message shows) */
  readonly maxLength?: number;
}

/** docs/product-rules.md#input-filters: an amount has at most 2 decimals and 20 digits in all. */
export const AMOUNT_DECIMALS = 2;
export const AMOUNT_MAX_DIGITS = 20;

/** Every user name of the schemas (students, teachers, admins): what the login screen's filter keeps. */
export const USERNAME_PATTERN = '^[A-Za-z0-9_.@-]+$';

/** Code point ranges [from, to], both included. */
export type CharSet = [number, number][];

const inSet = (set: CharSet, cp: number) => set.some(([from, to]) => cp >= from && cp <= to);
const cp = (c: string) => c.codePointAt(0)!;

const WORD: CharSet = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
const DIGIT: CharSet = [[0x30, 0x39]];
/** the escapes a class may hold that stand for a literal character */
const LITERAL_ESCAPES = new Set([...'-\\]^[.+*?(){}|/$#@_ ']);

/**
 * The characters of a class body (what is between `[` and `]`), or null when it is not one this
 * module reads safely: a negated class, Unicode properties, \s, \b, \uXXXX and the like.
 */
export function parseClassBody(body: string): CharSet | null {
  if (body.startsWith('^') || body === '') return null;
  const set: CharSet = [];
  const chars = [...body];
  /** the single character at i: [code point, characters read], or null for a set escape (\w, \d) */
  const single = (i: number): [number, number] | 'set' | null => {
    const c = chars[i];
    if (c !== '\\') return [cp(c), 1];
    const e = chars[i + 1];
    if (e === undefined) return null;
    if (e === 'w' || e === 'd') return 'set';
    return LITERAL_ESCAPES.has(e) ? [cp(e), 2] : null;
  };
  for (let i = 0; i < chars.length; ) {
    const first = single(i);
    if (first === null) return null;
    if (first === 'set') {
      set.push(...(chars[i + 1] === 'w' ? WORD : DIGIT));
      i += 2;
      continue;
    }
    const [from, width] = first;
    // a range a-z: a hyphen between two single characters (a hyphen first or last is a literal)
    if (chars[i + width] === '-' && i + width + 1 < chars.length) {
      const last = single(i + width + 1);
      if (last === null || last === 'set') return null;
      const [to, toWidth] = last;
      if (to < from) return null;
      set.push([from, to]);
      i += width + 1 + toWidth;
      continue;
    }
    set.push([from, from]);
    i += width;
  }
  return set;
}

/**
 * A pattern that is one class repeated, after an optional fixed prefix: `^P[class]Q$` where P is
 * plain letters and digits all inside the class and Q is `+`, `*`, `{n,}` or `{n,m}`. Answers the
 * class and the prefix, or null.
 */
export function parseRepeatedClass(pattern: string): { set: CharSet; prefix: string } | null {
  const m = /^\^([A-Za-z0-9]*)\[((?:\\.|[^\]\\])+)\](?:\+|\*|\{\d+(?:,\d*)?\})\$$/.exec(pattern);
  if (!m) return null;
  const set = parseClassBody(m[2]);
  if (!set) return null;
  const prefix = m[1];
  if (![...prefix].every((c) => inSet(set, cp(c)))) return null;
  return { set, prefix };
}

/** A phone's characters: digits and what is dialled or written with them. */
const PHONE: CharSet = [[0x30, 0x39], ...[...'+()- .#*/'].map((c): [number, number] => [cp(c), cp(c)])];
const isPhoneSet = (set: CharSet) => inSet(set, 0x30) && set.every(([from, to]) => [...Array(to - from + 1).keys()].every((k) => inSet(PHONE, from + k)));

const make = (fn: (typed: string) => string, props: { kind: InputFilter['kind']; inputMode?: InputFilter['inputMode']; maxLength?: number }): InputFilter =>
  Object.assign(fn, props);

const keepChars = (keep: (c: string) => boolean) => (typed: string) => {
  let out = '';
  for (const c of typed) if (keep(c)) out += c;
  return out;
};

/** Control characters (C0, DEL, C1): no keyboard types them into a one-line field. */
const isControl = (c: string) => cp(c) <= 0x1f || (cp(c) >= 0x7f && cp(c) <= 0x9f);

/**
 * An identity card or other document number, as the server reads it (normaliseDocumentNumber:
 * NFKC, upper case, spaces dropped): letters, digits, brackets, hyphen and slash — and the hash
 * (docs/product-rules.md#input-filters). Lower case, spaces and the full-width forms an IME types (Ａ１２３) are kept: the server
 * accepts them.
 */
const isDocumentChar = (c: string) => /^[A-Z0-9()#/-]*$/.test(normaliseDocumentNumber(c));

/** Digits, at most one dot with at most `decimals` digits after it, at most `maxDigits` digits, a leading minus if `negative`. */
function numeric(decimals: number, maxDigits: number, negative: boolean) {
  return (typed: string) => {
    let out = '';
    let digits = 0;
    let dot = false;
    let after = 0;
    for (const c of typed) {
      if (c >= '0' && c <= '9') {
        if (digits >= maxDigits || (dot && after >= decimals)) continue;
        digits++;
        if (dot) after++;
        out += c;
      } else if (c === '.' && !dot && decimals > 0) {
        dot = true;
        out += c;
      } else if (c === '-' && negative && out === '') {
        out += c;
      }
    }
    return out;
  };
}

const baseType = (p: FilterableProperty) => (Array.isArray(p.type) ? p.type.find((t) => t !== 'null') : p.type);

/** The filter a property's schema calls for, or null when it calls for none. */
export function filterFor(p: FilterableProperty): InputFilter | null {
  const maxLength = p.maxLength;
  const negative = p.minimum === undefined || p.minimum < 0;
  const type = baseType(p);
  const kind = p['x-qe-input'];
  if (kind !== undefined && !(INPUT_KINDS as readonly string[]).includes(kind)) throw new Error(`x-qe-input: unknown input "${kind}"`);
  if (p.enum || (p.format && p.format !== 'tel')) return null;
  switch (kind) {
    case 'password':
      return make(keepChars((c) => !isControl(c)), { kind, maxLength });
    case 'identityCard':
      return make(keepChars(isDocumentChar), { kind, maxLength });
    case 'amount':
      return make(numeric(AMOUNT_DECIMALS, AMOUNT_MAX_DIGITS, false), { kind, inputMode: 'decimal', maxLength });
    case 'integer':
      return make(numeric(0, Infinity, negative), { kind, inputMode: 'numeric', maxLength });
  }
  if (type === 'integer') return make(numeric(0, Infinity, negative), { kind: 'integer', inputMode: 'numeric', maxLength });
  if (type === 'number') return make(numeric(Infinity, Infinity, negative), { kind: 'number', inputMode: 'decimal', maxLength });
  if (type !== 'string' || !p.pattern) return null;
  const parsed = parseRepeatedClass(p.pattern);
  if (!parsed) return null;
  const inClass = (c: string) => inSet(parsed.set, cp(c));
  // a user name keeps what it becomes once read (src/shared/usernames.ts): ｆｕｌｌ１２３ as typed with an input method
  const keep = p.pattern === USERNAME_PATTERN ? (c: string) => normaliseUsername(c) !== '' && [...normaliseUsername(c)].every(inClass) : inClass;
  return make(keepChars(keep), { kind: 'pattern', inputMode: isPhoneSet(parsed.set) ? 'tel' : undefined, maxLength });
}

const length = (s: string) => [...s].length;
const isLowSurrogate = (s: string, i: number) => i > 0 && i < s.length && /[\udc00-\udfff]/.test(s[i]);

/**
 * What typing does: the field held `previous`, the browser made it `next` with the caret at
 * `caret` (after what was typed or pasted). Only the inserted part is filtered — what was there
 * stays as it was — and the caret is where the kept part of the insertion ends, so a character
 * refused in the middle leaves the caret where it was. One more character typed past maxLength
 * is refused; a longer insertion (a paste, an IME's word) is kept whole and its length message
 * shows. When nothing is refused the answer is `next` itself.
 */
export function typeInto(filter: InputFilter, previous: string, next: string, caret?: number | null): { value: string; caret: number } {
  const room = Math.min(previous.length, next.length);
  let suffix = 0;
  const suffixLimit = caret == null ? room : Math.min(room, Math.max(0, next.length - caret));
  while (suffix < suffixLimit && previous[previous.length - 1 - suffix] === next[next.length - 1 - suffix]) suffix++;
  let prefix = 0;
  while (prefix < room - suffix && previous[prefix] === next[prefix]) prefix++;
  // never split a surrogate pair (a character outside the BMP)
  if (isLowSurrogate(next, prefix)) prefix--;
  if (isLowSurrogate(next, next.length - suffix)) suffix--;
  const head = next.slice(0, prefix);
  const tail = next.slice(next.length - suffix);
  const inserted = next.slice(prefix, next.length - suffix);
  if (!inserted) return { value: next, caret: caret ?? prefix };
  const typedOne = length(inserted) === 1;
  let kept = '';
  for (const c of inserted) {
    const base = head + kept + tail;
    const candidate = head + kept + c + tail;
    // a value that was already off (a paste too long, a value loaded) does not block what is typed
    const fits = filter(base) === base ? filter(candidate) === candidate : filter(c) === c;
    const tooLong = typedOne && filter.maxLength !== undefined && length(candidate) > filter.maxLength;
    if (fits && !tooLong) kept += c;
  }
  if (kept === inserted) return { value: next, caret: caret ?? prefix + inserted.length };
  return { value: head + kept + tail, caret: prefix + kept.length };
}

/** The login screen's user name: what every account's user name may hold. */
export const usernameFilter: InputFilter = filterFor({ type: 'string', pattern: USERNAME_PATTERN })!;

/** A password: to log in with (any length the server takes) or a new one (at most PASSWORD_MAX). */
export const passwordFilter = (maxLength?: number): InputFilter => filterFor({ type: 'string', 'x-qe-input': 'password', maxLength })!;
