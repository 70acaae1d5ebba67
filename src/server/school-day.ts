/**
 * The school's calendar day of a moment, yyyy-MM-dd. QE's schools are in Hong Kong (UTC+8, no
 * daylight saving): a pupil who submits at 07:30 submitted "today", not on the UTC date before.
 * Anonymous submissions keep this day and nothing finer.
 */
export function schoolDay(at: Date = new Date()): string {
  return new Date(at.getTime() + 8 * 3_600_000).toISOString().slice(0, 10);
}

/** A moment on the school's clock, yyyy-MM-dd HH:mm (24-hour, docs/conventions.md#dates-and-times): how exports show a questionnaire's open and end. */
export function schoolDateTime(at: Date): string {
  return new Date(at.getTime() + 8 * 3_600_000).toISOString().slice(0, 16).replace('T', ' ');
}
