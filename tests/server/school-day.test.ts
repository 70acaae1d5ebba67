import { describe, expect, it } from 'vitest';
import { schoolDateTime, schoolDay } from '../../src/server/school-day.js';

// The school's clock (Hong Kong, UTC+8 all year): the day and the time a school reads, whatever the server's zone.
describe("the school's clock", () => {
  it('gives the Hong Kong day and time of a moment, 24-hour', () => {
    // 23:30 UTC is 07:30 the next morning in Hong Kong
    expect(schoolDay(new Date('2026-11-26T23:30:00Z'))).toBe('2026-11-27');
    expect(schoolDateTime(new Date('2026-11-26T23:30:00Z'))).toBe('2026-11-27 07:30');
    expect(schoolDateTime(new Date('2026-11-27T08:05:59Z'))).toBe('2026-11-27 16:05');
    expect(schoolDateTime(new Date('2026-12-31T16:00:00Z'))).toBe('2027-01-01 00:00');
  });
});
