import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { localStorageStore } from 'react-admin';
import { publicScreenOf } from '../../../src/client/auth/PublicApp';
import { appPathOf, leave, newBrowserKey, pendingSignIn, returnToOf, SIGN_IN_FLOW_KEY } from '../../../src/client/auth/signInFlow';
import { entryRedirect } from '../../../src/client/auth/entryRedirect';
import { STORE_APP_KEY, STORE_VERSION } from '../../../src/client/i18n/locale';
import appEn from '../../../src/shared/i18n/app-en';
import appZhHk from '../../../src/shared/i18n/app-zh-hk';
import type { TestReport } from '../../../src/shared/calls/sign-in';
import { fakeServer, ok, SCHOOL, show, type Answer, type Call } from './public-app';

// Sign-in with the school's accounts, the browser's half, as the first script draws it (no
// react-admin): the login screen's provider buttons and the browser key they keep in the tab, and
// /sign-in-callback completing the flow. The server is a fake fetch here; the real flow runs in
// tests/e2e/sign-in-school-account.test.ts against a real OpenID Connect provider.

const refused = (code: number, msg: string, status = 400): Answer => ({ status, envelope: { code, msg, data: null } });
const PROVIDERS = [
  { id: 3, kind: 'microsoft', nameHk: 'Microsoft', nameEn: 'Microsoft' },
  { id: 4, kind: 'google', nameHk: 'Google', nameEn: 'Google' },
  { id: 5, kind: 'oidc', nameHk: '教育局帳戶', nameEn: 'EDB account' },
];
const LINK = 'https://login.example.test/authorize?client_id=qe&state=s1';
const KEY = /^[A-Za-z0-9_-]{43}$/;

/** The login page's calls answered; the options and the start as given. */
function loginServer({ options = ok({ providers: PROVIDERS }), start = () => ok({ link: LINK }) }: { options?: Answer; start?: (call: Call) => Answer } = {}) {
  return fakeServer((call) => {
    if (call.path === '/v1/init') return ok({ initialised: true });
    if (call.path === '/v1/school-info') return ok(SCHOOL);
    if (call.path === '/v1/sign-in/options') return options;
    if (call.path === '/v1/sign-in/start') return start(call);
    return undefined;
  });
}

let left: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  document.cookie = 'qe_token=; path=/qe; max-age=0';
  window.history.replaceState(null, '', '/qe/login');
  left = vi.spyOn(leave, 'to').mockImplementation(() => undefined);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the browser key and where the user meant to go', () => {
  it('is 32 random bytes as base64url: 43 characters, new every time, from crypto.getRandomValues', () => {
    const random = vi.spyOn(crypto, 'getRandomValues');
    const keys = new Set(Array.from({ length: 50 }, () => newBrowserKey()));
    expect(keys.size).toBe(50);
    for (const key of keys) expect(key).toMatch(KEY);
    expect(random).toHaveBeenCalledTimes(50);
    expect((random.mock.calls[0][0] as Uint8Array).length).toBe(32);
  });

  it('sends the wanted path of the app with /qe, none for home; comes back as a path of the app, home for anything else', () => {
    expect(returnToOf('/questionnaire-filling/detail?id=12')).toBe('/qe/questionnaire-filling/detail?id=12');
    expect(returnToOf('/')).toBeUndefined();
    expect(returnToOf('//elsewhere.example/x')).toBeUndefined();
    expect(appPathOf('/qe/questionnaire-filling/detail?id=12')).toBe('/questionnaire-filling/detail?id=12');
    expect(appPathOf('/qe/')).toBe('/');
    expect(appPathOf(null)).toBe('/');
    for (const other of ['https://elsewhere.example/qe/x', '//elsewhere.example/x', '/\\elsewhere.example', '/qe//elsewhere.example', '/qe/login?redirect=/x', '/qe/sign-in-callback?code=1']) expect(appPathOf(other), other).toBe('/');
  });

  it('opens /sign-in-callback without the app, with a session or without; it is public', () => {
    expect(publicScreenOf('/sign-in-callback', false)).toBe('sign-in-callback');
    expect(publicScreenOf('/sign-in-callback', true)).toBe('sign-in-callback');
    expect(entryRedirect('/sign-in-callback', '?code=a&state=b', false)).toBeNull();
  });
});

describe('the login screen with the school’s identity providers', () => {
  it('shows a button per provider below the password form, named in zh-hk, reached with Tab, in a named group', async () => {
    loginServer();
    show();
    const group = await screen.findByRole('group', { name: appZhHk.qe.signIn.accounts });
    const buttons = within(group).getAllByRole('button');
    expect(buttons.map((b) => b.textContent)).toEqual(['以 Microsoft 帳戶登入', '以 Google 帳戶登入', '以教育局帳戶登入']);
    for (const b of buttons) {
      expect(b.getAttribute('type')).toBe('button');
      expect(b.tabIndex).toBe(0);
      // the mark is decoration: the text names the provider
      expect(b.querySelector('svg')!.getAttribute('aria-hidden')).toBe('true');
    }
    // after the form: the password login stays first
    const submit = screen.getByTestId('login-submit');
    expect(submit.compareDocumentPosition(buttons[0]) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(buttons[0].closest('form')).toBeNull();
  });

  it('names them in English in English', async () => {
    localStorageStore(STORE_VERSION, STORE_APP_KEY).setItem('locale', 'en');
    loginServer();
    show();
    const group = await screen.findByRole('group', { name: appEn.qe.signIn.accounts });
    expect(within(group).getAllByRole('button').map((b) => b.textContent)).toEqual(['Sign in with Microsoft', 'Sign in with Google', 'Sign in with EDB account']);
  });

  it('shows none when the school has none, or the options cannot be read; the password form works as before', async () => {
    loginServer({ options: ok({ providers: [] }) });
    show();
    await waitFor(() => expect(screen.getByTestId('login-school-name').textContent).toBe('示範中學'));
    expect(screen.queryByTestId('sign-in-providers')).toBeNull();
    cleanup();
    loginServer({ options: { fail: true } });
    show();
    await waitFor(() => expect(screen.getByTestId('login-school-name').textContent).toBe('示範中學'));
    expect(screen.queryByTestId('sign-in-providers')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('starts with a new browser key kept in this tab and where the reminder’s link pointed, then leaves for the provider', async () => {
    window.history.replaceState(null, '', `/qe/login?redirect=${encodeURIComponent('/questionnaire-filling/detail?id=12')}`);
    const calls = loginServer();
    show();
    fireEvent.click(await screen.findByRole('button', { name: '以教育局帳戶登入' }));
    await waitFor(() => expect(left).toHaveBeenCalledWith(LINK));
    const start = calls.find((c) => c.path === '/v1/sign-in/start')!;
    expect(start).toMatchObject({ method: 'POST', headers: { 'Accept-Language': 'zh-HK', 'X-System': 'QE' }, body: { providerId: 5, returnTo: '/qe/questionnaire-filling/detail?id=12' } });
    expect(start.body!.browserKey).toMatch(KEY);
    expect(pendingSignIn()).toEqual({ browserKey: start.body!.browserKey, providerId: 5, purpose: 'sign-in', returnTo: '/qe/questionnaire-filling/detail?id=12' });
    // everything waits while the browser leaves
    for (const b of screen.getAllByRole('button', { name: /登入/ })) expect((b as HTMLButtonElement).disabled).toBe(true);
  });

  it('sends no returnTo without a `redirect`, and a new key each time', async () => {
    const calls = loginServer();
    show();
    fireEvent.click(await screen.findByRole('button', { name: '以 Microsoft 帳戶登入' }));
    await waitFor(() => expect(left).toHaveBeenCalledTimes(1));
    const first = calls.find((c) => c.path === '/v1/sign-in/start')!.body!;
    expect(first).toEqual({ providerId: 3, browserKey: expect.stringMatching(KEY) });
    cleanup();
    show();
    fireEvent.click(await screen.findByRole('button', { name: '以 Microsoft 帳戶登入' }));
    await waitFor(() => expect(left).toHaveBeenCalledTimes(2));
    const second = calls.filter((c) => c.path === '/v1/sign-in/start')[1].body!;
    expect(second.browserKey).not.toBe(first.browserKey);
  });

  it("shows the server's refusal as the form shows its own, forgets the key, and the buttons work again", async () => {
    loginServer({ start: () => refused(770, '此登入方式已不再提供', 404) });
    show();
    const button = await screen.findByRole('button', { name: '以 Google 帳戶登入' });
    fireEvent.click(button);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('此登入方式已不再提供');
    expect(alert.getAttribute('data-testid')).toBe('login-error');
    expect(sessionStorage.getItem(SIGN_IN_FLOW_KEY)).toBeNull();
    expect(left).not.toHaveBeenCalled();
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
    expect((screen.getByTestId('login-submit') as HTMLButtonElement).disabled).toBe(false);
  });
});

/** The page the provider sends the browser back to, with the flow this tab started (or none). */
function callback(search: string, flow: Record<string, unknown> | null = { browserKey: 'k'.repeat(43), providerId: 5, purpose: 'sign-in', returnTo: '/qe/questionnaire-filling/detail?id=12' }) {
  window.history.replaceState(null, '', `/qe/sign-in-callback${search}`);
  if (flow) sessionStorage.setItem(SIGN_IN_FLOW_KEY, JSON.stringify(flow));
}

const REPORT: TestReport = {
  ok: false,
  steps: [
    { step: 'discovery', ok: true, detail: 'https://login.example.test/.well-known/openid-configuration 已讀取' },
    { step: 'token', ok: true, detail: '已取得 ID 權杖' },
    { step: 'domain', ok: false, detail: '網域 gmail.com 不在 school.edu.hk 之內' },
  ],
  claims: { subject: 'a1b2', email: 'chan@gmail.com', emailVerified: true, name: null },
  account: { userId: 42, nameHk: '陳大文', nameEn: 'Chan Tai Man', userType: 'STUDENT' },
};

describe('/sign-in-callback', () => {
  it('completes with the browser key, stores the session as the password login does and opens where the user meant to go', async () => {
    localStorage.setItem('qe-token', 'someone.elses.session');
    localStorage.setItem('qe-staff-edit-personal', '1');
    callback('?code=c0de&state=st4te&iss=https%3A%2F%2Fid.school.edu.hk');
    const calls = fakeServer((call) => (call.path === '/v1/sign-in/complete' ? ok({ purpose: 'sign-in', tk: 'h.eyJqdGkiOiI0MiJ9.s', userId: 42, returnTo: '/qe/questionnaire-filling/detail?id=12' }) : undefined));
    const { openApp, preloadApp } = show('sign-in-callback');
    expect(screen.getByRole('progressbar').getAttribute('aria-label')).toBe(appZhHk.qe.signIn.callback.working);
    expect(preloadApp).toHaveBeenCalled();
    await waitFor(() => expect(openApp).toHaveBeenCalledWith('/questionnaire-filling/detail?id=12'));
    expect(calls).toMatchObject([{ method: 'POST', path: '/v1/sign-in/complete', body: { code: 'c0de', state: 'st4te', browserKey: 'k'.repeat(43), iss: 'https://id.school.edu.hk' } }]);
    expect(localStorage.getItem('qe-token')).toBe('h.eyJqdGkiOiI0MiJ9.s');
    expect(localStorage.getItem('qe-user-id')).toBe('42');
    expect(document.cookie).toContain('qe_token=h.eyJqdGkiOiI0MiJ9.s');
    // the earlier session ended with everything it kept; the key is used once; the code leaves the address bar
    expect(localStorage.getItem('qe-staff-edit-personal')).toBeNull();
    expect(sessionStorage.getItem(SIGN_IN_FLOW_KEY)).toBeNull();
    expect(window.location.pathname + window.location.search).toBe('/qe/sign-in-callback');
  });

  it('goes home when the sign-in had nowhere to go', async () => {
    callback('?code=c&state=s', { browserKey: 'k'.repeat(43), providerId: 5, purpose: 'sign-in' });
    fakeServer(() => ok({ purpose: 'sign-in', tk: 'h.eyJqdGkiOiI0MiJ9.s', userId: 42, returnTo: null }));
    const { openApp } = show('sign-in-callback');
    await waitFor(() => expect(openApp).toHaveBeenCalledWith('/'));
  });

  it("shows the server's refusal with the way back to login (keeping where the user meant to go) and another try", async () => {
    callback('?code=c&state=s');
    const calls = fakeServer((call) => {
      if (call.path === '/v1/sign-in/complete') return refused(776, '沒有 QE 帳戶的學校帳戶是 chan@school.edu.hk', 403);
      if (call.path === '/v1/sign-in/start') return ok({ link: LINK });
      return undefined;
    });
    const { openApp } = show('sign-in-callback');
    const failed = await screen.findByTestId('sign-in-failed');
    expect(within(failed).getByRole('alert').textContent).toBe('沒有 QE 帳戶的學校帳戶是 chan@school.edu.hk');
    const back = within(failed).getByRole('link', { name: appZhHk.qe.signIn.callback.toLogin });
    expect(back.getAttribute('href')).toBe(`/qe/login?redirect=${encodeURIComponent('/questionnaire-filling/detail?id=12')}`);
    expect(openApp).not.toHaveBeenCalled();
    expect(localStorage.getItem('qe-token')).toBeNull();
    expect(sessionStorage.getItem(SIGN_IN_FLOW_KEY)).toBeNull();
    // another try: a new flow with the same provider and destination
    fireEvent.click(within(failed).getByRole('button', { name: appZhHk.qe.signIn.callback.retry }));
    await waitFor(() => expect(left).toHaveBeenCalledWith(LINK));
    const start = calls.find((c) => c.path === '/v1/sign-in/start')!.body!;
    expect(start).toMatchObject({ providerId: 5, returnTo: '/qe/questionnaire-filling/detail?id=12' });
    expect(start.browserKey).toMatch(KEY);
    expect(start.browserKey).not.toBe('k'.repeat(43));
  });

  it('says clearly when the user cancelled at the provider, with what the provider said, and asks the server nothing', async () => {
    callback(`?error=access_denied&error_description=${encodeURIComponent('The user denied the request')}&state=s`);
    const calls = fakeServer(() => undefined);
    await act(async () => void show('sign-in-callback'));
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain(appZhHk.qe.signIn.callback.denied);
    expect(alert.textContent).toContain('The user denied the request');
    expect(calls).toEqual([]);
    expect(sessionStorage.getItem(SIGN_IN_FLOW_KEY)).toBeNull();
    expect(screen.getByRole('link', { name: appZhHk.qe.signIn.callback.toLogin })).toBeTruthy();
  });

  it('shows no provider text on an address no sign-in of this tab came back to (a made-up link)', async () => {
    callback(`?error=access_denied&error_description=${encodeURIComponent('Your account is locked: call 9999 9999')}&state=s`, null);
    fakeServer(() => undefined);
    await act(async () => void show('sign-in-callback'));
    expect(screen.getByRole('alert').textContent).toBe(appZhHk.qe.signIn.callback.unknown);
    expect(document.body.textContent).not.toContain('9999');
  });

  it('names another error of the provider by its code', async () => {
    callback('?error=server_error&state=s');
    fakeServer(() => undefined);
    await act(async () => void show('sign-in-callback'));
    expect(screen.getByRole('alert').textContent).toBe(appZhHk.qe.signIn.callback.providerError.replace('%{error}', 'server_error'));
  });

  it('without the flow of this tab (another tab, or long ago), or without a code, says so and asks the server nothing', async () => {
    callback('?code=c&state=s', null);
    const calls = fakeServer(() => undefined);
    await act(async () => void show('sign-in-callback'));
    expect(screen.getByRole('alert').textContent).toBe(appZhHk.qe.signIn.callback.unknown);
    expect(screen.queryByTestId('sign-in-retry')).toBeNull();
    expect(screen.getByTestId('sign-in-to-login').getAttribute('href')).toBe('/qe/login');
    cleanup();
    callback('?state=s');
    await act(async () => void show('sign-in-callback'));
    expect(screen.getByRole('alert').textContent).toBe(appZhHk.qe.signIn.callback.invalid);
    expect(calls).toEqual([]);
  });

  it("shows the super administrator's test: each check with a tick or a cross and its detail, the claims, the matched account; made with their session", async () => {
    localStorage.setItem('qe-token', 'h.eyJqdGkiOiIxIn0.s');
    localStorage.setItem('qe-user-id', '1');
    callback('?code=c&state=s', { browserKey: 't'.repeat(43), providerId: 5, purpose: 'test' });
    const calls = fakeServer(() => ok({ purpose: 'test', report: REPORT }));
    const close = vi.spyOn(window, 'close').mockImplementation(() => undefined);
    const { openApp } = show('sign-in-callback');
    const report = await screen.findByTestId('sign-in-test-report');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(appZhHk.qe.signIn.report.title);
    expect(calls[0].headers.Authorization).toBe('Bearer h.eyJqdGkiOiIxIn0.s');
    expect(within(report).getByRole('alert').textContent).toBe(appZhHk.qe.signIn.report.failed);
    const steps = within(report).getAllByRole('listitem');
    expect(steps.map((s) => within(s).getByRole('img').getAttribute('aria-label'))).toEqual(['通過', '通過', '未通過']);
    expect(steps[2].textContent).toBe(`${appZhHk.qe.signIn.report.steps.domain}網域 gmail.com 不在 school.edu.hk 之內`);
    const claims = screen.getByTestId('sign-in-test-claims').textContent;
    expect(claims).toContain('a1b2');
    expect(claims).toContain('chan@gmail.com');
    expect(claims).toContain(`${appZhHk.qe.signIn.report.emailVerified}${appZhHk.qe.signIn.report.yes}`);
    expect(claims).toContain(`${appZhHk.qe.signIn.report.name}${appZhHk.qe.signIn.report.none}`);
    expect(screen.getByTestId('sign-in-test-account').textContent).toBe('陳大文（學生）');
    // the super administrator's session stays as it was
    expect(localStorage.getItem('qe-token')).toBe('h.eyJqdGkiOiIxIn0.s');
    expect(openApp).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: appZhHk.qe.signIn.callback.close }));
    expect(close).toHaveBeenCalled();
  });

  it('a passed test says so; one that matched no account says that', async () => {
    localStorage.setItem('qe-token', 'h.eyJqdGkiOiIxIn0.s');
    callback('?code=c&state=s', { browserKey: 't'.repeat(43), providerId: 5, purpose: 'test' });
    fakeServer(() => ok({ purpose: 'test', report: { ...REPORT, ok: true, steps: REPORT.steps.map((s) => ({ ...s, ok: true })), account: null } }));
    show('sign-in-callback');
    expect((await screen.findByRole('status')).textContent).toBe(appZhHk.qe.signIn.report.passed);
    expect(screen.getByTestId('sign-in-test-account').textContent).toBe(appZhHk.qe.signIn.report.noAccount);
  });

  it('a refused test offers to close the window, not the login page', async () => {
    localStorage.setItem('qe-token', 'h.eyJqdGkiOiIxIn0.s');
    callback('?code=c&state=s', { browserKey: 't'.repeat(43), providerId: 5, purpose: 'test' });
    fakeServer(() => refused(718, '此測試登入由另一個帳戶開始', 403));
    show('sign-in-callback');
    expect((await screen.findByRole('alert')).textContent).toBe('此測試登入由另一個帳戶開始');
    expect(screen.getByTestId('sign-in-close')).toBeTruthy();
    expect(screen.queryByTestId('sign-in-to-login')).toBeNull();
  });
});
