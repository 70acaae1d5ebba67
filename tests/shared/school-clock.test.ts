import { describe, expect, it } from 'vitest';
import { canonicalTimeZone, DEFAULT_TIME_ZONE, isTimeZone, schoolDate, schoolDateTime, schoolInputText, schoolInstant, schoolTime, timeZoneChoices } from '../../src/shared/school-clock.js';

/**
 * The school's clock (src/shared/school-clock.ts): the same moment reads the same in any process
 * time zone, and a typed day and time comes back as the moment it names.
 */
describe('the school clock', () => {
  const moment = '2026-11-28T13:42:00.000Z';

  it('reads a moment on Hong Kong time by default, whatever the process zone', () => {
    expect(DEFAULT_TIME_ZONE).toBe('Asia/Hong_Kong');
    expect(schoolDateTime(moment, 'Asia/Hong_Kong')).toBe('2026-11-28 21:42');
    expect(schoolDate('2026-11-28T16:30:00Z', 'Asia/Hong_Kong')).toBe('2026-11-29');
    expect(schoolTime(new Date(moment), 'Asia/Hong_Kong')).toBe('21:42');
  });

  it('reads a moment on UTC', () => {
    expect(schoolDateTime(moment, 'UTC')).toBe('2026-11-28 13:42');
    expect(schoolDate(Date.parse(moment), 'UTC')).toBe('2026-11-28');
  });

  it('writes midnight as 00, never 24', () => {
    expect(schoolDateTime('2026-11-28T16:00:00Z', 'Asia/Hong_Kong')).toBe('2026-11-29 00:00');
  });

  it('follows daylight saving in New York', () => {
    // EDT (UTC-4) until 2026-11-01 06:00 UTC, then EST (UTC-5)
    expect(schoolDateTime('2026-10-31T16:00:00Z', 'America/New_York')).toBe('2026-10-31 12:00');
    expect(schoolDateTime('2026-11-02T17:00:00Z', 'America/New_York')).toBe('2026-11-02 12:00');
    expect(schoolDateTime('2026-11-01T05:30:00Z', 'America/New_York')).toBe('2026-11-01 01:30');
    expect(schoolDateTime('2026-11-01T06:30:00Z', 'America/New_York')).toBe('2026-11-01 01:30');
  });

  it('keeps a bare day as it is and gives nothing for no moment', () => {
    expect(schoolDate('2026-11-28', 'America/New_York')).toBe('2026-11-28');
    expect(schoolDateTime('2026-11-28', 'America/New_York')).toBe('2026-11-28');
    expect(schoolDateTime(null, 'UTC')).toBe('');
    expect(schoolDate(undefined, 'UTC')).toBe('');
    expect(schoolInputText('2026-11-28', 'UTC')).toBe('');
  });

  it('reads a typed day and time on the school clock and writes it back the same', () => {
    expect(schoolInstant('2026-11-28 21:42', 'Asia/Hong_Kong')?.toISOString()).toBe(moment);
    expect(schoolInstant('2026-11-28T21:42', 'Asia/Hong_Kong')?.toISOString()).toBe(moment);
    expect(schoolInstant('2026-11-28 13:42', 'UTC')?.toISOString()).toBe(moment);
    expect(schoolInstant('2026-11-28', 'Asia/Hong_Kong')?.toISOString()).toBe('2026-11-27T16:00:00.000Z');
    for (const zone of ['Asia/Hong_Kong', 'UTC', 'America/New_York', 'Europe/London', 'Australia/Adelaide']) {
      for (const typed of ['2026-01-15 08:05', '2026-03-08 01:59', '2026-03-08 03:00', '2026-07-01 23:59', '2026-11-01 00:30', '2026-11-01 02:00', '2026-12-31 00:00']) {
        const at = schoolInstant(typed, zone);
        expect(schoolInputText(at!.toISOString(), zone), `${typed} in ${zone}`).toBe(typed);
      }
    }
  });

  it('reads New York times either side of the change with their own offsets', () => {
    expect(schoolInstant('2026-03-07 12:00', 'America/New_York')?.toISOString()).toBe('2026-03-07T17:00:00.000Z');
    expect(schoolInstant('2026-03-09 12:00', 'America/New_York')?.toISOString()).toBe('2026-03-09T16:00:00.000Z');
    // the hour gone at the spring change lands just after it; the hour seen twice in autumn is its first pass
    expect(schoolInstant('2026-03-08 02:30', 'America/New_York')?.toISOString()).toBe('2026-03-08T07:30:00.000Z');
    expect(schoolInstant('2026-11-01 01:30', 'America/New_York')?.toISOString()).toBe('2026-11-01T05:30:00.000Z');
  });

  it('refuses what is not a day and time', () => {
    for (const text of ['', '2026-02-30 10:00', '2026-11-28 24:00', '2026-13-01', '28/11/2026', '2026-11-28 9:00']) expect(schoolInstant(text, 'UTC'), text).toBeNull();
  });

  it('knows the zones it may be given', () => {
    expect(isTimeZone('Asia/Hong_Kong')).toBe(true);
    expect(isTimeZone('America/New_York')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isTimeZone('')).toBe(false);
    expect(isTimeZone(8)).toBe(false);
    expect(isTimeZone('asia/hong_kong')).toBe(true);
    expect(canonicalTimeZone('asia/hong_kong')).toBe('Asia/Hong_Kong');
    const choices = timeZoneChoices();
    expect(choices).toContain('Asia/Hong_Kong');
    expect(choices).toContain('America/New_York');
    expect(choices).toContain('UTC');
    expect(choices.every(isTimeZone)).toBe(true);
  });
});
