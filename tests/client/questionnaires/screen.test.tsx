import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HttpError } from 'react-admin';
import { i18nProvider } from '../../../src/client/providers/i18nProvider';
import { QuestionnaireScreen } from '../../../src/client/questionnaires/form/QuestionnaireScreen';
import { fakeData, fakeFetch, location, questionnaire, renderAt, type FetchCall } from './support';

const CLASS_1A = { id: 3, code: '1A', nameHk: '一年甲班', nameEn: 'Class 1A', count: 30 };
const STUDENT = { id: 41, code: 'S1001', nameHk: '陳大文', nameEn: 'Chan Tai Man', count: 1 };

/** The server's side: pickers, and counts in which a student of 1A is counted once. */
function server(call: FetchCall): unknown {
  if (call.path === '/v1/audience-options') {
    const kind = call.query.get('kind');
    if (kind === 'CLASS') return { list: [CLASS_1A], total: 1 };
    if (kind === 'STUDENT') return { list: [STUDENT], total: 1 };
    return { list: [], total: 0 };
  }
  if (call.path === '/v1/staff-options') return { list: [{ id: 12, code: 'T12', nameHk: '黃老師', nameEn: 'Wong' }], total: 1 };
  if (call.path === '/v1/questionnaires/audience-count') {
    const targets = (call.body as { targets: { kind: string; ids?: number[] }[] }).targets;
    const counts = targets.map((t) => (t.kind === 'ALL_TEACHERS' ? 52 : t.kind === 'CLASS' ? 30 : (t.ids?.length ?? 0)));
    // the student is in 1A: the total counts them once
    const total = counts.reduce((a, b) => a + b, 0) - (targets.some((t) => t.kind === 'CLASS') && targets.some((t) => t.kind === 'USERS') ? 1 : 0);
    return { targets: targets.map((t, i) => ({ ...t, count: counts[i] })), total };
  }
  return null;
}

let calls: FetchCall[];
beforeEach(async () => {
  await i18nProvider.changeLocale('zh-hk');
  calls = fakeFetch(server);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const countCalls = () => calls.filter((c) => c.path === '/v1/questionnaires/audience-count');
const total = () => screen.getByTestId('audience-total').textContent;

async function pick(kind: string, search: string, optionName: RegExp) {
  fireEvent.change(screen.getByTestId('target-kind'), { target: { value: kind } });
  const input = await screen.findByTestId('target-options');
  fireEvent.focus(input);
  fireEvent.mouseDown(input);
  fireEvent.change(input, { target: { value: search } });
  fireEvent.click(await screen.findByRole('option', { name: optionName }));
  fireEvent.click(screen.getByTestId('target-add'));
}

describe('the questionnaire form screen', () => {
  it('shows the labels of the spec and, in PREPARING, the buttons save and edit form, only save, design complete, edit questionnaire', async () => {
    const record = questionnaire({ lastNoticeTime: '2025-03-05T02:30:00.000Z', assistantIds: [12] });
    renderAt('/forms/edit?id=1', <QuestionnaireScreen type="edit" />, fakeData([record]));
    await waitFor(() => expect(screen.getByRole('textbox', { name: /標題/ })).toHaveProperty('value', '家長日意見調查'));
    for (const label of ['負責人', '建立日期', '最後通知時間', '狀態', '類型', '記名', '不記名', '開始日期', '結束日期', '協助者', '目標對象']) {
      expect(screen.getAllByText(new RegExp(label)).length, label).toBeGreaterThan(0);
    }
    expect(within(screen.getByTestId('info-inCharge')).getByText('李老師')).toBeTruthy();
    expect(within(screen.getByTestId('info-createDate')).getByText('2025-02-20')).toBeTruthy();
    expect(within(screen.getByTestId('info-status')).getByText('設計中')).toBeTruthy();
    // the assistant's name is looked up by id
    expect(await screen.findByText('黃老師 (T12)')).toBeTruthy();
    expect(screen.getByTestId('q-saveAndEdit').textContent).toBe('儲存並編輯問卷');
    expect(screen.getByTestId('q-save').textContent).toBe('只儲存');
    expect(screen.getByTestId('q-ready').textContent).toBe('設計完成');
    expect(screen.getByTestId('q-editForm').textContent).toBe('編輯問卷');
    expect(screen.queryByTestId('q-cancelReady')).toBeNull();
  });

  it('NOT_OPEN offers cancel ready, not design complete; the audience can no longer change', async () => {
    const record = questionnaire({ status: 'NOT_OPEN', targets: [{ kind: 'ALL_TEACHERS' }] });
    renderAt('/forms/edit?id=1', <QuestionnaireScreen type="edit" />, fakeData([record]));
    expect((await screen.findByTestId('q-cancelReady')).textContent).toBe('取消完成');
    expect(screen.queryByTestId('q-ready')).toBeNull();
    expect(screen.queryByTestId('q-saveAndEdit')).toBeNull();
    expect(screen.queryByTestId('target-adder')).toBeNull();
  });

  it('the target picker shows each choice with its count and the total without duplicates, as the server counts them', async () => {
    renderAt('/forms/edit?id=1', <QuestionnaireScreen type="edit" />, fakeData([questionnaire()]));
    await screen.findByTestId('target-adder');
    expect(screen.getByText('尚未選擇目標對象')).toBeTruthy();
    expect(total()).toBe('合共 0 人（重複者只計一次）');

    await pick('CLASS', '1A', /一年甲班 \(1A\) · 30 人/);
    expect(await screen.findByText('班別：一年甲班 (1A) · 30 人')).toBeTruthy();
    await waitFor(() => expect(total()).toBe('合共 30 人（重複者只計一次）'));
    expect(countCalls().at(-1)!.body).toEqual({ targets: [{ kind: 'CLASS', ids: [3] }], schoolYearId: 3 });
    expect(calls.find((c) => c.path === '/v1/audience-options')!.query.get('q')).toBe('1A');

    // a student of 1A chosen as well: 31 chosen, 30 people
    await pick('STUDENT', '陳', /陳大文/);
    expect(await screen.findByText('指定人士：陳大文 (S1001) · 1 人')).toBeTruthy();
    await waitFor(() => expect(countCalls()).toHaveLength(2));
    expect(countCalls()[1].body).toEqual({ targets: [{ kind: 'CLASS', ids: [3] }, { kind: 'USERS', ids: [41] }], schoolYearId: 3 });
    await waitFor(() => expect(total()).toBe('合共 30 人（重複者只計一次）'));

    // all teachers: its count comes from the server's answer
    fireEvent.change(screen.getByTestId('target-kind'), { target: { value: 'ALL_TEACHERS' } });
    fireEvent.click(screen.getByTestId('target-add'));
    expect(await screen.findByText('全體教師 · 52 人')).toBeTruthy();
    await waitFor(() => expect(total()).toBe('合共 82 人（重複者只計一次）'));
    // a second "all teachers" is not offered
    expect(screen.getByTestId('target-add')).toHaveProperty('disabled', true);

    // removing the class: the student is counted alone
    const chip = screen.getByText('班別：一年甲班 (1A) · 30 人').closest('.MuiChip-root') as HTMLElement;
    fireEvent.click(within(chip).getByTestId('CancelIcon'));
    await waitFor(() => expect(total()).toBe('合共 53 人（重複者只計一次）'));
  });

  it('design complete without target users says "please select target users" and calls nothing', async () => {
    renderAt('/forms/edit?id=1', <QuestionnaireScreen type="edit" />, fakeData([questionnaire()]));
    fireEvent.click(await screen.findByTestId('q-ready'));
    expect(await screen.findByText('請選擇目標對象')).toBeTruthy();
    expect(calls.some((c) => c.path.endsWith('/ready'))).toBe(false);
  });

  it('design complete with target users saves what changed, then marks it ready', async () => {
    const data = fakeData([questionnaire({ targets: [{ kind: 'ALL_STUDENTS' }] })]);
    renderAt('/forms/edit?id=1', <QuestionnaireScreen type="edit" />, data);
    const title = await screen.findByRole('textbox', { name: /標題/ });
    await waitFor(() => expect(title).toHaveProperty('value', '家長日意見調查'));
    fireEvent.change(title, { target: { value: '家長日問卷' } });
    fireEvent.click(screen.getByTestId('q-ready'));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/v1/questionnaires/1/ready')).toBe(true));
    expect(vi.mocked(data.update).mock.calls[0][1].data).toEqual({ title: '家長日問卷' });
  });

  it('save and edit form saves only the changed fields and opens the designer', async () => {
    const data = fakeData([questionnaire()]);
    renderAt('/forms/edit?id=1', <QuestionnaireScreen type="edit" />, data);
    const title = await screen.findByRole('textbox', { name: /標題/ });
    await waitFor(() => expect(title).toHaveProperty('value', '家長日意見調查'));
    fireEvent.change(title, { target: { value: '新標題' } });
    fireEvent.click(screen.getByRole('radio', { name: '不記名' }));
    fireEvent.click(screen.getByTestId('q-saveAndEdit'));
    await waitFor(() => expect(location).toMatchObject({ pathname: '/forms/doc', search: '?id=1' }));
    expect(vi.mocked(data.update).mock.calls[0][1]).toMatchObject({ id: 1, data: { title: '新標題', type: 'ANONYMOUS' } });
  });

  it('the end date may not be before the open date', async () => {
    renderAt('/forms/edit?id=1', <QuestionnaireScreen type="edit" />, fakeData([questionnaire()]));
    const end = await screen.findByLabelText('結束日期');
    fireEvent.change(end, { target: { value: '2025-02-01T10:00' } });
    fireEvent.blur(end);
    expect(await screen.findByText('開始日期不可遲於結束日期')).toBeTruthy();
  });

  it('the server’s 422 field errors land on their fields', async () => {
    const update = vi.fn(async () => {
      throw new HttpError('驗證失敗', 422, { code: 422, errors: { title: '標題已被使用' } });
    });
    renderAt('/forms/edit?id=1', <QuestionnaireScreen type="edit" />, fakeData([questionnaire()], { update: update as never }));
    const title = await screen.findByRole('textbox', { name: /標題/ });
    await waitFor(() => expect(title).toHaveProperty('value', '家長日意見調查'));
    fireEvent.change(title, { target: { value: '重複' } });
    fireEvent.click(screen.getByTestId('q-save'));
    expect(await screen.findByText('標題已被使用')).toBeTruthy();
    expect(location.pathname).toBe('/forms/edit');
  });

  it('warns before leaving with unsaved changes', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    renderAt('/forms/edit?id=1', <QuestionnaireScreen type="edit" />, fakeData([questionnaire()]));
    const title = await screen.findByRole('textbox', { name: /標題/ });
    await waitFor(() => expect(title).toHaveProperty('value', '家長日意見調查'));
    fireEvent.change(title, { target: { value: '未儲存' } });
    fireEvent.click(screen.getByRole('button', { name: '返回列表' }));
    await waitFor(() => expect(confirm).toHaveBeenCalled());
    expect(location.pathname).toBe('/forms/edit');
    confirm.mockRestore();
  });

  it('add: POSTs every field; only save returns to the list', async () => {
    const data = fakeData([]);
    renderAt('/forms/add', <QuestionnaireScreen type="add" />, data);
    const title = await screen.findByRole('textbox', { name: /標題/ });
    expect(screen.queryByTestId('q-ready')).toBeNull();
    expect(await screen.findByText('李老師')).toBeTruthy();
    fireEvent.change(title, { target: { value: '新問卷' } });
    fireEvent.click(screen.getByTestId('q-save'));
    await waitFor(() => expect(data.create).toHaveBeenCalled());
    expect(vi.mocked(data.create).mock.calls[0][1].data).toEqual({ title: '新問卷', type: 'NAMED', openDate: null, endDate: null, assistantIds: [], targets: [] });
    await waitFor(() => expect(location.pathname).toBe('/forms/list'));
  });

  it('add without a Google account (710): the server’s message and how to link one', async () => {
    const create = vi.fn(async () => {
      throw new HttpError('須先設定 Google 帳戶才可建立問卷', 400, { code: 710 });
    });
    renderAt('/forms/add', <QuestionnaireScreen type="add" />, fakeData([], { create: create as never }));
    fireEvent.change(await screen.findByRole('textbox', { name: /標題/ }), { target: { value: '新問卷' } });
    fireEvent.click(screen.getByTestId('q-save'));
    const alert = await screen.findByTestId('google-required');
    expect(alert.textContent).toContain('須先設定 Google 帳戶才可建立問卷');
    expect(alert.textContent).toContain('Google 按鈕');
    expect(location.pathname).toBe('/forms/add');
  });

  it('view: read-only, with the status’s actions and an edit button', async () => {
    renderAt('/forms/view?id=1', <QuestionnaireScreen type="view" />, fakeData([questionnaire({ targets: [{ kind: 'ALL_TEACHERS' }] })]));
    const title = await screen.findByRole('textbox', { name: /標題/ });
    await waitFor(() => expect(title).toHaveProperty('value', '家長日意見調查'));
    expect(title).toHaveProperty('disabled', true);
    expect(screen.queryByTestId('form-buttons')).toBeNull();
    expect(screen.queryByTestId('target-adder')).toBeNull();
    expect(await screen.findByText('全體教師 · 52 人')).toBeTruthy();
    expect((await screen.findByTestId('action-ready')).textContent).toBe('設計完成');
    expect(screen.getByTestId('action-editForm').textContent).toBe('編輯問卷');
    fireEvent.click(screen.getByTestId('action-editDetails'));
    await waitFor(() => expect(location).toMatchObject({ pathname: '/forms/edit', search: '?id=1' }));
  });

  it('shows English when the language is English', async () => {
    await act(() => i18nProvider.changeLocale('en'));
    renderAt('/forms/view?id=1', <QuestionnaireScreen type="view" />, fakeData([questionnaire({ inCharge: { id: 7, nameHk: '李老師', nameEn: 'Lee' } })]));
    expect(await screen.findByText('Lee')).toBeTruthy();
    for (const label of ['Person in charge', 'Creation date', 'Last notice time', 'Target users', 'Assistants']) expect(screen.getAllByText(new RegExp(label)).length, label).toBeGreaterThan(0);
  });
});
