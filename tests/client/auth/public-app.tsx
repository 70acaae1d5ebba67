import { vi } from 'vitest';
import { render } from '@testing-library/react';
import { PublicApp, type PublicScreenName } from '../../../src/client/auth/PublicApp';

/**
 * The screens the first script draws (the login page, the quick login, the sign-in callback), for
 * their tests: `show` renders one, and a fake `fetch` answers their calls — each call is recorded and answered by `answer` — an envelope with a status,
 * or a network failure. The real server answers them in tests/e2e.
 */
export type Call = { method: string; path: string; headers: Record<string, string>; body: Record<string, unknown> | undefined };
export type Answer = { status?: number; envelope?: unknown; fail?: boolean };

export function fakeServer(answer: (call: Call) => Answer | undefined): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const call = { method: init?.method ?? 'GET', path: new URL(url, 'http://localhost').pathname, headers: (init?.headers ?? {}) as Record<string, string>, body: init?.body ? JSON.parse(String(init.body)) : undefined };
      calls.push(call);
      const given = answer(call) ?? {};
      if (given.fail) throw new TypeError('Failed to fetch');
      const status = given.status ?? 200;
      return { ok: status < 400, status, headers: { get: () => 'application/json' }, json: async () => given.envelope } as unknown as Response;
    }),
  );
  return calls;
}

export const ok = (data: unknown): Answer => ({ envelope: { code: 200, msg: 'success', data } });
export const SCHOOL = { schoolId: 1, nameHk: '示範中學', nameEn: 'Demo School', schoolLogo: null, languageList: [] };

/** Renders a public screen as the first script does; the app it would open and preload are spies. */
export function show(screenName: PublicScreenName = 'login') {
  const openApp = vi.fn(async () => undefined);
  const preloadApp = vi.fn();
  render(<PublicApp screen={screenName} openApp={openApp} preloadApp={preloadApp} />);
  return { openApp, preloadApp };
}
