import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { i18nProvider } from '../../../src/client/providers/i18nProvider';
import { StatisticsDetail } from '../../../src/client/statistics';
import type { Definition } from '../../../src/shared/questionnaire/definition';
import type { RespondentPage, StatisticsDetail as Detail, TextPage } from '../../../src/shared/statistics/types';
import { anonymous, detail, fakeFetch, location, named, renderAt, row, VIEW, type FetchCall } from './support';

vi.mock('react-chartjs-2', async () => (await import('./support')).chartStub());
// the PDF button is another screen's work: here only whether it is offered
vi.mock('../../../src/client/statistics/pdf/PdfButton', () => ({ PdfButton: () => <button data-testid="pdf-button">PDF</button> }));

const DEF: Definition = {
  version: 1,
  sections: [{ id: 's1', questions: [{ id: 'q5', type: 'PARAGRAPH', title: '其他意見', required: false }] }],
};

const TEXTS = Array.from({ length: 25 }, (_, i) => ({ replyId: `r${i}`, text: i % 2 ? `安排很好 ${i}` : `時間太短 ${i}`, shown: false }));

let calls: FetchCall[];
/** the 'other' texts of q1, and the paragraph of the reply read whole */
let otherTexts: { replyId: string; text: string; shown: boolean }[];
let replyText: string;
let answerDetail: (call: FetchCall) => Detail;
let respondents: RespondentPage;
beforeEach(async () => {
  await i18nProvider.changeLocale('zh-hk');
  answerDetail = () => detail();
  otherTexts = [{ replyId: 'o1', text: '要有茶點', shown: false }];
  replyText = '家長日辦得好';
  respondents = { anonymous: false, list: [named(), named({ feedbackId: 2, nameHk: '李小明', nameEn: 'Lee Siu Ming', status: 'NOT_SUBMITTED', submittedAt: null, replyId: null, userNo: 'S002' })], total: 2 };
  calls = fakeFetch((call) => {
    if (call.path === '/v1/statistics/5') return answerDetail(call);
    if (call.path === '/v1/statistics/5/texts') {
      const q = call.query.get('q') ?? '';
      const all = call.query.get('part') === 'other' ? otherTexts : TEXTS.filter((t) => t.text.includes(q));
      const page = Number(call.query.get('page'));
      const size = Number(call.query.get('size'));
      return { list: all.slice((page - 1) * size, page * size), total: all.length, withheld: null, mayMark: false } satisfies TextPage;
    }
    if (call.path === '/v1/statistics/5/respondents') return respondents;
    if (call.path.startsWith('/v1/statistics/5/replies/')) return { replyId: 'r-1', submittedOn: '2025-03-02T02:00:00.000Z', answers: { q5: replyText }, definition: DEF };
    return { code: 404, status: 404, msg: 'not found' };
  });
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: 1280 });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const open = async (path = '/data-statistics/detail?id=5', permissions?: string[]) => {
  renderAt(path, <StatisticsDetail />, permissions);
  return screen.findByTestId('statistics-detail');
};
const rowsOf = (table: HTMLElement) => [...table.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td, th')].map((c) => c.textContent?.trim()));
const detailCalls = () => calls.filter((c) => c.path === '/v1/statistics/5');

describe('the statistics detail', () => {
  it('shows the questionnaire’s facts and each question’s summary with the server’s numbers', async () => {
    await open();
    expect(screen.getByTestId('statistics-title').textContent).toBe('家長日意見調查');
    expect(screen.getByTestId('fact-rate').textContent).toContain('40%');
    expect(screen.getByTestId('fact-submitted').textContent).toContain('12');
    expect(screen.getByTestId('fact-respondents').textContent).toContain('30');
    expect(screen.getByTestId('type-chip').textContent).toBe('記名');

    const q1 = screen.getByTestId('stat-question-q1');
    expect(within(q1).getByRole('heading').textContent).toBe('1. 你滿意今年的家長日嗎？');
    expect(within(q1).getByTestId('question-type').textContent).toBe('單選題');
    expect(within(q1).getByTestId('answered').textContent).toBe('已作答：11');
    expect(rowsOf(within(q1).getByTestId('choices-q1'))).toEqual([
      ['滿意', '7', '63.6%'],
      ['不滿意', '3', '27.3%'],
      ['其他', '1', '9.1%'],
    ]);
    // a radio question's chart is a pie (a toggle makes it bars), named after the question
    const pie = await within(q1).findByRole('img', { name: '「你滿意今年的家長日嗎？」的回覆圖表' });
    expect(pie.getAttribute('data-chart')).toBe('pie');
    fireEvent.click(within(q1).getByRole('button', { name: '棒形圖' }));
    expect((await within(q1).findByRole('img')).getAttribute('data-chart')).toBe('bar');

    const grid = within(screen.getByTestId('stat-question-q2')).getByTestId('grid-q2');
    expect([...grid.querySelectorAll('thead th')].map((th) => th.textContent)).toEqual(['項目', '好', '差', '作答人數']);
    // each cell: the count, and under it the percentage of those who answered the row
    expect(rowsOf(grid)).toEqual([
      ['時間', '8' + '80%', '2' + '20%', '10'],
      ['地點', '3' + '33.3%', '6' + '66.7%', '9'],
    ]);
    expect(await within(screen.getByTestId('stat-question-q2')).findByRole('img')).toBeTruthy();

    const q3 = screen.getByTestId('stat-question-q3');
    expect(within(q3).getByTestId('scale-mean').textContent).toBe('平均數2.5');
    expect(within(q3).getByTestId('scale-median').textContent).toBe('中位數3');
    expect(within(q3).getByText('1 = 差 · 3 = 好')).toBeTruthy();
    expect(rowsOf(within(q3).getByTestId('scale-q3'))).toEqual([
      ['1', '1', '25%'],
      ['2', '0', '0%'],
      ['3', '3', '75%'],
    ]);

    expect(rowsOf(within(screen.getByTestId('stat-question-q4')).getByTestId('distribution-q4'))).toEqual([['2025-04-01', '2', '100%']]);
  });

  it('filters by role, grade and class: the URL keeps the filter and the server is asked again', async () => {
    await open();
    fireEvent.mouseDown(screen.getByRole('combobox', { name: '回覆者身份' }));
    fireEvent.click(await screen.findByRole('option', { name: '學生（10/25）' }));
    await waitFor(() => expect(detailCalls().at(-1)!.query.get('role')).toBe('STUDENT'));
    expect(location.search).toBe('?id=5&role=STUDENT');

    fireEvent.mouseDown(screen.getByRole('combobox', { name: '級別' }));
    fireEvent.click(await screen.findByRole('option', { name: '中二（4/10）' }));
    await waitFor(() => expect(Object.fromEntries(detailCalls().at(-1)!.query)).toEqual({ role: 'STUDENT', gradeId: '2' }));
    // the classes of that grade only
    fireEvent.mouseDown(screen.getByRole('combobox', { name: '班別' }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual(['全部', '2A（2/5）', '2B（2/5）']);
    fireEvent.click(screen.getByRole('option', { name: '2B（2/5）' }));
    await waitFor(() => expect(location.search).toBe('?id=5&role=STUDENT&gradeId=2&classId=22'));
    expect(Object.fromEntries(detailCalls().at(-1)!.query)).toEqual({ role: 'STUDENT', gradeId: '2', classId: '22' });

    fireEvent.click(screen.getByTestId('filter-clear'));
    await waitFor(() => expect(location.search).toBe('?id=5'));
  });

  it('opens with the filter of its URL, and what the server answers for it is what is shown', async () => {
    answerDetail = (call) =>
      call.query.get('role') === 'TEACHER'
        ? detail({ filter: { role: 'TEACHER' }, respondentNum: 5, submittedNum: 2, replyCount: 2 })
        : detail();
    await open('/data-statistics/detail?id=5&role=TEACHER');
    expect(detailCalls()[0].query.get('role')).toBe('TEACHER');
    expect(screen.getByTestId('fact-rate').textContent).toContain('40%');
    expect(screen.getByTestId('fact-respondents').textContent).toContain('5');
    expect(screen.getByTestId('reply-count').textContent).toBe('共 2 份回覆的結果');
  });

  it('says why an anonymous group’s results are withheld', async () => {
    answerDetail = () => {
      const d = detail({ questionnaire: row({ type: 'ANONYMOUS' }), withheld: { minGroupSize: 5, reason: 'group' } });
      return { ...d, questions: d.questions.map((q) => ({ ...q, summary: null })) };
    };
    await open('/data-statistics/detail?id=5&classId=22');
    expect(screen.getByTestId('withheld-notice').textContent).toBe('此組別（或同層的其他組別）的回覆少於 5 份，為保障回覆者匿名，結果不予顯示。請選擇較大的組別。');
    expect(screen.queryByTestId('choices-q1')).toBeNull();
    expect(screen.queryByTestId('texts-q5-answer')).toBeNull();
  });

  it('says that an anonymous questionnaire with too few replies in all is withheld, and that replies come in batches', async () => {
    answerDetail = () => {
      const d = detail({ questionnaire: row({ type: 'ANONYMOUS' }), releaseBatch: 5, withheld: { minGroupSize: 5, reason: 'total' } });
      return { ...d, questions: d.questions.map((q) => ({ ...q, summary: null })) };
    };
    await open('/data-statistics/detail?id=5');
    expect(screen.getByTestId('withheld-notice').textContent).toBe('此不記名問卷的回覆合共少於 5 份，為保障回覆者匿名，結果不予顯示。');
    expect(screen.getByTestId('release-batch-note').textContent).toContain('每累積最少 5 份');
  });

  it('says nothing of batches for a named questionnaire', async () => {
    await open();
    expect(screen.queryByTestId('release-batch-note')).toBeNull();
  });

  it('lists the text answers: searched as one types, and paged', async () => {
    await open();
    const box = await screen.findByTestId('texts-q5-answer');
    await waitFor(() => expect(within(box).getAllByTestId('text-answer')).toHaveLength(10));
    expect(within(box).getByText('第 1–10 項，共 25 項')).toBeTruthy();
    fireEvent.click(within(box).getByRole('button', { name: '下一頁' }));
    await waitFor(() => expect(within(box).getByText('第 11–20 項，共 25 項')).toBeTruthy());
    expect(await within(box).findByText('安排很好 11')).toBeTruthy();

    const before = calls.length;
    fireEvent.change(within(box).getByRole('textbox', { name: '搜尋回覆' }), { target: { value: '時' } });
    fireEvent.change(within(box).getByRole('textbox', { name: '搜尋回覆' }), { target: { value: '時間' } });
    await waitFor(() => expect(within(box).getByText('第 1–10 項，共 13 項')).toBeTruthy());
    const searches = calls.slice(before).filter((c) => c.path.endsWith('/texts'));
    // debounced: one call for what was typed, from its first page
    expect(searches.map((c) => [c.query.get('q'), c.query.get('page')])).toEqual([['時間', '1']]);
    expect(searches[0].query.get('questionId')).toBe('q5');
  });

  it('opens the “other” texts of a choice question in the same list', async () => {
    await open();
    fireEvent.click(screen.getByTestId('other-texts-q1'));
    expect(await screen.findByText('要有茶點')).toBeTruthy();
    const other = calls.find((c) => c.path.endsWith('/texts') && c.query.get('part') === 'other')!;
    expect(other.query.get('questionId')).toBe('q1');
  });

  it('shows a text answer as typed: its leading spaces and line breaks kept (docs/product-rules.md#answers-as-typed)', async () => {
    otherTexts = [{ replyId: 'o1', text: '  要有茶點\n    和汽水', shown: false }];
    await open();
    fireEvent.click(screen.getByTestId('other-texts-q1'));
    const box = await screen.findByTestId('texts-q1-other');
    // the answer's own paragraph (the row beside it may hold its mark)
    const text = await within(box).findByTestId('text-answer');
    expect(text.tagName).toBe('P');
    expect(text.textContent).toBe('  要有茶點\n    和汽水');
    // HTML folds spaces and line breaks unless told not to
    expect(getComputedStyle(text).whiteSpace).toBe('pre-wrap');
  });

  it('shows a reply’s paragraph as typed in the reply read whole', async () => {
    replyText = '  第一行\n    第二行';
    await open();
    fireEvent.click(screen.getByRole('tab', { name: '回覆者' }));
    const table = await screen.findByTestId('respondents-named');
    fireEvent.click(within(table).getAllByRole('button')[0]);
    const dialog = await screen.findByTestId('reply-dialog');
    await waitFor(() => expect((within(dialog).getByRole('textbox') as HTMLTextAreaElement).value).toBe('  第一行\n    第二行'));
  });

  it('lists named respondents with their status; a submitted reply opens read only', async () => {
    await open();
    fireEvent.click(screen.getByRole('tab', { name: '回覆者' }));
    const table = await screen.findByTestId('respondents-named');
    expect(rowsOf(table)).toEqual([
      ['學生', '陳大文', 'S001', '1A', '3', '已提交', expect.stringMatching(/^2025-03-02 /)],
      ['學生', '李小明', 'S002', '1A', '3', '未提交', ''],
    ]);
    fireEvent.mouseDown(screen.getByRole('combobox', { name: '狀態' }));
    fireEvent.click(await screen.findByRole('option', { name: '未提交' }));
    await waitFor(() => expect(calls.filter((c) => c.path.endsWith('/respondents')).at(-1)!.query.get('status')).toBe('NOT_SUBMITTED'));

    fireEvent.click(within(table).getByText('陳大文'));
    const dialog = await screen.findByTestId('reply-dialog');
    expect(within(dialog).getByText('陳大文 的回覆')).toBeTruthy();
    expect(await within(dialog).findByDisplayValue('家長日辦得好')).toBeTruthy();
    expect(calls.some((c) => c.path === '/v1/statistics/5/replies/r-1')).toBe(true);
  });

  it('shows anonymous respondents as “anonymous N” with the counts, never a name', async () => {
    answerDetail = () => detail({ questionnaire: row({ type: 'ANONYMOUS' }) });
    respondents = { anonymous: true, list: [anonymous(1), anonymous(2)], total: 2, notSubmittedNum: 28, withheld: null };
    await open();
    fireEvent.click(screen.getByRole('tab', { name: '回覆者' }));
    const table = await screen.findByTestId('respondents-anonymous');
    // the day only, as the server gives it for an anonymous reply
    expect(rowsOf(table)).toEqual([
      ['匿名 1', '2025-03-02'],
      ['匿名 2', '2025-03-02'],
    ]);
    expect(screen.getByTestId('count-submitted').textContent).toBe('已提交: 2');
    expect(screen.getByTestId('count-not-submitted').textContent).toBe('未提交: 28');
    expect(screen.queryByRole('combobox', { name: '狀態' })).toBeNull();
    fireEvent.click(within(table).getByText('匿名 2'));
    expect(within(await screen.findByTestId('reply-dialog')).getByText('匿名 2 的回覆')).toBeTruthy();
    await waitFor(() => expect(calls.some((c) => c.path === '/v1/statistics/5/replies/x-2')).toBe(true));
  });

  it('offers Export Excel with data-statistics.export only, with the filter', async () => {
    await open('/data-statistics/detail?id=5', VIEW);
    expect(screen.queryByTestId('statistics-export')).toBeNull();
    expect(screen.queryByTestId('pdf-button')).toBeNull();
    cleanup();

    const saved: string[] = [];
    // jsdom has no object URLs
    Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => undefined });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    await open('/data-statistics/detail?id=5&role=TEACHER');
    expect(await screen.findByTestId('pdf-button')).toBeTruthy();
    fetchBlobOnce();
    await act(async () => fireEvent.click(await screen.findByTestId('statistics-export')));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatch(/^家長日意見調查-\d{4}-\d{2}-\d{2}\.xlsx$/);
    expect(Object.fromEntries(calls.find((c) => c.path === '/v1/statistics/5/export')!.query)).toEqual({ role: 'TEACHER' });
    click.mockRestore();
  });

  it('a questionnaire one may not see is “record not found”', async () => {
    renderAt('/data-statistics/detail?id=9', <StatisticsDetail />);
    expect(await screen.findByTestId('record-not-found')).toBeTruthy();
  });
});

/** The next call answers a file, as the export does. */
function fetchBlobOnce() {
  const fetch = globalThis.fetch as ReturnType<typeof vi.fn>;
  fetch.mockImplementationOnce(async (url: string) => {
    const u = new URL(url, 'http://localhost');
    calls.push({ method: 'GET', path: u.pathname, query: u.searchParams, body: undefined });
    return { ok: true, status: 200, headers: { get: () => 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }, blob: async () => new Blob(['x']) } as unknown as Response;
  });
}
