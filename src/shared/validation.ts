/** Validation rules (docs/product-rules.md#validation), applied identically by server and client. */
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 15;

/** local part of word characters, dots and hyphens; an at sign; a domain whose top-level part has 2+ letters. */
export const EMAIL_PATTERN = /^[\w.-]+@[\w-]+(\.[\w-]+)*\.[A-Za-z]{2,}$/;

export function isValidPassword(p: unknown): p is string {
  return typeof p === 'string' && p.length >= PASSWORD_MIN && p.length <= PASSWORD_MAX;
}

export function isValidEmail(e: unknown): e is string {
  return typeof e === 'string' && EMAIL_PATTERN.test(e);
}

const isPlainContainer = (v: unknown): v is Record<string, unknown> | unknown[] => {
  if (Array.isArray(v)) return true;
  if (!v || typeof v !== 'object') return false;
  const prototype: unknown = Object.getPrototypeOf(v);
  return prototype === Object.prototype || prototype === null;
};

/**
 * Trims every string in a JSON-like value, deeply; other values (class instances such as dates
 * and buffers included) are returned as they are, and the value given is not changed. It walks
 * with a list rather than by recursion, so no nesting depth can overflow the stack, and writes a
 * "__proto__" key as an own property, so it stays a key and never becomes a prototype. Every
 * request body passes through it: other keys are plain assignments, which keep the copies fast
 * objects (a property defined one by one would not).
 */
export function trimStrings<T>(value: T, trim: (text: string) => string = (text) => text.trim()): T {
  const copyOf = (v: unknown): unknown => (typeof v === 'string' ? trim(v) : !isPlainContainer(v) ? v : Array.isArray(v) ? new Array(v.length) : {});
  const root = copyOf(value);
  if (!isPlainContainer(value)) return root as T;
  const pending: (Record<string, unknown> | unknown[])[] = [value, root as Record<string, unknown> | unknown[]];
  while (pending.length) {
    const to = pending.pop()!;
    const from = pending.pop()!;
    if (Array.isArray(from)) {
      const list = to as unknown[];
      for (let i = 0; i < from.length; i++) {
        const v = from[i];
        const copy = (list[i] = copyOf(v));
        if (copy !== v && typeof v === 'object') pending.push(v as Record<string, unknown>, copy as Record<string, unknown>);
      }
      continue;
    }
    const object = to as Record<string, unknown>;
    for (const k of Object.keys(from)) {
      const v = from[k];
      const copy = copyOf(v);
      if (k === '__proto__') Object.defineProperty(object, k, { value: copy, enumerable: true, writable: true, configurable: true });
      else object[k] = copy;
      if (copy !== v && typeof v === 'object') pending.push(v as Record<string, unknown>, copy as Record<string, unknown>);
    }
  }
  return root as T;
}

/**
 * A request body trimmed as it travels (docs/conventions.md#headers-and-trimming): every string
 * trimmed, except in the properties its schema marks as a reply's answers (`x-qe-type: answers`),
 * whose texts lose their trailing whitespace only — a paragraph's leading spaces are the
 * respondent's (keptAnswer, src/shared/questionnaire/answers.ts, settles the rest by question).
 */
export function trimBody<T>(body: T, schema?: unknown): T {
  const trimmed = trimStrings(body);
  const properties = (schema as { properties?: Record<string, unknown> } | undefined)?.properties;
  if (!properties || !isPlainContainer(body) || Array.isArray(body)) return trimmed;
  for (const [name, p] of Object.entries(properties)) {
    if (Object.hasOwn(body, name) && (p as { 'x-qe-type'?: string } | null)?.['x-qe-type'] === 'answers') {
      (trimmed as Record<string, unknown>)[name] = trimStrings((body as Record<string, unknown>)[name], (text) => text.trimEnd());
    }
  }
  return trimmed;
}

/** Start date must not be after end date (yyyy-MM-dd strings compare as dates). */
export function isDateRangeValid(start?: string | null, end?: string | null): boolean {
  return !start || !end || start <= end;
}
