import type { ReactNode } from 'react';
import { vi } from 'vitest';
import { render } from '@testing-library/react';
import { AdminContext, memoryStore, testDataProvider, TestMemoryRouter } from 'react-admin';
import { i18nProvider } from '../../../src/client/providers/i18nProvider';
import type { MenuNode } from '../../../src/client/developer/api';
import { authFor as authWith } from '../support/auth';

/** canAccess as QE's authProvider answers it, and an identity. */
export const authFor = (permissions: string[], identity: Record<string, unknown> = {}) => authWith(permissions, { id: 7, fullName: '李老師', googleMail: null, ...identity });

export function renderWith(element: ReactNode, permissions: string[] = [], identity?: Record<string, unknown>) {
  return render(
    <TestMemoryRouter initialEntries={['/']}>
      <AdminContext dataProvider={testDataProvider()} authProvider={authFor(permissions, identity)} i18nProvider={i18nProvider} store={memoryStore()}>
        {element}
      </AdminContext>
    </TestMemoryRouter>,
  );
}

let nextId = 100;
const action = (menuId: number, code: string, group: number) => ({ actionId: nextId++, menuId, code, group, name: code, nameHk: code, nameEn: code, sort: 0 });
const menu = (menuId: number, code: string, sort: number, actions: [string, number][]): MenuNode => ({
  menuId,
  code,
  system: 'QE',
  name: code,
  nameHk: `${code} 頁`,
  nameEn: `${code} page`,
  sort,
  roleCount: 1,
  actions: actions.map(([c, g]) => action(menuId, c, g)),
});

/** Three pages, given out of order: form (view, add, edit, management), role (view, assign-roles), help (view). */
export function sampleTree(): MenuNode[] {
  nextId = 100;
  const role = menu(2, 'role', 30, [
    ['assign-roles', 206],
    ['view', 201],
  ]);
  const form = menu(1, 'form', 10, [
    ['management', 206],
    ['view', 201],
    ['add', 202],
    ['edit', 202],
  ]);
  const help = menu(3, 'help', 20, [['view', 201]]);
  return [role, form, help];
}

export type FetchCall = { method: string; path: string; body: unknown };

/** A fake server for request(): `answer(call)` is the envelope (or only its data when it has no `code`). */
export function fakeFetch(answer: (call: FetchCall) => unknown) {
  const calls: FetchCall[] = [];
  const fetch = vi.fn(async (url: string, init?: RequestInit) => {
    const u = new URL(url, 'http://localhost');
    const call = { method: init?.method ?? 'GET', path: u.pathname, body: init?.body ? JSON.parse(String(init.body)) : undefined };
    calls.push(call);
    const given = answer(call) as { code?: number } | undefined;
    const envelope = given && typeof given === 'object' && 'code' in given ? given : { code: 200, msg: 'ok', data: given ?? null };
    const status = envelope.code === 200 || envelope.code === 201 ? 200 : 400;
    return { ok: status < 400, status, headers: { get: () => 'application/json' }, json: async () => envelope } as unknown as Response;
  });
  vi.stubGlobal('fetch', fetch);
  return calls;
}
