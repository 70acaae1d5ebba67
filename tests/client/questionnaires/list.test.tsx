import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Notification } from 'react-admin';
import { i18nProvider } from '../../../src/client/providers/i18nProvider';
import { QuestionnaireList } from '../../../src/client/questionnaires/list/QuestionnaireList';
import type { Questionnaire } from '../../../src/shared/questionnaire/types';
import { fakeData, fakeFetch, location, questionnaire, renderAt, type FetchCall } from './support';

const ROWS: Questionnaire[] = [
  questionnaire({ id: 1, title: '設計中的問卷', status: 'PREPARING', targets: [{ kind: 'ALL_TEACHERS' }] }),
  questionnaire({ id: 2, title: '未開始的問卷', status: 'NOT_OPEN', type: 'ANONYMOUS' }),
  questionnaire({ id: 3, title: '進行中的問卷', status: 'PROCESSING', submittedCount: 12, respondentCount: 30, lastNoticeTime: '2025-03-05T02:30:00.000Z' }),
  questionnaire({ id: 4, title: '已完結的問卷', status: 'FINISHED', submittedCount: 28, respondentCount: 30 }),
];

let calls: FetchCall[];
/** The layout's mobile mode starts below 1024 px (jsdom's own width): a wide screen unless a test says otherwise. */
const setWidth = (width: number) => Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });

beforeEach(async () => {
  await i18nProvider.changeLocale('zh-hk');
  setWidth(1280);
  calls = fakeFetch((call) => (call.path.endsWith('/notice') ? { sent: 17, failed: 1 } : questionnaire()));
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const headers = () => [...document.querySelectorAll('thead th')].map((th) => th.textContent?.trim());
const row = (title: string) => screen.getByText(title).closest('tr') as HTMLElement;
const actionsOf = (title: string) => [...row(title).querySelectorAll('[data-testid^="row-"]')].map((b) => b.getAttribute('data-testid')!.slice(4));

describe('the questionnaire list', () => {
  it('shows the columns, status chips and types, and loads the current school year by default', async () => {
    const data = fakeData(ROWS);
    renderAt('/forms/list', <QuestionnaireList />, data);
    await screen.findByText('設計中的問卷');
    expect(headers()).toEqual(['標題', '負責人', '狀態', '類型', '開始日期', '結束日期', '建立日期', '最後通知時間', '已提交 / 應答人數', '操作']);
    expect(within(row('設計中的問卷')).getByText('設計中')).toBeTruthy();
    expect(within(row('未開始的問卷')).getByText('未開始')).toBeTruthy();
    expect(within(row('未開始的問卷')).getByText('不記名')).toBeTruthy();
    expect(within(row('進行中的問卷')).getByText('進行中')).toBeTruthy();
    expect(within(row('進行中的問卷')).getByText('12 / 30')).toBeTruthy();
    expect(within(row('已完結的問卷')).getByText('已完結')).toBeTruthy();
    expect(within(row('設計中的問卷')).getAllByText('李老師')).toHaveLength(1);
    expect(data.getList).toHaveBeenCalledWith('questionnaires', expect.objectContaining({ sort: { field: 'createDate', order: 'DESC' }, filter: { schoolYearId: 3 } }));
    expect(screen.getByPlaceholderText('按標題搜尋')).toBeTruthy();
    expect(screen.getByTestId('questionnaire-add')).toBeTruthy();
  });

  it('offers per row the actions of its status', async () => {
    renderAt('/forms/list', <QuestionnaireList />, fakeData(ROWS));
    await screen.findByText('設計中的問卷');
    await waitFor(() => expect(actionsOf('設計中的問卷')).toContain('delete'));
    expect(actionsOf('設計中的問卷')).toEqual(['editDetails', 'editForm', 'ready', 'copy', 'delete']);
    expect(actionsOf('未開始的問卷')).toEqual(['editDetails', 'cancelReady', 'copy', 'delete']);
    expect(actionsOf('進行中的問卷')).toEqual(['editDetails', 'close', 'extend', 'notice', 'copy']);
    expect(actionsOf('已完結的問卷')).toEqual(['copy']);
  });

  it('follows the permissions and the server’s mayEdit', async () => {
    const rows = [...ROWS.slice(0, 3), questionnaire({ id: 5, title: '別人的問卷', mayEdit: false, inChargeId: 99 })];
    renderAt('/forms/list', <QuestionnaireList />, fakeData(rows), ['form.view']);
    await screen.findByText('設計中的問卷');
    expect(screen.queryByTestId('questionnaire-add')).toBeNull();
    expect(document.querySelectorAll('[data-testid^="row-"]')).toHaveLength(0);
    cleanup();
    renderAt('/forms/list', <QuestionnaireList />, fakeData(rows), ['form.view', 'form.edit']);
    await screen.findByText('設計中的問卷');
    await waitFor(() => expect(actionsOf('設計中的問卷')).toEqual(['editDetails', 'editForm', 'ready']));
    expect(actionsOf('別人的問卷')).toEqual([]);
  });

  it('scope "all" only for those who hold form.management', async () => {
    renderAt('/forms/list', <QuestionnaireList />, fakeData(ROWS), ['form.view']);
    await screen.findByText('設計中的問卷');
    fireEvent.mouseDown(screen.getByRole('combobox', { name: '範圍' }));
    expect(await screen.findByRole('option', { name: '我負責的' })).toBeTruthy();
    expect(screen.getByRole('option', { name: '我協助的' })).toBeTruthy();
    expect(screen.queryByRole('option', { name: '全部' })).toBeNull();
    cleanup();
    renderAt('/forms/list', <QuestionnaireList />, fakeData(ROWS));
    await screen.findByText('設計中的問卷');
    await waitFor(() => {
      fireEvent.mouseDown(screen.getByRole('combobox', { name: '範圍' }));
      expect(screen.getByRole('option', { name: '全部' })).toBeTruthy();
    });
  });

  it('is cards on a phone: title, status and type, the person in charge, dates and progress; a card opens the view screen', async () => {
    setWidth(360);
    renderAt('/forms/list', <QuestionnaireList />, fakeData(ROWS));
    const cards = await screen.findAllByTestId('questionnaire-card');
    expect(cards).toHaveLength(4);
    expect(document.querySelector('table')).toBeNull();
    const running = cards[2];
    expect(within(running).getByRole('heading').textContent).toBe('進行中的問卷');
    expect(within(running).getByText('進行中')).toBeTruthy();
    expect(within(running).getByText(/^負責人：李老師$/)).toBeTruthy();
    expect(within(running).getByText('已提交 / 應答人數：12 / 30')).toBeTruthy();
    expect(within(cards[1]).getByText('不記名')).toBeTruthy();
    // nothing submitted to show before it opens
    expect(within(cards[0]).queryByText(/已提交/)).toBeNull();
    fireEvent.click(within(running).getByRole('button'));
    await waitFor(() => expect(location).toMatchObject({ pathname: '/forms/view', search: '?id=3' }));
  });

  it('a row opens the view screen; the edit icon the edit screen', async () => {
    renderAt('/forms/list', <QuestionnaireList />, fakeData(ROWS));
    fireEvent.click(await screen.findByText('進行中的問卷'));
    await waitFor(() => expect(location).toMatchObject({ pathname: '/forms/view', search: '?id=3' }));
  });

  it('design complete calls the API and refreshes; without target users it says so first', async () => {
    const data = fakeData(ROWS);
    renderAt('/forms/list', <QuestionnaireList />, data);
    await screen.findByText('設計中的問卷');
    const before = vi.mocked(data.getList).mock.calls.length;
    fireEvent.click(await within(row('設計中的問卷')).findByTestId('row-ready'));
    await waitFor(() => expect(calls.map((c) => `${c.method} ${c.path}`)).toContain('POST /v1/questionnaires/1/ready'));
    await waitFor(() => expect(vi.mocked(data.getList).mock.calls.length).toBeGreaterThan(before));
    expect(location.pathname).toBe('/forms/list');
  });

  it('close early and send notice ask first (the notice tells how many were sent); extend takes a later end date', async () => {
    renderAt(
      '/forms/list',
      <>
        <QuestionnaireList />
        <Notification />
      </>,
      fakeData(ROWS),
    );
    await screen.findByText('進行中的問卷');
    fireEvent.click(await within(row('進行中的問卷')).findByTestId('row-notice'));
    fireEvent.click(await screen.findByRole('button', { name: '發送通知' }));
    await waitFor(() => expect(calls.map((c) => `${c.method} ${c.path}`)).toContain('POST /v1/questionnaires/3/notice'));
    expect(await screen.findByText('通知已發送：成功 17 封，失敗 1 封')).toBeTruthy();

    await waitFor(() => expect(within(row('進行中的問卷')).getByTestId('row-close')).toHaveProperty('disabled', false));
    fireEvent.click(within(row('進行中的問卷')).getByTestId('row-close'));
    expect(await screen.findByText('確定現在結束此問卷？結束後將不能再回覆。')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '提前結束' }));
    await waitFor(() => expect(calls.map((c) => `${c.method} ${c.path}`)).toContain('POST /v1/questionnaires/3/close'));

    await waitFor(() => expect(within(row('進行中的問卷')).getByTestId('row-extend')).toHaveProperty('disabled', false));
    fireEvent.click(within(row('進行中的問卷')).getByTestId('row-extend'));
    const input = await screen.findByTestId('extend-date');
    fireEvent.change(input, { target: { value: '2020-01-01T10:00' } });
    fireEvent.click(screen.getByTestId('extend-submit'));
    expect(await screen.findByText('新的結束日期須遲於現在及目前的結束日期')).toBeTruthy();
    fireEvent.change(input, { target: { value: '2099-06-30T17:00' } });
    fireEvent.click(screen.getByTestId('extend-submit'));
    await waitFor(() => expect(calls.find((c) => c.path === '/v1/questionnaires/3/extend')?.body).toEqual({ endDate: '2099-06-30T09:00:00.000Z' }));
    expect(location.pathname).toBe('/forms/list');
  });

  it('delete asks first, then calls DELETE', async () => {
    renderAt('/forms/list', <QuestionnaireList />, fakeData(ROWS));
    await screen.findByText('未開始的問卷');
    fireEvent.click(await within(row('未開始的問卷')).findByTestId('row-delete'));
    expect(await screen.findByText('確定刪除此問卷？')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '刪除' }));
    await waitFor(() => expect(calls.map((c) => `${c.method} ${c.path}`)).toContain('DELETE /v1/questionnaires/2'));
  });
});
