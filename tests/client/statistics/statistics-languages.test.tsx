import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { i18nProvider } from '../../../src/client/providers/i18nProvider';
import { StatisticsDetail, StatisticsList } from '../../../src/client/statistics';
import type { Definition } from '../../../src/shared/questionnaire/definition';
import type { StatisticsDetail as Detail, StatisticsRow } from '../../../src/shared/statistics/types';
import { detail, fakeFetch, named, renderAt, row, setWidth, VIEW, type FetchCall } from './support';

vi.mock('react-chartjs-2', async () => (await import('./support')).chartStub());
// the PDF itself is statistics-pdf-languages.test.tsx's: here, the language the detail hands it
vi.mock('../../../src/client/statistics/pdf/PdfButton', () => ({
  PdfButton: ({ language }: { language?: string }) => <button data-testid="pdf-button" data-language={language ?? ''} />,
}));

const BILINGUAL: Pick<StatisticsRow, 'title' | 'titleTranslation' | 'languages'> = { title: '家長日意見調查', titleTranslation: 'Parents’ day survey', languages: ['zh-hk', 'en'] };

/** A reply's questionnaire, written in both languages. */
const DEF: Definition = {
  version: 1,
  languages: ['zh-hk', 'en'],
  sections: [{ id: 's1', questions: [{ id: 'q5', type: 'PARAGRAPH', title: '其他意見', required: false }] }],
  translations: { en: { questions: { q5: { title: 'Other comments' } } } },
};

let calls: FetchCall[];
let answerDetail: () => Detail;
beforeEach(async () => {
  await i18nProvider.changeLocale('zh-hk');
  answerDetail = () => detail({ questionnaire: row(BILINGUAL) });
  calls = fakeFetch((call) => {
    if (call.path === '/v1/statistics') return { list: [row({ id: 5, ...BILINGUAL }), row({ id: 6, title: '教師問卷' })], total: 2 };
    if (call.path === '/v1/statistics/5') return answerDetail();
    if (call.path === '/v1/statistics/5/respondents') return { anonymous: false, list: [named()], total: 1 };
    if (call.path === '/v1/statistics/5/replies/r-1') return { replyId: 'r-1', number: null, submittedOn: '2025-03-02', answers: { q5: '辦得好' }, definition: DEF };
    return { code: 404, status: 404, msg: 'not found' };
  });
  setWidth(1280);
});
afterEach(async () => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  await i18nProvider.changeLocale('zh-hk');
});

const open = async (path = '/data-statistics/detail?id=5', permissions?: string[]) => {
  renderAt(path, <StatisticsDetail />, permissions);
  return screen.findByTestId('statistics-detail');
};
const exportLanguage = () => screen.queryByTestId('statistics-export-language') as HTMLSelectElement | null;

/** Saves the downloads' names; the next call answers a file, as the export does. */
function catchDownload() {
  const saved: string[] = [];
  Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => undefined });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push(this.download);
  });
  const fetch = globalThis.fetch as ReturnType<typeof vi.fn>;
  fetch.mockImplementationOnce(async (url: string) => {
    const u = new URL(url, 'http://localhost');
    calls.push({ method: 'GET', path: u.pathname, query: u.searchParams, body: undefined });
    return { ok: true, status: 200, headers: { get: () => 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }, blob: async () => new Blob(['x']) } as unknown as Response;
  });
  return saved;
}
const exportCall = () => calls.find((c) => c.path === '/v1/statistics/5/export')!;

describe('statistics of a questionnaire in two languages', () => {
  it('names each questionnaire in the reader’s language, in the list and on the detail', async () => {
    await i18nProvider.changeLocale('en');
    renderAt('/data-statistics/list', <StatisticsList />, VIEW);
    expect(await screen.findByText('Parents’ day survey')).toBeTruthy();
    // a questionnaire in Chinese only keeps its title
    expect(screen.getByText('教師問卷')).toBeTruthy();
    cleanup();

    await open();
    expect(screen.getByTestId('statistics-title').textContent).toBe('Parents’ day survey');
  });

  it('exports in the interface language by default, and in the other when chosen', async () => {
    await open();
    expect(screen.getByTestId('statistics-title').textContent).toBe('家長日意見調查');
    const choice = exportLanguage()!;
    expect(choice.value).toBe('zh-hk');
    expect(screen.getByLabelText('匯出語言')).toBe(choice);
    expect([...choice.options].map((o) => [o.value, o.textContent])).toEqual([
      ['zh-hk', '繁體中文'],
      ['en', 'English'],
    ]);
    expect(screen.getByTestId('pdf-button').dataset.language).toBe('zh-hk');

    let saved = catchDownload();
    await act(async () => fireEvent.click(screen.getByTestId('statistics-export')));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(exportCall().query.get('language')).toBe('zh-hk');
    expect(saved[0]).toMatch(/^家長日意見調查-\d{4}-\d{2}-\d{2}\.xlsx$/);

    fireEvent.change(choice, { target: { value: 'en' } });
    expect(screen.getByTestId('pdf-button').dataset.language).toBe('en');
    calls.length = 0;
    saved = catchDownload();
    await act(async () => fireEvent.click(screen.getByTestId('statistics-export')));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(exportCall().query.get('language')).toBe('en');
    // the file is named in its language
    expect(saved[0]).toMatch(/^Parents’ day survey-\d{4}-\d{2}-\d{2}\.xlsx$/);
    // the screen itself stays in the interface language
    expect(screen.getByTestId('statistics-title').textContent).toBe('家長日意見調查');
  });

  it('keeps the filter with the language of the export', async () => {
    await open('/data-statistics/detail?id=5&role=TEACHER');
    fireEvent.change(exportLanguage()!, { target: { value: 'en' } });
    const saved = catchDownload();
    await act(async () => fireEvent.click(screen.getByTestId('statistics-export')));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(Object.fromEntries(exportCall().query)).toEqual({ role: 'TEACHER', language: 'en' });
  });

  it('offers the choice for the PDF alone when the user may print but not export', async () => {
    await open('/data-statistics/detail?id=5', ['data-statistics.view', 'data-statistics.print']);
    expect(screen.queryByTestId('statistics-export')).toBeNull();
    fireEvent.change(exportLanguage()!, { target: { value: 'en' } });
    expect(screen.getByTestId('pdf-button').dataset.language).toBe('en');
  });

  it('opens a reply in the reader’s language', async () => {
    await i18nProvider.changeLocale('en');
    await open();
    fireEvent.click(screen.getByRole('tab', { name: 'Respondents' }));
    fireEvent.click(within(await screen.findByTestId('respondents-named')).getByText('Chan Tai Man'));
    const dialog = await screen.findByTestId('reply-dialog');
    expect(await within(dialog).findByRole('textbox', { name: 'Other comments' })).toBeTruthy();
    expect(within(dialog).getByRole('heading', { name: 'Parents’ day survey' })).toBeTruthy();
  });
});

describe('statistics of a questionnaire in one language', () => {
  it('offers no choice of language, and exports as before', async () => {
    answerDetail = () => detail();
    await open();
    expect(exportLanguage()).toBeNull();
    expect(screen.getByTestId('pdf-button').dataset.language).toBe('');
    const saved = catchDownload();
    await act(async () => fireEvent.click(screen.getByTestId('statistics-export')));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(exportCall().query.has('language')).toBe(false);
  });
});
