import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AdminContext, memoryStore, testDataProvider } from 'react-admin';
import { i18nProvider } from '../../../src/client/providers/i18nProvider';
import { resetPdfForTests } from '../../../src/client/statistics/pdf/pdfState';
import { PdfButton } from '../../../src/client/statistics/pdf/PdfButton';
import { today } from '../../../src/client/master/download';
import type { Lang } from '../../../src/shared/i18n/text';
import type { StatisticsDetail } from '../../../src/shared/statistics/types';
import { fontData, pdfText } from '../statistics-pdf/fixture';
import { detail, fakeFetch, row, type FetchCall } from './support';

const font = fontData();
const BILINGUAL = { title: '家長日意見調查', titleTranslation: 'Parent Day Survey', languages: ['zh-hk', 'en'] } as const;

/** The detail as the server answers it in each language: the questionnaire's texts in that language, the numbers the same. */
function detailIn(lang: Lang): StatisticsDetail {
  const d = detail({ questionnaire: row({ ...BILINGUAL, languages: [...BILINGUAL.languages] }), filter: { role: 'TEACHER' } });
  if (lang === 'zh-hk') return d;
  const [q1, ...rest] = d.questions;
  const summary = q1.summary?.kind === 'choices' ? { ...q1.summary, choices: q1.summary.choices.map((c) => ({ ...c, label: { a: 'Satisfied', b: 'Not satisfied', __other__: 'Something else' }[c.id] ?? c.label })) } : q1.summary;
  return { ...d, questions: [{ ...q1, title: 'Were you satisfied with this year’s parent day?', summary }, ...rest.map((q) => ({ ...q, title: `EN ${q.id}` }))] };
}

let saved: { name: string; blob: Blob }[] = [];
let calls: FetchCall[] = [];
beforeEach(async () => {
  await i18nProvider.changeLocale('zh-hk');
  saved = [];
  const blobs = new Map<string, Blob>();
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: (b: Blob) => (blobs.set(`blob:${blobs.size}`, b), `blob:${blobs.size - 1}`), revokeObjectURL: () => undefined }));
  // jsdom has no canvas: the report leaves its charts out
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, blob: blobs.get(this.getAttribute('href')!)! });
  });
  resetPdfForTests({ font: () => Promise.resolve(font) });
  calls = fakeFetch((call) => {
    if (call.path === '/v1/statistics/5') return detailIn(call.query.get('language') === 'en' ? 'en' : 'zh-hk');
    if (call.path === '/v1/statistics/5/texts') return { list: [{ replyId: 'x', text: 'More activities' }], total: 1, withheld: null };
    return { status: 404, code: 404 };
  });
});
afterEach(async () => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  resetPdfForTests();
  await i18nProvider.changeLocale('zh-hk');
});

const bytesOf = (blob: Blob) =>
  new Promise<ArrayBuffer>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.readAsArrayBuffer(blob);
  });
/** pdftotext with the layout kept: compare words, not the spaces between them */
const squash = (s: string) => s.replace(/[ \t]+/g, ' ');

/** Prints the report of the detail shown in the interface language, in `language`; answers its text layer. */
async function print(shown: StatisticsDetail, language: Lang): Promise<string> {
  render(
    <AdminContext dataProvider={testDataProvider()} i18nProvider={i18nProvider} store={memoryStore()}>
      <PdfButton detail={shown} language={language} />
    </AdminContext>,
  );
  const button = screen.getByTestId('statistics-pdf') as HTMLButtonElement;
  await waitFor(() => expect(button.disabled).toBe(false));
  fireEvent.click(button);
  await waitFor(() => expect(saved).toHaveLength(1), { timeout: 10_000 });
  return squash(pdfText(await bytesOf(saved[0].blob)));
}
const detailCalls = () => calls.filter((c) => c.path === '/v1/statistics/5');

describe('the PDF report of a questionnaire in two languages', () => {
  it('in the other language: its questionnaire texts asked for in that language, and its own headings in it', async () => {
    const text = await print(detailIn('zh-hk'), 'en');
    expect(detailCalls().map((c) => Object.fromEntries(c.query))).toEqual([{ role: 'TEACHER', language: 'en' }]);
    expect(saved[0].name).toBe(`Parent Day Survey-${today()}.pdf`);
    expect(text).toContain('Parent Day Survey');
    expect(text).toContain('Person in charge Lee');
    expect(text).toContain('Status In progress');
    expect(text).toContain('Respondents Role: Teacher');
    expect(text).toMatch(/Question 1 Were you satisfied with this year’s parent day\?/);
    expect(text).toMatch(/Option\s+Count\s+Percent/);
    expect(text).toMatch(/Satisfied 7 63\.6%/);
    expect(text).toMatch(/Page 1 of \d+/);
    for (const chinese of ['家長日意見調查', '負責人', '第 1 題', '你滿意今年的家長日嗎', '滿意']) expect(text).not.toContain(chinese);
  });

  it('in the interface language: the detail on screen as it is, the headings of the interface', async () => {
    const text = await print(detailIn('zh-hk'), 'zh-hk');
    expect(detailCalls()).toEqual([]);
    expect(saved[0].name).toBe(`家長日意見調查-${today()}.pdf`);
    expect(text).toContain('負責人 李老師');
    expect(text).toMatch(/第 1 題 你滿意今年的家長日嗎？/);
    expect(text).not.toContain('Person in charge');
  });

  it('in Chinese from an English interface', async () => {
    await i18nProvider.changeLocale('en');
    const text = await print(detailIn('en'), 'zh-hk');
    expect(detailCalls().map((c) => c.query.get('language'))).toEqual(['zh-hk']);
    expect(text).toContain('家長日意見調查');
    expect(text).toContain('負責人 李老師');
    expect(text).toContain('回應者 身份：教師');
    expect(text).toMatch(/第 1 題 你滿意今年的家長日嗎？/);
    expect(text).not.toContain('Person in charge');
    expect(text).not.toContain('Were you satisfied');
  });
});
