/**
 * The school's clock (docs/conventions.md#dates-and-times): every day and time QE shows, exports,
 * prints or mails is read on it, and every one typed in is read on it, whatever the time zone of
 * the browser or the server. The zone is a school setting, an IANA name (Asia/Hong_Kong by
 * default); the arithmetic is Intl's, so zones with daylight saving work too. Pure: both halves
 * import it, the server with the zone it reads from the database, the client with the one the
 * school info brings.
 */

export const DEFAULT_TIME_ZONE = 'Asia/Hong_Kong';

/** yyyy-MM-dd HH:mm as typed (a space or the native picker's T between day and time, seconds allowed). */
const LOCAL = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/** A bare day, as the server keeps some (an anonymous submission: the day only). */
export const DAY_ONLY = /^\d{4}-\d{2}-\d{2}$/;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    // en-CA with h23: numbers only, 24-hour (midnight is 00, never 24)
    f = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
    formatters.set(zone, f);
  }
  return f;
}

/** Whether `zone` is a time zone Intl knows (an IANA name such as Asia/Hong_Kong, or UTC). */
export function isTimeZone(zone: unknown): zone is string {
  if (typeof zone !== 'string' || zone === '' || zone.length > 64) return false;
  try {
    formatterOf(zone);
    return true;
  } catch {
    return false;
  }
}

/** A zone as Intl spells it (asia/hong_kong → Asia/Hong_Kong), for one that isTimeZone. */
export function canonicalTimeZone(zone: string): string {
  return formatterOf(zone).resolvedOptions().timeZone;
}

/** The zones a school may choose from: Intl's list where it has one, with UTC and the default always in it. */
export function timeZoneChoices(): string[] {
  const listed = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set([DEFAULT_TIME_ZONE, 'UTC', ...listed])].sort();
}

interface Parts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function partsOf(ms: number, zone: string): Parts {
  const out: Record<string, number> = {};
  for (const p of formatterOf(zone).formatToParts(ms)) if (p.type !== 'literal') out[p.type] = Number(p.value);
  return { year: out.year, month: out.month, day: out.day, hour: out.hour, minute: out.minute, second: out.second };
}

/** A moment as a number, or NaN for something that is not one. */
function msOf(at: Date | string | number): number {
  if (at instanceof Date) return at.getTime();
  if (typeof at === 'number') return at;
  return new Date(at).getTime();
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const dayText = (p: Parts) => `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}`;
const timeText = (p: Parts) => `${pad(p.hour)}:${pad(p.minute)}`;

/** yyyy-MM-dd: the school's day of a moment (a bare day is kept as it is; '' for no moment). */
export function schoolDate(at: Date | string | number | null | undefined, zone: string): string {
  if (at === null || at === undefined || at === '') return '';
  if (typeof at === 'string' && DAY_ONLY.test(at)) return at;
  const ms = msOf(at);
  return Number.isNaN(ms) ? String(at) : dayText(partsOf(ms, zone));
}

/** HH:mm (24-hour): the school's time of day of a moment. */
export function schoolTime(at: Date | string | number | null | undefined, zone: string): string {
  if (at === null || at === undefined || at === '') return '';
  const ms = msOf(at);
  return Number.isNaN(ms) ? '' : timeText(partsOf(ms, zone));
}

/** yyyy-MM-dd HH:mm (24-hour): a moment on the school's clock (a bare day is kept as it is; '' for no moment). */
export function schoolDateTime(at: Date | string | number | null | undefined, zone: string): string {
  if (at === null || at === undefined || at === '') return '';
  if (typeof at === 'string' && DAY_ONLY.test(at)) return at;
  const ms = msOf(at);
  if (Number.isNaN(ms)) return String(at);
  const p = partsOf(ms, zone);
  return `${dayText(p)} ${timeText(p)}`;
}

/** How far the zone's clock is ahead of UTC at a moment, in milliseconds. */
function offsetAt(ms: number, zone: string): number {
  const p = partsOf(ms, zone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/**
 * The moment a day and time typed on the school's clock names (yyyy-MM-dd HH:mm, or a bare day
 * for its midnight), or null for a text that is not one. A time the clock skips (a spring
 * forward) is read with the offset before the change, so it lands just after it; a time the
 * clock goes through twice (a fall back) is the first of the two.
 */
export function schoolInstant(local: string, zone: string): Date | null {
  const m = LOCAL.exec(local.trim());
  if (!m) return null;
  const [year, month, day, hour = 0, minute = 0, second = 0] = m.slice(1).map((v) => (v === undefined ? undefined : Number(v))) as number[];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return null;
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  // the real day must exist (no 2026-02-30)
  const check = new Date(wall);
  if (check.getUTCDate() !== day || check.getUTCMonth() !== month - 1) return null;
  // the offsets half a day either side; the one before first, so a repeated hour is its first pass
  const before = offsetAt(wall - 12 * 3_600_000, zone);
  const after = offsetAt(wall + 12 * 3_600_000, zone);
  for (const offset of [before, after]) {
    const at = wall - offset;
    if (offsetAt(at, zone) === offset) return new Date(at);
  }
  // in the gap of a spring forward: the offset before it
  return new Date(wall - before);
}

/**
 * The text for a date-time input of a moment: yyyy-MM-dd HH:mm on the school's clock, '' for none.
 * Same as schoolDateTime, but a bare day has no time to edit.
 */
export function schoolInputText(at: string | null | undefined, zone: string): string {
  if (!at || DAY_ONLY.test(at)) return '';
  const text = schoolDateTime(at, zone);
  return LOCAL.test(text) ? text : '';
}
