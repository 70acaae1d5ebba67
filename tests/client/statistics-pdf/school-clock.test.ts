import { afterEach, describe, expect, it } from 'vitest';
import { translate as zhTranslate } from '../../../src/client/providers/i18nProvider';
import { makeStatisticsPdfBytes } from '../../../src/client/statistics/pdf/report';
import { setSchoolTimeZone } from '../../../src/client/common/schoolClock';
import { detail, fallbackData, fontData, pdfText, texts } from './fixture';

// The PDF is made in the browser: on a browser that is on neither zone, its dates follow the school's setting.
process.env.TZ = 'America/Los_Angeles';
const font = fontData();
const squash = (s: string) => s.replace(/[ \t]+/g, ' ');
const print = async () =>
  squash(pdfText(await makeStatisticsPdfBytes(detail(), { translate: zhTranslate, locale: 'zh-hk', fontData: font, fallbackFont: () => Promise.resolve(fallbackData()), texts, charts: false, now: new Date('2025-04-02T03:00:00Z') })));

afterEach(() => setSchoolTimeZone('Asia/Hong_Kong'));

describe("the statistics PDF on the school's clock", () => {
  it('prints the dates on Hong Kong time, then on New York time once the setting says so', async () => {
    const hk = await print();
    for (const s of ['開始日期 2025-03-03 09:00', '結束日期 2025-03-31 17:00', '建立日期 2025-03-01', '列印日期 2025-04-02']) expect(hk).toContain(s);
    setSchoolTimeZone('America/New_York');
    const ny = await print();
    // EST before 9 March, EDT after
    for (const s of ['開始日期 2025-03-02 20:00', '結束日期 2025-03-31 05:00', '建立日期 2025-02-28', '列印日期 2025-04-01']) expect(ny).toContain(s);
  });
});
