import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { AdminContext, memoryStore, TestMemoryRouter, testDataProvider, type DataProvider } from 'react-admin';
import { Route, Routes, type NavigateFunction } from 'react-router-dom';
import { i18nProvider } from '../../../src/client/providers/i18nProvider';
import type { Definition } from '../../../src/shared/questionnaire/definition';
import { QuestionnaireFillingScreen } from '../../../src/client/filling/QuestionnaireFillingScreen';
import { QuestionnaireFillingList } from '../../../src/client/filling/QuestionnaireFillingList';
import { draftKey } from '../../../src/client/filling/draft';
import type { MyQuestionnaire, MyQuestionnaireDetail } from '../../../src/client/filling/model';
import { authFor, fakeFetch, type FetchCall } from '../questionnaires/support';
import { questionnaireDetail } from './support';

const ME = 7; // the user id of support.authFor's identity

/** Two sections: a required text and a radio first, then a paragraph. */
const DEF: Definition = {
  version: 1,
  sections: [
    {
      id: 's1',
      questions: [
        { id: 'name', type: 'SHORT_TEXT', title: '姓名', required: true },
        { id: 'pick', type: 'RADIO', title: '選擇', required: false, options: [{ id: 'o1', label: '甲' }, { id: 'o2', label: '乙' }] },
      ],
    },
    { id: 's2', title: '第二部分', questions: [{ id: 'note', type: 'PARAGRAPH', title: '意見', required: false }] },
  ],
};

const detail = (over: Partial<MyQuestionnaireDetail> = {}): MyQuestionnaireDetail => questionnaireDetail(DEF, over);

let location = { pathname: '', search: '' };
function renderScreen(path = '/questionnaire-filling/detail?id=5', waitMs?: number) {
  return render(
    <TestMemoryRouter initialEntries={[path]} locationCallback={(l) => (location = l)}>
      <AdminContext dataProvider={testDataProvider()} authProvider={authFor(['form-input.view'])} i18nProvider={i18nProvider} store={memoryStore()}>
        <Routes>
          <Route path="/questionnaire-filling/detail" element={<QuestionnaireFillingScreen key="detail" type="detail" waitMs={waitMs} />} />
          <Route path="/questionnaire-filling/view" element={<QuestionnaireFillingScreen key="view" type="view" waitMs={waitMs} />} />
          <Route path="/questionnaire-filling/list" element={<div data-testid="the-list" />} />
        </Routes>
      </AdminContext>
    </TestMemoryRouter>,
  );
}

/** A server holding one questionnaire: GET answers it as it stands, POST as `onPost` says (stored by default). */
function fakeServer(onPost: (call: FetchCall, n: number) => unknown = () => ({ submittedAt: '2025-03-05T02:00:00.000Z' })) {
  let record = detail();
  let posts = 0;
  const calls = fakeFetch((call) => {
    if (call.method === 'GET' && call.path === '/v1/my/questionnaires/5') return record;
    if (call.method === 'POST' && call.path === '/v1/my/questionnaires/5/replies') {
      const answer = onPost(call, posts++);
      const failed = answer && typeof answer === 'object' && 'code' in answer;
      if (!failed) {
        const { answers } = call.body as { answers: MyQuestionnaireDetail['answers'] };
        record = { ...record, feedbackStatus: 'SUBMITTED', submittedAt: '2025-03-05T02:00:00.000Z', answers };
      }
      return answer;
    }
    return { status: 404, code: 404, msg: 'no such call' };
  });
  return { calls, posts: () => calls.filter((c) => c.method === 'POST') };
}

const card = (id: string) => screen.getByTestId(`question-${id}`);
const nameInput = () => within(card('name')).getByRole('textbox') as HTMLInputElement;
const next = () => fireEvent.click(screen.getByTestId('section-next'));
const submit = () => fireEvent.click(screen.getByTestId('section-submit'));
/** the submit dialog has closed (while open, the rest of the page is hidden from assistive technology) */
const dialogGone = () => waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

beforeEach(async () => {
  await i18nProvider.changeLocale('zh-hk');
  localStorage.clear();
  Element.prototype.scrollIntoView = vi.fn();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('answer screen', () => {
  it('keeps the answers in the browser on every change and restores them after a remount (a reload)', async () => {
    fakeServer();
    renderScreen();
    fireEvent.change(await screen.findByRole('textbox', { name: '姓名' }), { target: { value: '陳大文' } });
    fireEvent.click(within(card('pick')).getByLabelText('乙'));
    const stored = JSON.parse(localStorage.getItem(draftKey(ME, 5))!);
    expect(stored.answers).toEqual({ name: '陳大文', pick: { choice: 'o2' } });
    expect(screen.getByTestId('draft-note').textContent).toContain('保存在此裝置');

    cleanup();
    renderScreen();
    await waitFor(() => expect(nameInput().value).toBe('陳大文'));
    expect((within(card('pick')).getByLabelText('乙') as HTMLInputElement).checked).toBe(true);
    // another user's draft is another key
    expect(localStorage.getItem(draftKey(8, 5))).toBeNull();
  });

  it('reuses the submission key on a retry after a lost answer, even across a reload, then shows my answers read only', async () => {
    const server = fakeServer((_call, n) => {
      if (n === 0) throw new TypeError('Failed to fetch'); // the answer never arrives
      return { submittedAt: '2025-03-05T02:00:00.000Z' };
    });
    renderScreen();
    fireEvent.change(await screen.findByRole('textbox', { name: '姓名' }), { target: { value: '陳大文' } });
    next();
    fireEvent.change(await screen.findByRole('textbox', { name: '意見' }), { target: { value: '很好' } });
    submit();
    // no answer: 'system busy, check later', the draft and its key are kept
    expect((await screen.findByTestId('submit-busy')).textContent).toBe('系統繁忙，請稍後再查看');
    const firstKey = (server.posts()[0].body as { submissionKey: string }).submissionKey;
    expect(firstKey).toMatch(/^[A-Za-z0-9_-]{8,}$/);
    expect(JSON.parse(localStorage.getItem(draftKey(ME, 5))!).submissionKey).toBe(firstKey);

    // the page is reloaded, then the respondent submits again
    cleanup();
    renderScreen();
    await waitFor(() => expect(nameInput().value).toBe('陳大文'));
    next();
    submit();
    await waitFor(() => expect(location.pathname).toBe('/questionnaire-filling/view'));
    const [first, second] = server.posts();
    expect((second.body as { submissionKey: string }).submissionKey).toBe(firstKey);
    expect(second.body).toEqual(first.body);
    expect((second.body as { answers: unknown }).answers).toEqual({ name: '陳大文', note: '很好' });
    // stored: the draft is gone, and the view shows my answers, nothing to change or send
    expect(localStorage.getItem(draftKey(ME, 5))).toBeNull();
    await screen.findByTestId('filling-submitted');
    expect(nameInput().value).toBe('陳大文');
    expect(nameInput().readOnly).toBe(true);
    expect((within(card('pick')).getByLabelText('乙') as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByTestId('section-submit')).toBeNull();
  });

  it('sends a text as typed — leading spaces and line breaks kept, trailing whitespace gone — and shows it back so (docs/product-rules.md#answers-as-typed)', async () => {
    const server = fakeServer();
    renderScreen();
    // spaces alone are no answer to a required question
    fireEvent.change(await screen.findByRole('textbox', { name: '姓名' }), { target: { value: '  \u3000 ' } });
    next();
    expect(await within(card('name')).findByText('此問題必須回答')).toBeTruthy();
    fireEvent.change(nameInput(), { target: { value: '  陳大文 ' } });
    next();
    fireEvent.change(await screen.findByRole('textbox', { name: '意見' }), { target: { value: '  第一行\n    第二行  \n\n' } });
    submit();
    await waitFor(() => expect(location.pathname).toBe('/questionnaire-filling/view'));
    expect((server.posts()[0].body as { answers: unknown }).answers).toEqual({ name: '  陳大文', note: '  第一行\n    第二行' });
    await screen.findByTestId('filling-submitted');
    expect(nameInput().value).toBe('  陳大文');
    next();
    expect((within(card('note')).getByRole('textbox') as HTMLTextAreaElement).value).toBe('  第一行\n    第二行');
  });

  it("shows 'reply received and being checked, please wait' until the server answers, and 'system busy' after the wait", async () => {
    let release: (() => void) | undefined;
    const slow = new Promise<void>((r) => (release = r));
    fakeFetch((call) => (call.method === 'GET' ? detail() : null));
    const fetch = vi.mocked(globalThis.fetch);
    const answer = fetch.getMockImplementation()!;
    // the reply's answer is held back
    fetch.mockImplementation(async (url, init) => {
      if (init?.method === 'POST') await slow;
      return answer(url, init);
    });
    renderScreen('/questionnaire-filling/detail?id=5', 300);
    fireEvent.change(await screen.findByRole('textbox', { name: '姓名' }), { target: { value: '陳大文' } });
    next();
    submit();
    expect((await screen.findByTestId('submit-checking')).textContent).toBe('已收到回覆，正在檢查，請稍候');
    expect((await screen.findByTestId('submit-busy', {}, { timeout: 2000 })).textContent).toBe('系統繁忙，請稍後再查看');
    expect(localStorage.getItem(draftKey(ME, 5))).not.toBeNull();
    release?.();
  });

  it('puts the messages of a 422 on their questions and opens the section of the first', async () => {
    const server = fakeServer(() => ({ status: 422, code: 422, msg: 'x', data: { note: '伺服器：意見太短' } }));
    renderScreen();
    fireEvent.change(await screen.findByRole('textbox', { name: '姓名' }), { target: { value: '陳大文' } });
    next();
    fireEvent.change(await screen.findByRole('textbox', { name: '意見' }), { target: { value: '好' } });
    fireEvent.click(screen.getByTestId('section-back'));
    await screen.findByRole('textbox', { name: '姓名' });
    // the problem's question is on the second section: submit from there, after going back and forth
    next();
    submit();
    const problem = await within(card('note')).findByTestId('answer-problem');
    expect(problem.textContent).toBe('伺服器：意見太短');
    await dialogGone();
    expect(screen.getByTestId('section-problems')).toBeTruthy();
    await waitFor(() => expect(Element.prototype.scrollIntoView).toHaveBeenCalled());
    expect(server.posts()).toHaveLength(1);
    // the draft stays; changing the answer clears the server's message
    expect(localStorage.getItem(draftKey(ME, 5))).not.toBeNull();
    fireEvent.change(screen.getByRole('textbox', { name: '意見' }), { target: { value: '很好，謝謝' } });
    expect(within(card('note')).queryByTestId('answer-problem')).toBeNull();
  });

  it('opens the section of a 422 problem that lies on an earlier section and scrolls to it', async () => {
    fakeServer(() => ({ status: 422, code: 422, msg: 'x', data: { name: '伺服器：姓名不正確' } }));
    renderScreen();
    fireEvent.change(await screen.findByRole('textbox', { name: '姓名' }), { target: { value: '陳大文' } });
    next();
    await screen.findByRole('textbox', { name: '意見' });
    submit();
    expect((await within(await screen.findByTestId('question-name')).findByTestId('answer-problem')).textContent).toBe('伺服器：姓名不正確');
    expect(screen.queryByTestId('question-note')).toBeNull();
    await waitFor(() => expect(vi.mocked(Element.prototype.scrollIntoView).mock.contexts.some((el) => (el as Element).id === 'q-name')).toBe(true));
  });

  it('shows the server message of a 709 in a read-only state', async () => {
    fakeServer(() => ({ status: 409, code: 709, msg: '問卷已經結束' }));
    renderScreen();
    fireEvent.change(await screen.findByRole('textbox', { name: '姓名' }), { target: { value: '陳大文' } });
    next();
    submit();
    expect((await screen.findByTestId('filling-notice')).textContent).toBe('問卷已經結束');
    expect(screen.queryByTestId('section-submit')).toBeNull();
  });

  it('opens a submitted anonymous questionnaire on the view route with a confirmation', async () => {
    fakeFetch(() => detail({ type: 'ANONYMOUS', feedbackStatus: 'SUBMITTED', submittedAt: '2025-03-05T02:00:00.000Z', answers: null }));
    renderScreen('/questionnaire-filling/detail?id=5');
    expect((await screen.findByTestId('filling-confirmation')).textContent).toContain('不記名');
    expect(location.pathname).toBe('/questionnaire-filling/view');
    expect(screen.queryByRole('textbox')).toBeNull();
  });

  it('says a questionnaire has not opened yet', async () => {
    fakeFetch(() => detail({ status: 'NOT_OPEN' }));
    renderScreen('/questionnaire-filling/view?id=5');
    expect((await screen.findByTestId('filling-state-notOpen')).textContent).toBe('問卷尚未開始');
  });

  it('shows my designated code above the questions, while I answer and once submitted, in both languages', async () => {
    fakeFetch(() => detail({ designatedCode: 'QX7K2M' }));
    renderScreen();
    expect((await screen.findByTestId('fact-designatedCode')).textContent).toBe('指定編號：QX7K2M');
    cleanup();

    await i18nProvider.changeLocale('en');
    fakeFetch(() => detail({ designatedCode: 'QX7K2M', feedbackStatus: 'SUBMITTED', submittedAt: '2025-03-05T02:00:00.000Z', answers: { name: 'Chan' } }));
    renderScreen('/questionnaire-filling/view?id=5');
    expect((await screen.findByTestId('fact-designatedCode')).textContent).toBe('Designated code: QX7K2M');
  });
});

describe('my questionnaires', () => {
  const rows: MyQuestionnaire[] = [
    { ...detail(), id: 5, title: '進行中的問卷', designatedCode: 'D-5' },
    { ...detail(), id: 6, title: '已提交的問卷', designatedCode: 'D-6', feedbackStatus: 'SUBMITTED', submittedAt: '2025-03-05T02:00:00.000Z' },
  ];
  let navigate: NavigateFunction = () => undefined;
  function renderList(dataProvider: DataProvider, width: number) {
    Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
    return render(
      <TestMemoryRouter initialEntries={['/questionnaire-filling/list']} locationCallback={(l) => (location = l)} navigateCallback={(n) => (navigate = n)}>
        <AdminContext dataProvider={dataProvider} authProvider={authFor(['form-input.view'])} i18nProvider={i18nProvider} store={memoryStore()}>
          <Routes>
            <Route path="/questionnaire-filling/list" element={<QuestionnaireFillingList />} />
            <Route path="*" element={<div data-testid="elsewhere" />} />
          </Routes>
        </AdminContext>
      </TestMemoryRouter>,
    );
  }

  it('lists my questionnaires of the current school year as a table, and a row opens the detail or the view screen', async () => {
    const getList = vi.fn(async () => ({ data: rows, total: rows.length }));
    renderList(testDataProvider({ getList } as never), 1280);
    const table = await screen.findByTestId('list-filling');
    await within(table).findByText('進行中的問卷');
    expect(getList).toHaveBeenCalledWith('my/questionnaires', expect.objectContaining({ filter: { schoolYearId: 3 } }));
    expect(within(table).getAllByTestId('feedback-chip').map((c) => c.textContent)).toEqual(['未提交', '已提交']);
    expect(within(table).getAllByText('李老師')).toHaveLength(2);
    // my designated code, answered by the server, in its own column
    expect(within(table).getByRole('columnheader', { name: '指定編號' })).toBeTruthy();
    expect(within(table).getAllByTestId('designated-code').map((c) => c.textContent)).toEqual(['D-5', 'D-6']);
    fireEvent.click(within(table).getByText('已提交的問卷'));
    await waitFor(() => expect(`${location.pathname}${location.search}`).toBe('/questionnaire-filling/view?id=6'));
  });

  it('shows cards on a phone', async () => {
    const getList = vi.fn(async () => ({ data: rows, total: rows.length }));
    renderList(testDataProvider({ getList } as never), 360);
    const cards = await screen.findAllByTestId('filling-card');
    expect(cards).toHaveLength(2);
    expect(screen.queryByTestId('list-filling')).toBeNull();
    expect(within(cards[0]).getByText('指定編號：D-5')).toBeTruthy();
    expect(within(cards[1]).getByText('指定編號：D-6')).toBeTruthy();
    fireEvent.click(within(cards[0]).getByText('進行中的問卷'));
    await waitFor(() => expect(`${location.pathname}${location.search}`).toBe('/questionnaire-filling/detail?id=5'));
  });

  it('keeps its filters when I come back (kept alive)', async () => {
    const getList = vi.fn(async () => ({ data: rows, total: rows.length }));
    renderList(testDataProvider({ getList } as never), 1280);
    await screen.findByTestId('list-filling');
    fireEvent.mouseDown(screen.getByRole('combobox', { name: '我的狀態' }));
    fireEvent.click(await screen.findByRole('option', { name: '未提交' }));
    await waitFor(() => expect(getList).toHaveBeenLastCalledWith('my/questionnaires', expect.objectContaining({ filter: { schoolYearId: 3, feedbackStatus: 'NOT_SUBMITTED' } })));
    // elsewhere, then back to the list without any query
    await act(async () => navigate('/questionnaire-filling/view?id=5'));
    await screen.findByTestId('elsewhere');
    getList.mockClear();
    await act(async () => navigate('/questionnaire-filling/list'));
    await screen.findByTestId('list-filling');
    await waitFor(() => expect(getList).toHaveBeenCalled());
    expect(getList).toHaveBeenLastCalledWith('my/questionnaires', expect.objectContaining({ filter: { schoolYearId: 3, feedbackStatus: 'NOT_SUBMITTED' } }));
  });
});
