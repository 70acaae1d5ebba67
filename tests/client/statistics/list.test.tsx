import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { i18nProvider } from '../../../src/client/providers/i18nProvider';
import { StatisticsList } from '../../../src/client/statistics';
import { fakeFetch, location, renderAt, row, setWidth, VIEW, type FetchCall } from './support';

const ROWS = [
  row({ id: 5, title: '家長日意見調查', submittedNum: 12, respondentNum: 30, responseRate: 40 }),
  row({ id: 6, title: '教師問卷', status: 'FINISHED', submittedNum: 2, respondentNum: 3, responseRate: 66.7, principal: { id: 8, nameHk: '張主任', nameEn: 'Cheung' } }),
  row({ id: 7, title: '沒有對象的問卷', submittedNum: 0, respondentNum: 0, responseRate: null }),
];

let calls: FetchCall[];
let rows = ROWS;
beforeEach(async () => {
  await i18nProvider.changeLocale('zh-hk');
  rows = ROWS;
  calls = fakeFetch((call) => {
    const q = call.query.get('q');
    const list = q ? rows.filter((r) => r.title.includes(q)) : rows;
    return { list, total: list.length };
  });
  setWidth(1280);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const headers = () => [...document.querySelectorAll('thead th')].map((th) => th.textContent?.trim());
const rowOf = (title: string) => screen.getByText(title).closest('tr') as HTMLElement;
const cells = (title: string) => [...rowOf(title).querySelectorAll('td')].map((td) => td.textContent?.trim());
const listCalls = () => calls.filter((c) => c.path === '/v1/statistics');

describe('the statistics list', () => {
  it('shows the spec’s columns with the response rate, for the current school year, newest first', async () => {
    renderAt('/data-statistics/list', <StatisticsList />, VIEW);
    await screen.findByText('家長日意見調查');
    expect(headers()).toEqual(['學年', '負責人', '狀態', '問卷標題', '建立日期', '已提交人數', '應答人數', '回覆率']);
    expect(cells('家長日意見調查')).toEqual(['2024-2025', '李老師', '進行中', '家長日意見調查', '2025-02-20', '12', '30', '40%']);
    expect(cells('教師問卷')).toEqual(['2024-2025', '張主任', '已完結', '教師問卷', '2025-02-20', '2', '3', '66.7%']);
    expect(cells('沒有對象的問卷').at(-1)).toBe('—');
    const first = listCalls()[0].query;
    expect(Object.fromEntries(first)).toMatchObject({ page: '1', size: '20', sort: 'createDate', order: 'desc', schoolYearId: '3' });
  });

  it('names follow the language', async () => {
    await i18nProvider.changeLocale('en');
    renderAt('/data-statistics/list', <StatisticsList />, VIEW);
    await screen.findByText('教師問卷');
    expect(within(rowOf('教師問卷')).getByText('Cheung')).toBeTruthy();
    expect(headers()).toContain('Response rate');
  });

  it('searches by title and filters by status', async () => {
    renderAt('/data-statistics/list', <StatisticsList />, VIEW);
    await screen.findByText('教師問卷');
    fireEvent.change(screen.getByPlaceholderText('按標題搜尋'), { target: { value: '教師' } });
    await waitFor(() => expect(screen.queryByText('家長日意見調查')).toBeNull());
    expect(listCalls().at(-1)!.query.get('q')).toBe('教師');
    fireEvent.mouseDown(screen.getByRole('combobox', { name: '狀態' }));
    // statistics exist only from PROCESSING on
    expect(screen.queryByRole('option', { name: '設計中' })).toBeNull();
    fireEvent.click(await screen.findByRole('option', { name: '已完結' }));
    await waitFor(() => expect(listCalls().at(-1)!.query.get('status')).toBe('FINISHED'));
  });

  it('a row opens the detail', async () => {
    renderAt('/data-statistics/list', <StatisticsList />, VIEW);
    fireEvent.click(await screen.findByText('教師問卷'));
    await waitFor(() => expect(location).toMatchObject({ pathname: '/data-statistics/detail', search: '?id=6' }));
  });

  it('says when there is nothing', async () => {
    rows = [];
    renderAt('/data-statistics/list', <StatisticsList />, VIEW);
    expect(await screen.findByText('暫時沒有可供統計的問卷。問卷開始後便會有統計數據。')).toBeTruthy();
  });

  it('shows cards on a phone', async () => {
    setWidth(360);
    renderAt('/data-statistics/list', <StatisticsList />, VIEW);
    const cards = await screen.findAllByTestId('statistics-card');
    expect(cards).toHaveLength(3);
    expect(within(cards[0]).getByText('回覆率 40%（12 / 30）')).toBeTruthy();
    fireEvent.click(within(cards[1]).getByText('教師問卷'));
    await waitFor(() => expect(location).toMatchObject({ pathname: '/data-statistics/detail', search: '?id=6' }));
  });
});
