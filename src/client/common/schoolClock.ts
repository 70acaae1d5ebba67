import { DEFAULT_TIME_ZONE, isTimeZone, schoolDate, schoolDateTime, schoolInputText, schoolInstant, schoolTime } from '../../shared/school-clock';

/**
 * The school's clock on the client (docs/conventions.md#dates-and-times): every day and time a
 * screen, a list or the PDF shows is read on the school's time zone, and every one typed is read
 * on it too — never on the browser's. The zone comes with the user info (loaded before any screen
 * of the app) and the school info (read again when the window comes back), and from the school
 * settings screen when it is saved; one page serves one school, so it is kept here.
 */
let zone = DEFAULT_TIME_ZONE;

/** Takes the school's zone as the server sent it (an unknown one is ignored). */
export function setSchoolTimeZone(next: string | null | undefined): void {
  if (isTimeZone(next)) zone = next;
}

/** The school's IANA time zone. */
export const schoolTimeZone = (): string => zone;

/** yyyy-MM-dd of a timestamp on the school's clock; a bare day as it is. */
export const formatDay = (value: string | Date | null | undefined): string => schoolDate(value, zone);

/** yyyy-MM-dd HH:mm (24-hour) of a timestamp on the school's clock; a bare day without a time. */
export const formatDateTime = (value: string | null | undefined): string => schoolDateTime(value, zone);

/** HH:mm of a timestamp on the school's clock. */
export const formatTime = (value: string | null | undefined): string => schoolTime(value, zone);

/** Today on the school's clock, yyyy-MM-dd (file names). */
export const schoolToday = (now: Date = new Date()): string => schoolDate(now, zone);

/** The text of a date-time input for a timestamp: yyyy-MM-dd HH:mm on the school's clock. */
export const toSchoolInput = (value: string | null | undefined): string => schoolInputText(value, zone);

/** A day and time without an offset, as typed (a space or the picker's T between them). */
const TYPED = /^\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?)?$/;

/**
 * A date-time as a form holds it — the server's ISO timestamp, or a yyyy-MM-dd HH:mm typed on the
 * school's clock — as ISO UTC, or null.
 */
export function toIso(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  const text = String(value).trim();
  if (TYPED.test(text)) return schoolInstant(text, zone)?.toISOString() ?? null;
  const d = new Date(text);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}
