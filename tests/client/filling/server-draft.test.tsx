import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { AdminContext, memoryStore, TestMemoryRouter, testDataProvider } from 'react-admin';
import { Route, Routes } from 'react-router-dom';
import { i18nProvider } from '../../../src/client/providers/i18nProvider';
import type { Definition } from '../../../src/shared/questionnaire/definition';
import { QuestionnaireFillingScreen } from '../../../src/client/filling/QuestionnaireFillingScreen';
import { draftKey } from '../../../src/client/filling/draft';
import type { MyQuestionnaireDetail } from '../../../src/client/filling/model';
import { authFor, fakeFetch, type FetchCall } from '../questionnaires/support';
import { questionnaireDetail } from './support';

const ME = 7; // the user id of support.authFor's identity
const DRAFT = '/v1/my/questionnaires/5/draft';

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
  ],
};

const detail = (over: Partial<MyQuestionnaireDetail> = {}): MyQuestionnaireDetail => questionnaireDetail(DEF, over);

function renderScreen() {
  return render(
    <TestMemoryRouter initialEntries={['/questionnaire-filling/detail?id=5']}>
      <AdminContext dataProvider={testDataProvider()} authProvider={authFor(['form-input.view'])} i18nProvider={i18nProvider} store={memoryStore()}>
        <Routes>
          <Route path="/questionnaire-filling/detail" element={<QuestionnaireFillingScreen type="detail" />} />
          <Route path="/questionnaire-filling/view" element={<QuestionnaireFillingScreen type="view" />} />
        </Routes>
      </AdminContext>
    </TestMemoryRouter>,
  );
}

/** A refusal of the server, as its envelope and status. */
interface Refusal {
  status: number;
  code: number;
  msg?: string;
  data?: unknown;
}

/**
 * A server holding the questionnaire and my draft on it (null: none); `failPut` answers the writes
 * with no connection, `refusePut` answers the n-th write (from 0) with its refusal, or takes it (null).
 */
function fakeServer(options: { type?: MyQuestionnaireDetail['type']; draft?: { answers: object; savedAt: string } | null; failPut?: boolean; refusePut?: (n: number) => Refusal | null } = {}) {
  let draft = options.draft ?? null;
  let n = 0;
  let puts = 0;
  const calls = fakeFetch((call: FetchCall) => {
    if (call.method === 'GET' && call.path === '/v1/my/questionnaires/5') return detail({ type: options.type ?? 'NAMED' });
    if (call.path === DRAFT) {
      if (call.method === 'GET') return draft;
      if (call.method === 'PUT') {
        if (options.failPut) throw new TypeError('Failed to fetch');
        const refusal = options.refusePut?.(puts++);
        if (refusal) return refusal;
        draft = { answers: (call.body as { answers: object }).answers, savedAt: `2025-03-05T02:0${n++}:00.000Z` };
        return { savedAt: draft.savedAt };
      }
      if (call.method === 'DELETE') {
        draft = null;
        return null;
      }
    }
    return { status: 404, code: 404, msg: 'no such call' };
  });
  return { calls, draftCalls: () => calls.filter((c) => c.path === DRAFT), draft: () => draft };
}

const card = (id: string) => screen.getByTestId(`question-${id}`);
const nameInput = () => within(card('name')).getByRole('textbox') as HTMLInputElement;
const state = () => screen.getByTestId('server-draft-state');
const localDraft = () => JSON.parse(localStorage.getItem(draftKey(ME, 5)) ?? 'null');

beforeEach(async () => {
  await i18nProvider.changeLocale('zh-hk');
  localStorage.clear();
  Element.prototype.scrollIntoView = vi.fn();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

// A named questionnaire's draft kept on the server too (docs/product-rules.md#states, src/client/filling/serverDraft.ts).
describe('the draft on the server', () => {
  it('writes the answers once after a pause in typing, and says when', async () => {
    const server = fakeServer();
    renderScreen();
    const input = await screen.findByRole('textbox', { name: '姓名' });
    await waitFor(() => expect(server.draftCalls().map((c) => c.method)).toEqual(['GET']));
    fireEvent.change(input, { target: { value: '陳' } });
    fireEvent.change(input, { target: { value: '陳大' } });
    fireEvent.change(input, { target: { value: '陳大文' } });
    fireEvent.click(within(card('pick')).getByLabelText('乙'));
    await waitFor(() => expect(state().dataset.state).toBe('saved'), { timeout: 4000 });
    const puts = server.draftCalls().filter((c) => c.method === 'PUT');
    expect(puts).toHaveLength(1);
    expect(puts[0].body).toEqual({ answers: { name: '陳大文', pick: { choice: 'o2' } } });
    // 02:00 UTC is 10:00 on the school's clock (Hong Kong), whatever this machine's zone
    expect(state().textContent).toBe('已儲存 10:00：可在其他裝置繼續填寫。');
    // the local draft knows the server's version it matches
    expect(localDraft()).toMatchObject({ answers: { name: '陳大文', pick: { choice: 'o2' } }, serverSavedAt: '2025-03-05T02:00:00.000Z' });
    expect(screen.getByTestId('draft-note').textContent).toContain('保存在此裝置');
  });

  it('no longer says saved while a later change waits to be written, then says it again', async () => {
    const server = fakeServer();
    renderScreen();
    const input = await screen.findByRole('textbox', { name: '姓名' });
    await waitFor(() => expect(server.draftCalls().map((c) => c.method)).toEqual(['GET']));
    fireEvent.change(input, { target: { value: '陳大文' } });
    await waitFor(() => expect(state().dataset.state).toBe('saved'), { timeout: 4000 });
    fireEvent.click(within(card('pick')).getByLabelText('乙'));
    expect(state().dataset.state).not.toBe('saved');
    expect(state().textContent).toBe('');
    await waitFor(() => expect(state().dataset.state).toBe('saved'), { timeout: 4000 });
    const puts = server.draftCalls().filter((c) => c.method === 'PUT');
    expect(puts.map((p) => p.body)).toEqual([{ answers: { name: '陳大文' } }, { answers: { name: '陳大文', pick: { choice: 'o2' } } }]);
  });

  it('offers a draft from another device when this one has none, and continues it', async () => {
    fakeServer({ draft: { answers: { name: '李小明', pick: { choice: 'o1' } }, savedAt: '2025-03-04T10:30:00.000Z' } });
    renderScreen();
    const dialog = await screen.findByTestId('draft-offer');
    expect(within(dialog).getByText(/你有於 2025-03-04 \d\d:30 儲存的答案（在另一部裝置）。/)).toBeTruthy();
    // the keyboard lands on Continue
    expect(document.activeElement).toBe(within(dialog).getByTestId('draft-continue'));
    fireEvent.click(within(dialog).getByRole('button', { name: '繼續填寫' }));
    await waitFor(() => expect(screen.queryByTestId('draft-offer')).toBeNull());
    expect(nameInput().value).toBe('李小明');
    expect((within(card('pick')).getByLabelText('甲') as HTMLInputElement).checked).toBe(true);
    expect(state().dataset.state).toBe('saved');
    expect(localDraft()).toMatchObject({ answers: { name: '李小明', pick: { choice: 'o1' } }, serverSavedAt: '2025-03-04T10:30:00.000Z' });
  });

  it('starts again: the server draft deleted, the answers empty', async () => {
    localStorage.setItem(draftKey(ME, 5), JSON.stringify({ answers: { name: '舊答案' }, savedAt: '2025-03-01T00:00:00.000Z' }));
    const server = fakeServer({ draft: { answers: { name: '李小明' }, savedAt: '2025-03-04T10:30:00.000Z' } });
    renderScreen();
    const dialog = await screen.findByTestId('draft-offer');
    fireEvent.click(within(dialog).getByRole('button', { name: '重新開始' }));
    await waitFor(() => expect(server.draft()).toBeNull());
    await waitFor(() => expect(screen.queryByTestId('draft-offer')).toBeNull());
    expect(server.draftCalls().map((c) => c.method)).toEqual(['GET', 'DELETE']);
    expect(nameInput().value).toBe('');
    expect(localDraft()).toBeNull();
  });

  it('offers nothing when this device holds the newer answers, and sends them over the server’s', async () => {
    // this device saw the server's version, then went on offline
    localStorage.setItem(draftKey(ME, 5), JSON.stringify({ answers: { name: '陳大文，離線時改' }, savedAt: '2025-03-04T11:00:00.000Z', serverSavedAt: '2025-03-04T10:30:00.000Z' }));
    const server = fakeServer({ draft: { answers: { name: '陳大文' }, savedAt: '2025-03-04T10:30:00.000Z' } });
    renderScreen();
    await waitFor(() => expect(server.draftCalls().map((c) => c.method)).toEqual(['GET', 'PUT']));
    expect(screen.queryByTestId('draft-offer')).toBeNull();
    expect(server.draft()?.answers).toEqual({ name: '陳大文，離線時改' });
    expect(nameInput().value).toBe('陳大文，離線時改');
  });

  it('says so when the server cannot be reached, and keeps the answers on this device', async () => {
    fakeServer({ failPut: true });
    renderScreen();
    fireEvent.change(await screen.findByRole('textbox', { name: '姓名' }), { target: { value: '陳大文' } });
    await waitFor(() => expect(state().dataset.state).toBe('failed'), { timeout: 4000 });
    expect(state().textContent).toBe('未能儲存到伺服器（可能已離線）。你的答案仍保存在此裝置，稍後會再傳送。');
    expect(localDraft().answers).toEqual({ name: '陳大文' });
  });

  // the server's bounds (docs/security.md#drafts-are-bounded): said, never in the way, the answers kept
  it('says a save refused as too large, keeps the answers, and sends them again with the next change', async () => {
    const server = fakeServer({ refusePut: (n) => (n === 0 ? { status: 413, code: 406, msg: '答案太大' } : null) });
    renderScreen();
    const input = await screen.findByRole('textbox', { name: '姓名' });
    fireEvent.change(input, { target: { value: '陳大文' } });
    await waitFor(() => expect(state().dataset.state).toBe('refused'), { timeout: 4000 });
    expect(state().dataset.why).toBe('tooLarge');
    expect(state().textContent).toBe('未能儲存到伺服器：答案太大。你的答案仍保存在此裝置，下次修改時會再傳送。');
    expect(nameInput().value).toBe('陳大文');
    expect(localDraft().answers).toEqual({ name: '陳大文' });
    // the screen goes on: the next change is sent, and taken
    fireEvent.change(input, { target: { value: '陳大' } });
    await waitFor(() => expect(state().dataset.state).toBe('saved'), { timeout: 4000 });
    expect(server.draftCalls().filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([{ answers: { name: '陳大文' } }, { answers: { name: '陳大' } }]);
  });

  it('says a save refused for answers that do not fit the questionnaire, keeping them', async () => {
    fakeServer({ refusePut: () => ({ status: 422, code: 422, msg: 'This field is not accepted', data: { 'answers.ghost': 'This field is not accepted' } }) });
    renderScreen();
    fireEvent.change(await screen.findByRole('textbox', { name: '姓名' }), { target: { value: '陳大文' } });
    await waitFor(() => expect(state().dataset.why).toBe('notFitting'), { timeout: 4000 });
    expect(state().textContent).toBe('未能儲存到伺服器：部分答案不屬於此問卷。你的答案仍保存在此裝置。');
    expect(nameInput().value).toBe('陳大文');
    expect(localDraft().answers).toEqual({ name: '陳大文' });
  });

  it('says in the reader’s language that saves were too often, and saves again by itself once the server’s wait is over', async () => {
    await i18nProvider.changeLocale('en');
    const server = fakeServer({ refusePut: (n) => (n === 0 ? { status: 429, code: 20000, msg: 'Answers were saved too often', data: { retryAfter: 1 } } : null) });
    renderScreen();
    const input = await screen.findByRole('textbox', { name: '姓名' });
    fireEvent.change(input, { target: { value: 'Chan Tai Man' } });
    await waitFor(() => expect(state().dataset.why).toBe('tooOften'), { timeout: 4000 });
    expect(state().textContent).toBe('Saving paused for a moment: answers were saved too often. They are still kept on this device and will be saved again shortly by themselves.');
    expect(localDraft().answers).toEqual({ name: 'Chan Tai Man' });
    const refusedAt = Date.now();
    // no change meanwhile: the screen sends the same answers again after the second the server gave
    await waitFor(() => expect(state().dataset.state).toBe('saved'), { timeout: 4000 });
    const puts = server.draftCalls().filter((c) => c.method === 'PUT');
    expect(puts.map((c) => c.body)).toEqual([{ answers: { name: 'Chan Tai Man' } }, { answers: { name: 'Chan Tai Man' } }]);
    expect(Date.now() - refusedAt).toBeGreaterThanOrEqual(900);
    expect(nameInput().value).toBe('Chan Tai Man');
  });

  it('never calls the draft routes for an anonymous questionnaire, and says the answers stay on this device', async () => {
    const server = fakeServer({ type: 'ANONYMOUS' });
    renderScreen();
    fireEvent.change(await screen.findByRole('textbox', { name: '姓名' }), { target: { value: '陳大文' } });
    expect(screen.getByTestId('draft-device-only').textContent).toBe('此問卷不記名：你的答案只會保存在此裝置，不會保存在伺服器。');
    expect(screen.queryByTestId('server-draft-state')).toBeNull();
    await new Promise((r) => setTimeout(r, 2000));
    expect(server.draftCalls()).toEqual([]);
    expect(localDraft().answers).toEqual({ name: '陳大文' });
  });
});
