import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { localStorageStore } from 'react-admin';
import { publicScreenOf } from '../../../src/client/auth/PublicApp';
import { STORE_APP_KEY, STORE_VERSION, storedLocale } from '../../../src/client/i18n/locale';
import publicEn from '../../../src/shared/i18n/public-en';
import publicZhHk from '../../../src/shared/i18n/public-zh-hk';
import appEn from '../../../src/shared/i18n/app-en';
import appZhHk from '../../../src/shared/i18n/app-zh-hk';
import { flatten } from '../../support/messages';
import { fakeServer, ok, SCHOOL, show, type Answer, type Call } from './public-app';

// The login page and the quick login as the first script draws them (src/client/main.tsx),
// without react-admin or MUI: the same texts, fields, messages and stored session as the app's
// login page had. The server is a fake fetch here; tests/e2e logs in through this page for real.


/** The school is set up; logins answer `login(call)`. */
function server(login: (call: Call) => Answer = () => ok({ tk: 'h.eyJqdGkiOiI0MiJ9.s', userId: 42 })) {
  return fakeServer((call) => {
    if (call.path === '/v1/init') return ok({ initialised: true });
    if (call.path === '/v1/school-info') return ok(SCHOOL);
    if (call.path === '/v1/login') return login(call);
    return undefined;
  });
}

const field = (id: string) => screen.getByTestId(id) as HTMLInputElement;

beforeEach(() => {
  localStorage.clear();
  document.cookie = 'qe_token=; path=/qe; max-age=0';
  window.history.replaceState(null, '', '/qe/login');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the login page without the app', () => {
  it('shows the school, the app title and the form with the texts of the zh-hk message file', async () => {
    server();
    show();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(appZhHk.qe.login.title);
    expect(screen.getByLabelText(appZhHk.qe.login.username)).toBe(field('login-username'));
    expect(screen.getByLabelText(appZhHk.qe.login.password)).toBe(field('login-password'));
    expect(screen.getByTestId('login-submit').textContent).toBe(appZhHk.qe.login.submit);
    expect(screen.getByText(appZhHk.qe.app.title)).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('login-school-name').textContent).toBe('示範中學'));
    expect(screen.queryByTestId('login-school-logo')).toBeNull();
    expect(document.activeElement).toBe(field('login-username'));
    expect(document.documentElement.lang).toBe('zh-HK');
  });

  it("shows the school's logo from storage when it has one", async () => {
    fakeServer((call) => (call.path === '/v1/school-info' ? ok({ ...SCHOOL, schoolLogo: 'school/logo.png' }) : ok({ initialised: true })));
    show();
    expect((await screen.findByTestId('login-school-logo')).getAttribute('src')).toBe('/qe/storage/school/logo.png');
  });

  it('asks for both fields before it calls the server, the first empty one focused with its message', async () => {
    const calls = server();
    show();
    fireEvent.click(screen.getByTestId('login-submit'));
    expect(screen.getByText(appZhHk.qe.login.usernameRequired)).toBeTruthy();
    expect(screen.getByText(appZhHk.qe.login.passwordRequired)).toBeTruthy();
    expect(field('login-username').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(field('login-username'));
    // a user name of spaces is no user name
    fireEvent.change(field('login-username'), { target: { value: '   ' } });
    fireEvent.change(field('login-password'), { target: { value: 'x' } });
    fireEvent.submit(field('login-password').form!);
    expect(screen.getByText(appZhHk.qe.login.usernameRequired)).toBeTruthy();
    expect(calls.some((c) => c.path === '/v1/login')).toBe(false);
  });

  it("shows the server's message when a login is refused, read out as it appears; the form stays", async () => {
    const calls = server(() => ({ status: 400, envelope: { code: 700, msg: '用戶名稱或密碼不正確', data: null } }));
    const { openApp, preloadApp } = show();
    fireEvent.change(field('login-username'), { target: { value: '  student001 ' } });
    fireEvent.change(field('login-password'), { target: { value: ' wrong ' } });
    fireEvent.submit(field('login-password').form!);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('用戶名稱或密碼不正確');
    expect(alert.getAttribute('data-testid')).toBe('login-error');
    const login = calls.find((c) => c.path === '/v1/login')!;
    // every string of a payload is trimmed, with the headers of docs/conventions.md#headers-and-trimming
    expect(login).toMatchObject({ method: 'POST', body: { username: 'student001', password: 'wrong' }, headers: { 'Accept-Language': 'zh-HK', 'X-Device': 'Web', 'X-System': 'QE' } });
    expect(preloadApp).toHaveBeenCalled();
    expect(openApp).not.toHaveBeenCalled();
    expect(localStorage.getItem('qe-token')).toBeNull();
    expect((screen.getByTestId('login-submit') as HTMLButtonElement).disabled).toBe(false);
  });

  it('says "try later" when no answer came, and "operation failed" for an answer without a message', async () => {
    let answer: Answer = { fail: true };
    server(() => answer);
    show();
    fireEvent.change(field('login-username'), { target: { value: 'a' } });
    fireEvent.change(field('login-password'), { target: { value: 'b' } });
    fireEvent.submit(field('login-password').form!);
    expect((await screen.findByRole('alert')).textContent).toBe(appZhHk.qe.error.tryLater);
    answer = { status: 500, envelope: { code: 400, msg: '', data: null } };
    fireEvent.submit(field('login-password').form!);
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(appZhHk.qe.error.operationFailed));
  });

  it('stores the session as the app keeps it and opens the app where the `redirect` parameter asked', async () => {
    window.history.replaceState(null, '', `/qe/login?redirect=${encodeURIComponent('/data-statistics/list?x=1')}`);
    server();
    const { openApp } = show();
    fireEvent.change(field('login-username'), { target: { value: 'admin' } });
    fireEvent.change(field('login-password'), { target: { value: 'Passw0rd!' } });
    fireEvent.click(screen.getByTestId('login-submit'));
    await waitFor(() => expect(openApp).toHaveBeenCalledWith('/data-statistics/list?x=1'));
    expect(localStorage.getItem('qe-token')).toBe('h.eyJqdGkiOiI0MiJ9.s');
    expect(localStorage.getItem('qe-user-id')).toBe('42');
    expect(document.cookie).toContain('qe_token=h.eyJqdGkiOiI0MiJ9.s');
    // busy until the app replaces the screen
    expect((screen.getByTestId('login-submit') as HTMLButtonElement).disabled).toBe(true);
  });

  it('goes home after login when `redirect` is not a path of ours', async () => {
    window.history.replaceState(null, '', `/qe/login?redirect=${encodeURIComponent('//elsewhere.example/x')}`);
    server();
    const { openApp } = show();
    fireEvent.change(field('login-username'), { target: { value: 'admin' } });
    fireEvent.change(field('login-password'), { target: { value: 'Passw0rd!' } });
    fireEvent.submit(field('login-password').form!);
    await waitFor(() => expect(openApp).toHaveBeenCalledWith('/'));
  });

  it('before first run, opens /init', async () => {
    fakeServer((call) => (call.path === '/v1/init' ? ok({ initialised: false }) : ok(SCHOOL)));
    const { openApp } = show();
    await waitFor(() => expect(openApp).toHaveBeenCalledWith('/init'));
  });

  it("switches to English from the keyboard and remembers it where react-admin's store keeps the language", async () => {
    const calls = server(() => ({ status: 400, envelope: { code: 700, msg: 'Incorrect user name or password', data: null } }));
    show();
    const button = screen.getByTestId('language-switch');
    // its name says the language it shows, as its visible text does (WCAG 2.5.3)
    expect(button.getAttribute('aria-label')).toBe(appZhHk.qe.nav.languageNow.replace('%{name}', button.textContent!));
    fireEvent.click(button);
    const menu = screen.getByRole('menu');
    expect(document.activeElement).toBe(screen.getByTestId('language-zh-hk'));
    fireEvent.keyDown(menu, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(screen.getByTestId('language-en'));
    fireEvent.keyDown(menu, { key: 'Enter' });
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(appEn.qe.login.title));
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
    expect(document.documentElement.lang).toBe('en');
    expect(screen.getByLabelText(appEn.qe.login.username)).toBeTruthy();
    expect(screen.getByTestId('login-school-name').textContent).toBe('Demo School');
    // the app's store reads the same choice: it opens in English
    expect(localStorageStore(STORE_VERSION, STORE_APP_KEY).getItem('locale')).toBe('en');
    expect(storedLocale()).toBe('en');
    fireEvent.change(field('login-username'), { target: { value: 'a' } });
    fireEvent.change(field('login-password'), { target: { value: 'b' } });
    fireEvent.submit(field('login-password').form!);
    await screen.findByRole('alert');
    expect(calls.find((c) => c.path === '/v1/login')!.headers['Accept-Language']).toBe('en');
  });

  it('opens in the language chosen in the app, Escape closes the menu', async () => {
    localStorageStore(STORE_VERSION, STORE_APP_KEY).setItem('locale', 'en');
    server();
    show();
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe(publicEn.qe.login.title);
    fireEvent.click(screen.getByTestId('language-switch'));
    expect(screen.getByTestId('language-en').getAttribute('aria-checked')).toBe('true');
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('has no language switch on /app/login', async () => {
    server();
    show('app-login');
    await waitFor(() => expect(screen.getByTestId('login-school-name').textContent).toBe('示範中學'));
    expect(screen.queryByTestId('language-switch')).toBeNull();
    expect(screen.getByTestId('login-submit')).toBeTruthy();
  });
});

describe("the reminder mail's quick login without the app", () => {
  it('logs the respondent in and opens the answer screen, the app downloading meanwhile', async () => {
    localStorage.setItem('qe-token', 'an.old.session');
    localStorage.setItem('qe-staff-edit-personal', '1');
    window.history.replaceState(null, '', '/qe/app/quick?token=0123456789abcdef');
    const calls = fakeServer(() => ok({ tk: 'q.eyJqdGkiOiI3In0.s', userId: 7, questionnaireId: 12 }));
    const { openApp, preloadApp } = show('quick');
    expect(screen.getByRole('progressbar').getAttribute('aria-label')).toBe(appZhHk.qe.app.loading);
    expect(preloadApp).toHaveBeenCalled();
    await waitFor(() => expect(openApp).toHaveBeenCalledWith('/questionnaire-filling/detail?id=12'));
    expect(calls).toMatchObject([{ method: 'POST', path: '/v1/quick-login', body: { token: '0123456789abcdef' } }]);
    expect(localStorage.getItem('qe-token')).toBe('q.eyJqdGkiOiI3In0.s');
    // the old session ended with everything it kept
    expect(localStorage.getItem('qe-staff-edit-personal')).toBeNull();
  });

  it("says the link is no longer valid, with the server's reason, and offers the login page", async () => {
    window.history.replaceState(null, '', '/qe/app/quick?token=0123456789abcdef');
    fakeServer(() => ({ status: 401, envelope: { code: 401, msg: '登入資料已過期，請重新登入', data: null } }));
    show('quick');
    const failed = await screen.findByTestId('quick-failed');
    expect(screen.getByRole('alert').textContent).toBe('登入資料已過期，請重新登入');
    expect(failed.querySelector('a')!.getAttribute('href')).toBe('/qe/login');
    expect(failed.querySelector('a')!.textContent).toBe(appZhHk.qe.quick.toLogin);
  });

  it('without a token, says so without calling the server', async () => {
    window.history.replaceState(null, '', '/qe/app/quick');
    const calls = fakeServer(() => undefined);
    await act(async () => void show('quick'));
    expect(screen.getByRole('alert').textContent).toBe(appZhHk.qe.quick.invalid);
    expect(calls).toEqual([]);
  });
});

describe('which page loads open without the app', () => {
  it('the login pages without a session, the quick login always; everything else is the app', () => {
    expect(publicScreenOf('/login', false)).toBe('login');
    expect(publicScreenOf('/app/login', false)).toBe('app-login');
    expect(publicScreenOf('/app/quick', false)).toBe('quick');
    expect(publicScreenOf('/app/quick', true)).toBe('quick');
    expect(publicScreenOf('/login', true)).toBeNull();
    for (const path of ['/', '/dashboard', '/init', '/tutorial', '/404', '/google-callback']) expect(publicScreenOf(path, false)).toBeNull();
  });

  it("name only texts of the public message files, which the app's message files include unchanged", () => {
    const files = ['LoginScreen.tsx', 'QuickLoginScreen.tsx', 'PublicScreen.tsx', 'PublicApp.tsx', 'publicApi.ts', 'SignInButtons.tsx', 'SignInCallbackScreen.tsx', 'signInFlow.ts'].map((f) => readFileSync(`src/client/auth/${f}`, 'utf8'));
    const used = new Set(files.flatMap((text) => [...text.matchAll(/['"`](qe\.[A-Za-z0-9_.]+)['"`]/g)].map((m) => m[1])));
    expect(used.size).toBeGreaterThan(8);
    for (const [messages, app] of [
      [publicZhHk, appZhHk],
      [publicEn, appEn],
    ] as const) {
      const texts = flatten(messages);
      expect([...used].filter((k) => !texts.has(k))).toEqual([]);
      const all = flatten(app);
      for (const [key, text] of texts) expect(all.get(key), key).toBe(text);
    }
  });
});
