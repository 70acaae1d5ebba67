import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { AdminContext, memoryStore, testDataProvider, TestMemoryRouter } from 'react-admin';
import { InitPage } from '../../../src/client/auth/InitPage';
import { i18nProvider } from '../../../src/client/providers/i18nProvider';
import { fieldMessage } from '../../../src/shared/field-messages';
import appEn from '../../../src/shared/i18n/app-en';
import appZhHk from '../../../src/shared/i18n/app-zh-hk';

// /qe/init, the first-run screen, in both languages with the login page's language switch: its
// texts, labels, messages (the browser's and the server's) come from the chosen language's file.
// The server is a fake fetch here; tests/e2e/first-run.test.ts sets up a school for real.

type Call = { method: string; path: string; language: string; body: unknown };
type Answer = { status: number; envelope: unknown };

function fakeServer(post: (call: Call) => Answer) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const headers = new Headers(init?.headers);
      const call = { method: init?.method ?? 'GET', path: new URL(url, 'http://localhost').pathname, language: headers.get('accept-language') ?? '', body: init?.body ? JSON.parse(String(init.body)) : undefined };
      calls.push(call);
      const { status, envelope } = call.method === 'POST' ? post(call) : { status: 200, envelope: { code: 200, msg: 'ok', data: { initialised: false } } };
      return { ok: status < 400, status, headers: new Headers({ 'content-type': 'application/json' }), json: async () => envelope, text: async () => JSON.stringify(envelope) } as unknown as Response;
    }),
  );
  return calls;
}

let location = { pathname: '' };

function show() {
  render(
    <TestMemoryRouter initialEntries={['/init']} locationCallback={(l) => (location = l)}>
      <AdminContext dataProvider={testDataProvider()} i18nProvider={i18nProvider} store={memoryStore()}>
        <InitPage />
      </AdminContext>
    </TestMemoryRouter>,
  );
}

const FIELDS = ['schoolNameHk', 'schoolNameEn', 'username', 'password', 'confirmPassword', 'nameHk', 'nameEn', 'email'] as const;
const input = (f: string) => screen.getByTestId(`init-${f}`) as HTMLInputElement;
const helperOf = (f: string) => document.getElementById(input(f).getAttribute('aria-describedby')!.split(' ')[0])?.textContent ?? '';

/** Every text of the screen in one language's file: headings, intro, labels, button, the switch's name. */
async function expectTexts(messages: typeof appEn, language: string) {
  const init = messages.qe.init;
  expect(await screen.findByRole('heading', { name: init.title })).toBeTruthy();
  for (const text of [init.intro, init.school, init.admin]) expect(screen.getByText(text)).toBeTruthy();
  // MUI adds " *" to a required field's label
  for (const f of FIELDS) expect(screen.getByLabelText((text) => text.replace(/\s*\*$/, '') === init[f])).toBe(input(f));
  expect(screen.getByTestId('init-submit').textContent).toBe(init.submit);
  expect(screen.getByTestId('language-switch').getAttribute('aria-label')).toBe(messages.qe.nav.languageNow.replace('%{name}', language));
  expect(screen.getByTestId('language-switch').getAttribute('title')).toBe(messages.qe.nav.language);
}

function fill(values: Partial<Record<(typeof FIELDS)[number], string>>) {
  for (const [f, v] of Object.entries(values)) fireEvent.change(input(f), { target: { value: v } });
}

const GOOD = { schoolNameHk: '測試中學', schoolNameEn: 'Test School', username: 'principal', password: 'Fir5tPass', confirmPassword: 'Fir5tPass', nameHk: '陳校長', nameEn: 'Principal Chan', email: '' };

beforeEach(async () => {
  await i18nProvider.changeLocale('zh-hk');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('the first-run screen', () => {
  it('is in Chinese by default: texts, labels, the language switch, and its messages', async () => {
    fakeServer(() => ({ status: 201, envelope: { code: 201, msg: 'ok', data: null } }));
    show();
    await expectTexts(appZhHk, '繁體中文');
    expect(document.documentElement.lang).toBe('zh-HK');

    fireEvent.click(screen.getByTestId('init-submit'));
    await waitFor(() => expect(helperOf('schoolNameHk')).toBe(fieldMessage('required', 'zh-hk')));
    // the first field to put right has the focus
    expect(document.activeElement).toBe(input('schoolNameHk'));
    fill({ username: 'the principal', password: 'abc', email: 'x@' });
    expect(helperOf('username')).toBe(appZhHk.qe.init.usernamePattern);
    expect(helperOf('password')).toBe(fieldMessage('password', 'zh-hk'));
    expect(helperOf('email')).toBe(fieldMessage('email', 'zh-hk'));
  });

  it('switches to English by keyboard and shows everything in English, the server’s refusals too; then sets up the school', async () => {
    let refuse = true;
    const calls = fakeServer(() =>
      refuse
        ? { status: 422, envelope: { code: 422, msg: 'Letters, digits and . _ - only (from the server)', data: { username: 'Letters, digits and . _ - only (from the server)' } } }
        : { status: 201, envelope: { code: 201, msg: 'ok', data: null } },
    );
    show();
    await expectTexts(appZhHk, '繁體中文');

    const button = screen.getByTestId('language-switch');
    button.focus();
    fireEvent.click(button);
    const menu = screen.getByRole('menu', { name: appZhHk.qe.nav.language });
    fireEvent.keyDown(menu, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(within(menu).getByTestId('language-en'));
    fireEvent.keyDown(menu, { key: 'Enter' });

    await expectTexts(appEn, 'English');
    expect(document.documentElement.lang).toBe('en');
    expect(document.activeElement).toBe(screen.getByTestId('language-switch'));

    fill({ ...GOOD, confirmPassword: 'Other5Pass', email: 'x@' });
    fireEvent.click(screen.getByTestId('init-submit'));
    expect(helperOf('confirmPassword')).toBe(fieldMessage('passwordMismatch', 'en'));
    expect(helperOf('email')).toBe(fieldMessage('email', 'en'));
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);

    fill({ confirmPassword: GOOD.password, email: '' });
    fireEvent.click(screen.getByTestId('init-submit'));
    await waitFor(() => expect(helperOf('username')).toBe('Letters, digits and . _ - only (from the server)'));
    expect(document.activeElement).toBe(input('username'));
    // asked in English, and nothing typed was lost
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.language).toBe('en');
    expect(post.body).toEqual({ schoolNameHk: '測試中學', schoolNameEn: 'Test School', username: 'principal', password: 'Fir5tPass', nameHk: '陳校長', nameEn: 'Principal Chan' });
    for (const [f, v] of Object.entries(GOOD)) expect(input(f).value).toBe(v);

    refuse = false;
    fill({ username: 'principal2' });
    fireEvent.click(screen.getByTestId('init-submit'));
    await waitFor(() => expect(location.pathname).toBe('/login'));
  });

  it('keeps what was typed, and the keyboard on the switch, when the language changes', async () => {
    fakeServer(() => ({ status: 201, envelope: { code: 201, msg: 'ok', data: null } }));
    show();
    await expectTexts(appZhHk, '繁體中文');
    fill(GOOD);
    fireEvent.blur(input('email'));
    fireEvent.click(screen.getByTestId('language-switch'));
    fireEvent.click(screen.getByTestId('language-en'));
    await expectTexts(appEn, 'English');
    for (const [f, v] of Object.entries(GOOD)) expect(input(f).value).toBe(v);
    // the focus comes back once the page has redrawn in the new language (later on a busy machine)
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('language-switch')));
  });

  it('shows a refusal without field errors in the chosen language (the server’s message)', async () => {
    fakeServer((call) => ({ status: 409, envelope: { code: 705, msg: call.language === 'en' ? 'QE is already set up' : 'QE 已完成設定', data: null } }));
    show();
    fireEvent.click(await screen.findByTestId('language-switch'));
    fireEvent.click(screen.getByTestId('language-en'));
    await expectTexts(appEn, 'English');
    fill(GOOD);
    fireEvent.click(screen.getByTestId('init-submit'));
    expect((await screen.findByTestId('init-error')).textContent).toBe('QE is already set up');
  });
});
