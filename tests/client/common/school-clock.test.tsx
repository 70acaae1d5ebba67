import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { AdminContext } from 'react-admin';
import { i18nProvider } from '../../../src/client/providers/i18nProvider';
import { EndDate } from '../../../src/client/dashboard/EndDate';
import { StatisticsDetail } from '../../../src/client/statistics';
import { formatDateTime, formatDay, schoolToday, setSchoolTimeZone, toSchoolInput } from '../../../src/client/common/schoolClock';
import { detail, fakeFetch, renderAt } from '../statistics/support';

// The browser is on neither the school's zone nor UTC: what the screens show follows the school's
// setting alone (src/client/common/schoolClock.ts).
process.env.TZ = 'America/Los_Angeles';

vi.mock('react-chartjs-2', async () => (await import('../statistics/support')).chartStub());
vi.mock('../../../src/client/statistics/pdf/PdfButton', () => ({ PdfButton: () => null }));

beforeEach(async () => {
  await i18nProvider.changeLocale('zh-hk');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setSchoolTimeZone('Asia/Hong_Kong');
});

describe("the client's school clock", () => {
  it("formats on the school's zone, not the browser's, and follows a change of the setting", () => {
    expect(new Date('2026-11-28T13:42:00Z').getHours()).toBe(5); // the browser's own clock
    expect(formatDateTime('2026-11-28T13:42:00Z')).toBe('2026-11-28 21:42');
    expect(formatDay('2026-11-28T16:30:00Z')).toBe('2026-11-29');
    expect(toSchoolInput('2026-11-28T13:42:00Z')).toBe('2026-11-28 21:42');
    expect(schoolToday(new Date('2026-11-28T16:30:00Z'))).toBe('2026-11-29');
    setSchoolTimeZone('America/New_York');
    expect(formatDateTime('2026-11-28T13:42:00Z')).toBe('2026-11-28 08:42');
    setSchoolTimeZone('UTC');
    expect(formatDateTime('2026-11-28T13:42:00Z')).toBe('2026-11-28 13:42');
    // an unknown zone from a server is not taken
    setSchoolTimeZone('Nowhere/Else');
    expect(formatDateTime('2026-11-28T13:42:00Z')).toBe('2026-11-28 13:42');
  });

  it("the home screen's deadline is on the school's clock", async () => {
    const show = () => render(<AdminContext i18nProvider={i18nProvider}><EndDate endDate="2026-11-28T13:42:00.000Z" /></AdminContext>);
    show();
    expect((await screen.findByTestId('end-date')).textContent).toBe('截止 2026-11-28 21:42');
    cleanup();
    setSchoolTimeZone('America/New_York');
    show();
    expect((await screen.findByTestId('end-date')).textContent).toBe('截止 2026-11-28 08:42');
  });

  it("the statistics screen's open and end dates are on the school's clock, across New York's change to summer time", async () => {
    fakeFetch((call) => (call.path === '/v1/statistics/5' ? detail() : call.path.endsWith('/texts') ? { list: [], total: 0, withheld: null } : call.path.endsWith('/respondents') ? { anonymous: false, list: [], total: 0 } : null));
    renderAt('/data-statistics/detail?id=5', <StatisticsDetail />);
    const header = await screen.findByTestId('statistics-header');
    expect(header.textContent).toContain('2025-03-01 09:00');
    expect(header.textContent).toContain('2025-03-20 17:00');
    cleanup();
    setSchoolTimeZone('America/New_York');
    renderAt('/data-statistics/detail?id=5', <StatisticsDetail />);
    const ny = await screen.findByTestId('statistics-header');
    // 01:00 UTC on 1 March is 20:00 the day before (EST); 09:00 UTC on 20 March is 05:00 (EDT)
    expect(ny.textContent).toContain('2025-02-28 20:00');
    expect(ny.textContent).toContain('2025-03-20 05:00');
  });
});
