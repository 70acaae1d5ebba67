import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { i18nProvider } from '../../../src/client/providers/i18nProvider';
import { GoogleCallbackPage, callbackMessage } from '../../../src/client/google/GoogleCallbackPage';
import { GoogleAccountButton } from '../../../src/client/google/GoogleAccountButton';
import { fakeFetch, renderWith } from './support';

beforeEach(async () => {
  await i18nProvider.changeLocale('zh-hk');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  Object.defineProperty(window, 'opener', { value: null, configurable: true, writable: true });
  window.history.replaceState(null, '', '/');
});

describe('the /google-callback page', () => {
  it('posts the code and state of its query string to its opener, on this origin only, and closes itself', async () => {
    const postMessage = vi.fn();
    Object.defineProperty(window, 'opener', { value: { postMessage }, configurable: true, writable: true });
    const close = vi.spyOn(window, 'close').mockImplementation(() => undefined);
    window.history.replaceState(null, '', '/qe/google-callback?code=c0de%2F1&state=st.at.e&scope=email');
    renderWith(<GoogleCallbackPage />);
    await waitFor(() => expect(close).toHaveBeenCalled());
    expect(postMessage).toHaveBeenCalledTimes(1);
    expect(postMessage).toHaveBeenCalledWith({ type: 'qe-google', code: 'c0de/1', state: 'st.at.e' }, window.location.origin);
  });

  it('without an opener, says so in a line and posts nothing', async () => {
    const close = vi.spyOn(window, 'close').mockImplementation(() => undefined);
    window.history.replaceState(null, '', '/qe/google-callback?code=abc&state=s');
    renderWith(<GoogleCallbackPage />);
    expect((await screen.findByTestId('google-callback-orphan')).textContent).toContain('並非由 QE 開啟');
    expect(close).not.toHaveBeenCalled();
  });

  it("passes the provider's error on when there is no code", () => {
    expect(callbackMessage('?error=access_denied&state=s')).toEqual({ type: 'qe-google', code: null, state: 's', error: 'access_denied' });
  });
});

describe('the Google account button', () => {
  const LINK = 'http://127.0.0.1:9/authorize?client_id=qe';

  /** The school info of a QE with Google sign-in configured: the button is offered. */
  const SCHOOL = { schoolId: 1, nameHk: '測試中學', nameEn: 'Test School', schoolLogo: null, languageList: [], googleConfigured: true };

  function setup(bind: () => unknown) {
    const calls = fakeFetch((call) => (call.path === '/v1/school-info' ? SCHOOL : call.path.endsWith('/auth-url') ? { googleMail: null, link: LINK } : bind()));
    const popup = { closed: false, close: vi.fn(() => (popup.closed = true)) };
    const open = vi.spyOn(window, 'open').mockImplementation(() => popup as unknown as Window);
    return { calls, popup, open };
  }

  async function confirmAndOpen() {
    renderWith(<GoogleAccountButton />, ['google-account.view']);
    fireEvent.click(await screen.findByTestId('google-account'));
    fireEvent.click(await screen.findByRole('button', { name: /確認|Confirm/ }));
  }

  it('is hidden on a QE without Google sign-in configured, even for a user who may bind', async () => {
    const calls = fakeFetch((call) => (call.path === '/v1/school-info' ? { ...SCHOOL, googleConfigured: false } : { googleMail: null, link: LINK }));
    renderWith(<GoogleAccountButton />, ['google-account.view']);
    await waitFor(() => expect(calls.some((c) => c.path === '/v1/school-info')).toBe(true));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('google-account')).toBeNull();
    expect(calls.some((c) => c.path.endsWith('/auth-url'))).toBe(false);
  });

  const post = (data: unknown, origin = window.location.origin) => act(() => window.dispatchEvent(new MessageEvent('message', { data, origin })));

  it('confirms, opens the link in a named popup, binds the code the callback posts and says success', async () => {
    const { calls, open } = setup(() => ({ googleMail: 'me@example.com' }));
    await confirmAndOpen();
    await waitFor(() => expect(open).toHaveBeenCalled());
    expect(open.mock.calls[0][0]).toBe(LINK);
    expect(open.mock.calls[0][1]).toBe('qe-google');
    expect(open.mock.calls[0][2]).toMatch(/width=520,height=640/);
    // another origin, or another kind of message, is ignored
    await post({ type: 'qe-google', code: 'evil', state: 's' }, 'http://evil.example');
    await post({ type: 'other', code: 'x' });
    expect(calls.filter((c) => c.path.endsWith('/bind'))).toHaveLength(0);
    await post({ type: 'qe-google', code: 'the-code', state: 'the-state' });
    await waitFor(() => expect(calls.some((c) => c.path.endsWith('/bind'))).toBe(true));
    expect(calls.find((c) => c.path.endsWith('/bind'))).toMatchObject({ method: 'POST', body: { code: 'the-code', state: 'the-state' } });
    await waitFor(() => expect(screen.getByTestId('google-account').getAttribute('aria-label')).toContain('me@example.com'));
  });

  it('a refused binding clears the popup and stops loading, without a message', async () => {
    const { popup } = setup(() => ({ code: 717, msg: '操作失敗' }));
    await confirmAndOpen();
    await waitFor(() => expect(screen.getByTestId('google-account').hasAttribute('disabled')).toBe(true));
    await post({ type: 'qe-google', code: 'bad', state: 's' });
    await waitFor(() => expect(screen.getByTestId('google-account').hasAttribute('disabled')).toBe(false));
    expect(popup.close).toHaveBeenCalled();
    expect(screen.queryByText('操作失敗')).toBeNull();
  });

  it('a failing auth-url call opens nothing and shows nothing', async () => {
    fakeFetch((call) => (call.path === '/v1/school-info' ? SCHOOL : { code: 717, msg: '操作失敗' }));
    const open = vi.spyOn(window, 'open');
    await confirmAndOpen();
    await waitFor(() => expect(screen.getByTestId('google-account').hasAttribute('disabled')).toBe(false));
    expect(open).not.toHaveBeenCalled();
    expect(screen.queryByText('操作失敗')).toBeNull();
  });
});
