import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { AdminContext, memoryStore, Notification, TestMemoryRouter, testDataProvider, type AuthProvider } from 'react-admin';
import { Dashboard } from '../../../src/client/dashboard/Dashboard';
import { i18nProvider } from '../../../src/client/providers/i18nProvider';
import type { UserInfo } from '../../../src/client/providers/authProvider';
import type { Dashboard as DashboardData } from '../../../src/shared/dashboard';
import { fakeFetch, type FetchCall } from '../questionnaires/support';

// The home screen's role cards from one GET /v1/my/dashboard, answered by a fake
// fetch (the HTTP layer only): the cards' order, the Hong Kong end dates, the response rates,
// the empty states and the "send notice" button, in both languages.

function userInfo(over: Partial<UserInfo> = {}): UserInfo {
  return {
    userId: 7,
    userNo: 'T01',
    username: 'teacher01',
    nameHk: '李老師',
    nameEn: 'Lee',
    avatar: null,
    email: null,
    googleMail: null,
    identityCardId: null,
    identityCardType: null,
    tel: null,
    gender: null,
    birthday: null,
    active: true,
    staff_id: 7,
    personalDataStatus: null,
    userType: 'TEACHER',
    loginTime: '2026-11-26T01:00:00.000Z',
    // 2026-11-25 23:05 in Hong Kong: the day after the UTC one
    lastLogin: '2026-11-25T15:05:00.000Z',
    status: '1',
    permissions: [],
    years: [],
    terms: [],
    currentYear: { id: 3, name: '2026-2027', beginDate: '2026-09-01', endDate: '2027-08-31', yearStatus: '1' },
    currentTerm: null,
    timeZone: 'Asia/Hong_Kong',
    ...over,
  };
}

const auth = (info: UserInfo): AuthProvider => ({
  login: async () => undefined,
  logout: async () => undefined,
  checkAuth: async () => undefined,
  checkError: async () => undefined,
  getPermissions: async () => [],
  getIdentity: async () => ({ ...info, id: info.userId, fullName: info.nameHk, avatar: undefined }),
  canAccess: async () => true,
});

/** In the server's order: soonest end first (UTC times whose Hong Kong day or hour differs), no end date last. */
const TO_ANSWER: DashboardData['toAnswer'] = {
  total: 12,
  list: [
    { id: 31, title: '午膳意見調查', titleTranslation: 'Lunch survey', languages: ['zh-hk', 'en'], type: 'NAMED', endDate: '2026-11-30T09:00:00.000Z' },
    { id: 12, title: '課外活動問卷', titleTranslation: null, languages: ['zh-hk'], type: 'ANONYMOUS', endDate: '2026-12-01T16:30:00.000Z' },
    { id: 20, title: '圖書館使用調查', titleTranslation: null, languages: ['zh-hk'], type: 'NAMED', endDate: null },
  ],
};

const RUNNING: DashboardData['running'] = {
  total: 2,
  list: [
    { id: 41, title: '家長日意見調查', titleTranslation: 'Parents day survey', languages: ['zh-hk', 'en'], type: 'NAMED', endDate: '2026-12-05T04:00:00.000Z', respondents: 30, submitted: 12, mayRemind: true },
    { id: 42, title: '教師工作量問卷', titleTranslation: null, languages: ['zh-hk'], type: 'ANONYMOUS', endDate: null, respondents: 3, submitted: 1, mayRemind: false },
  ],
};

const SCHOOL: DashboardData['school'] = {
  openQuestionnaires: 4,
  respondents: 200,
  submitted: 150,
  imports: [
    { id: 2, resource: 'students', status: 'done', rows: 40, added: 30, updated: 8, skipped: 2, createdAt: '2026-11-20T02:15:00.000Z', finishedAt: '2026-11-20T02:16:00.000Z' },
    { id: 1, resource: 'teachers', status: 'failed', rows: 5, added: 0, updated: 0, skipped: 0, createdAt: '2026-11-19T17:00:00.000Z', finishedAt: '2026-11-19T17:00:05.000Z' },
  ],
};

let calls: FetchCall[] = [];

function renderHome(data: DashboardData | ((call: FetchCall) => unknown), info = userInfo()) {
  calls = fakeFetch((call) => (typeof data === 'function' ? data(call) : call.path === '/v1/my/dashboard' ? data : null));
  return render(
    <TestMemoryRouter initialEntries={['/dashboard']}>
      <AdminContext dataProvider={testDataProvider()} authProvider={auth(info)} i18nProvider={i18nProvider} store={memoryStore()}>
        <Dashboard />
        <Notification />
      </AdminContext>
    </TestMemoryRouter>,
  );
}

const cardIds = () => [...screen.getByTestId('dashboard-cards').querySelectorAll('[data-testid^="dashboard-"]')].map((e) => e.getAttribute('data-testid'));
const texts = (testId: string, inside: HTMLElement = document.body) => within(inside).getAllByTestId(testId).map((e) => e.textContent);

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('home screen cards (zh-hk)', () => {
  beforeEach(async () => {
    await i18nProvider.changeLocale('zh-hk');
  });

  it('a student: to-answer first, in the given order, Hong Kong end dates, links to the answer screen and "see all"', async () => {
    renderHome({ toAnswer: TO_ANSWER, running: null, school: null }, userInfo({ userType: 'STUDENT', lastLogin: null }));
    const card = await screen.findByTestId('dashboard-to-answer');
    expect(cardIds()).toEqual(['dashboard-to-answer']);
    expect(within(card).getByRole('heading', { level: 2 }).textContent).toBe('待填寫的問卷');
    expect(texts('to-answer-title', card)).toEqual(['午膳意見調查', '課外活動問卷', '圖書館使用調查']);
    // 09:00 UTC is 17:00 in Hong Kong; 16:30 UTC on the 1st is 00:30 on the 2nd there
    expect(texts('end-date', card)).toEqual(['截止 2026-11-30 17:00', '截止 2026-12-02 00:30', '沒有截止日期']);
    const links = within(card).getAllByTestId('to-answer-item');
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['/questionnaire-filling/detail?id=31', '/questionnaire-filling/detail?id=12', '/questionnaire-filling/detail?id=20']);
    expect(within(links[1]).getByText('不記名')).toBeTruthy();
    const all = within(card).getByTestId('to-answer-all');
    expect(all.textContent).toBe('查看全部（12）');
    expect(all.getAttribute('href')).toBe('/questionnaire-filling/list');
    // one call for the whole screen
    expect(calls.filter((c) => c.path === '/v1/my/dashboard')).toHaveLength(1);
    expect(screen.getByText('這是你第一次登入。')).toBeTruthy();
  });

  it('a teacher: running questionnaires with their rate and bar, "send notice" only where allowed, then to-answer', async () => {
    renderHome({ toAnswer: { total: 0, list: [] }, running: RUNNING, school: null });
    const card = await screen.findByTestId('dashboard-running');
    expect(cardIds()).toEqual(['dashboard-running', 'dashboard-to-answer']);
    expect(screen.getByText('上次登入: 2026-11-25 23:05')).toBeTruthy();
    const items = within(card).getAllByTestId('running-item');
    expect(texts('running-title', card)).toEqual(['家長日意見調查', '教師工作量問卷']);
    expect(within(items[0]).getByTestId('running-title').getAttribute('href')).toBe('/data-statistics/detail?id=41');
    expect(texts('end-date', card)).toEqual(['截止 2026-12-05 12:00', '沒有截止日期']);
    expect(texts('running-rate', card)).toEqual(['已提交 12 / 30（40%）', '已提交 1 / 3（33.3%）']);
    const bar = within(items[0]).getByRole('progressbar', { name: '家長日意見調查 的回覆率：40%' });
    expect(bar.getAttribute('aria-valuenow')).toBe('40');
    expect(within(items[0]).getByRole('button', { name: '發送通知：家長日意見調查' })).toBeTruthy();
    expect(within(items[1]).queryByTestId('running-remind')).toBeNull();
    expect(within(card).queryByTestId('running-all')).toBeNull();
    // nothing to answer: the friendly line
    expect(within(screen.getByTestId('dashboard-to-answer')).getByTestId('to-answer-empty').textContent).toBe('暫時沒有需要你填寫的問卷。');
  });

  it('"send notice" asks first, calls the notice route and tells the outcome', async () => {
    renderHome((call) => (call.path === '/v1/my/dashboard' ? { toAnswer: null, running: RUNNING, school: null } : call.path.endsWith('/notice') ? { sent: 17, failed: 1 } : null));
    fireEvent.click(await screen.findByRole('button', { name: '發送通知：家長日意見調查' }));
    expect(await screen.findByText('以電郵通知所有尚未提交的人士？')).toBeTruthy();
    expect(calls.some((c) => c.path.endsWith('/notice'))).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: '發送通知' }));
    await waitFor(() => expect(calls.map((c) => `${c.method} ${c.path}`)).toContain('POST /v1/questionnaires/41/notice'));
    expect(await screen.findByText('通知已發送：成功 17 封，失敗 1 封')).toBeTruthy();
  });

  it('an administrator: the school figures and the latest imports with their list names and statuses', async () => {
    renderHome({ toAnswer: null, running: { total: 11, list: RUNNING!.list }, school: SCHOOL }, userInfo({ userType: 'ADMIN' }));
    const card = await screen.findByTestId('dashboard-school');
    // the school's figures first for whoever manages all questionnaires
    expect(cardIds()).toEqual(['dashboard-school', 'dashboard-running']);
    expect(within(card).getByTestId('school-open').textContent).toBe('4進行中的問卷');
    expect(within(card).getByTestId('school-respondents').textContent).toBe('200回覆對象人數');
    expect(within(card).getByTestId('school-submitted').textContent).toBe('150（75%）已提交');
    const imports = within(card).getAllByTestId('import-item');
    expect(imports.map((i) => i.textContent)).toEqual([
      '學生已完成40 行：新增 30、更新 8、略過 2匯入時間：2026-11-20 10:15',
      '教師失敗5 行：新增 0、更新 0、略過 0匯入時間：2026-11-20 01:00',
    ]);
    // more running questionnaires than listed: to the statistics list
    expect(screen.getByTestId('running-all').textContent).toBe('查看全部（11）');
    expect(screen.getByTestId('running-all').getAttribute('href')).toBe('/data-statistics/list');
  });

  it('empty states of the three cards', async () => {
    renderHome({ toAnswer: { total: 0, list: [] }, running: { total: 0, list: [] }, school: { openQuestionnaires: 0, respondents: 0, submitted: 0, imports: [] } });
    expect((await screen.findByTestId('running-empty')).textContent).toBe('你暫時沒有進行中的問卷。');
    expect(screen.getByTestId('to-answer-empty').textContent).toBe('暫時沒有需要你填寫的問卷。');
    expect(screen.getByTestId('imports-empty').textContent).toBe('你尚未匯入任何資料。');
    // nobody asked: no share to give
    expect(screen.getByTestId('school-submitted').textContent).toBe('0（—）已提交');
    expect(screen.queryByTestId('to-answer-all')).toBeNull();
  });

  it('a failed call says what to do and tries again on request', async () => {
    let fail = true;
    renderHome((call) => (call.path === '/v1/my/dashboard' && fail ? { status: 500, code: 400, msg: 'boom' } : { toAnswer: TO_ANSWER, running: null, school: null }));
    const error = await screen.findByTestId('dashboard-error', {}, { timeout: 5_000 });
    expect(error.textContent).toContain('發生錯誤，請稍後再試');
    // the greeting is there all the same
    expect(screen.getByTestId('welcome')).toBeTruthy();
    fail = false;
    fireEvent.click(within(error).getByRole('button', { name: '重試' }));
    expect(await screen.findByTestId('dashboard-to-answer')).toBeTruthy();
  });
});

describe('home screen cards (en)', () => {
  beforeEach(async () => {
    await i18nProvider.changeLocale('en');
  });
  afterEach(async () => {
    await i18nProvider.changeLocale('zh-hk');
  });

  it('the same cards in English', async () => {
    renderHome({ toAnswer: TO_ANSWER, running: RUNNING, school: SCHOOL }, userInfo({ userType: 'STUDENT' }));
    const toAnswer = await screen.findByTestId('dashboard-to-answer');
    // a student's to-answer card first
    expect(cardIds()).toEqual(['dashboard-to-answer', 'dashboard-running', 'dashboard-school']);
    expect(within(toAnswer).getByRole('heading', { level: 2 }).textContent).toBe('To answer');
    // a questionnaire written in both languages shows its English title; one in Chinese only its Chinese title
    expect(texts('to-answer-title', toAnswer)).toEqual(['Lunch survey', '課外活動問卷', '圖書館使用調查']);
    expect(texts('end-date', toAnswer)).toEqual(['Ends 2026-11-30 17:00', 'Ends 2026-12-02 00:30', 'No end date']);
    expect(within(toAnswer).getByTestId('to-answer-all').textContent).toBe('See all (12)');
    expect(screen.getByText('Last login: 2026-11-25 23:05')).toBeTruthy();

    const running = screen.getByTestId('dashboard-running');
    expect(texts('running-rate', running)).toEqual(['12 / 30 submitted (40%)', '1 / 3 submitted (33.3%)']);
    expect(texts('running-title', running)).toEqual(['Parents day survey', '教師工作量問卷']);
    expect(within(running).getByRole('progressbar', { name: 'Response rate of Parents day survey: 40%' })).toBeTruthy();
    expect(within(running).getAllByRole('button', { name: /^Send notice/ }).map((b) => b.getAttribute('aria-label'))).toEqual(['Send notice: Parents day survey']);

    const school = screen.getByTestId('dashboard-school');
    expect(within(school).getByTestId('school-submitted').textContent).toBe('150 (75%)Submitted');
    expect(texts('import-status', school)).toEqual(['Done', 'Failed']);
    expect(within(school).getByText('Students')).toBeTruthy();
    expect(within(school).getByText('40 rows: 30 added, 8 updated, 2 skipped')).toBeTruthy();
    expect(within(school).getByText('Imported 2026-11-20 10:15')).toBeTruthy();
  });

  it('empty states in English', async () => {
    renderHome({ toAnswer: { total: 0, list: [] }, running: { total: 0, list: [] }, school: { openQuestionnaires: 0, respondents: 0, submitted: 0, imports: [] } });
    expect((await screen.findByTestId('to-answer-empty')).textContent).toBe('Nothing to answer now.');
    expect(screen.getByTestId('running-empty').textContent).toBe('None of your questionnaires is in progress now.');
    expect(screen.getByTestId('imports-empty').textContent).toBe('You have not imported anything yet.');
  });
});
