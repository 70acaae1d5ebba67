/** Validation rules of spec §5, applied identically by server and client. */
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 15;

/** local part of word characters, dots and hyphens; an at sign; a domain whose top-level part has 2+ letters. */
export const EMAIL_PATTERN = /^[\w.-]+@[\w-]+(\.[\w-]+)*\.[A-Za-z]{2,}$/;

export const STUDENT_CODE_PATTERN = /^S/;

export function isValidPassword(p: unknown): p is string {
  return typeof p === 'string' && p.length >= PASSWORD_MIN && p.length <= PASSWORD_MAX;
}

export function isValidEmail(e: unknown): e is string {
  return typeof e === 'string' && EMAIL_PATTERN.test(e);
}

const isPlainContainer = (v: unknown): v is Record<string, unknown> | unknown[] =>
  Array.isArray(v) || (!!v && typeof v === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(v)));

/**
 * Trims every string in a JSON-like value, deeply; other values (class instances such as dates
 * and buffers included) are returned as they are, and the value given is not changed. It walks
 * with a list rather than by recursion, so no nesting depth can overflow the stack, and writes
 * keys as own properties, so a "__proto__" key stays a key and never becomes a prototype.
 */
export function trimStrings<T>(value: T): T {
  const copyOf = (v: unknown): unknown => (typeof v === 'string' ? v.trim() : !isPlainContainer(v) ? v : Array.isArray(v) ? new Array(v.length) : {});
  const root = copyOf(value);
  const pending: [Record<string, unknown> | unknown[], Record<string, unknown>][] = isPlainContainer(value) ? [[value, root as Record<string, unknown>]] : [];
  while (pending.length) {
    const [from, to] = pending.pop()!;
    for (const [k, v] of Object.entries(from)) {
      const copy = copyOf(v);
      Object.defineProperty(to, k, { value: copy, enumerable: true, writable: true, configurable: true });
      if (isPlainContainer(v)) pending.push([v, copy as Record<string, unknown>]);
    }
  }
  return root as T;
}

/** Start date must not be after end date (yyyy-MM-dd strings compare as dates). */
export function isDateRangeValid(start?: string | null, end?: string | null): boolean {
  return !start || !end || start <= end;
}
