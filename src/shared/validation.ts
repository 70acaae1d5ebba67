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

/** Trims every string in a JSON-like value, deeply; other values are returned as they are. */
export function trimStrings<T>(value: T): T {
  if (typeof value === 'string') return value.trim() as T;
  if (Array.isArray(value)) return value.map(trimStrings) as T;
  if (value && typeof value === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(value))) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = trimStrings(v);
    return out as T;
  }
  return value;
}

/** Start date must not be after end date (yyyy-MM-dd strings compare as dates). */
export function isDateRangeValid(start?: string | null, end?: string | null): boolean {
  return !start || !end || start <= end;
}
