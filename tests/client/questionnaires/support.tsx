import type { ReactNode } from 'react';
import { vi } from 'vitest';
import { render } from '@testing-library/react';
import { AdminContext, memoryStore, testDataProvider, TestMemoryRouter, type DataProvider } from 'react-admin';
import { i18nProvider } from '../../../src/client/providers/i18nProvider';
import type { Questionnaire } from '../../../src/shared/questionnaire/types';
import { authFor as authWith } from '../support/auth';

export const ALL_FORM = ['view', 'add', 'edit', 'delete', 'management'].map((a) => `form.${a}`);
export const ME = { id: 7, nameHk: '李老師', nameEn: 'Lee' };

export function questionnaire(over: Partial<Questionnaire> = {}): Questionnaire {
  return {
    id: 1,
    title: '家長日意見調查',
    titleTranslation: null,
    languages: ['zh-hk'],
    schoolYearId: 3,
    inChargeId: ME.id,
    inCharge: ME,
    assistantIds: [],
    type: 'NAMED',
    status: 'PREPARING',
    openDate: '2025-03-01T01:00:00.000Z',
    endDate: '2025-03-20T09:00:00.000Z',
    createDate: '2025-02-20T02:00:00.000Z',
    lastNoticeTime: null,
    targets: [],
    audienceCount: 0,
    submittedCount: 0,
    respondentCount: 0,
    hasReplies: false,
    mayEdit: true,
    ...over,
  };
}

export const authFor = (permissions: string[]) =>
  authWith(permissions, {
    ...ME,
    fullName: ME.nameHk,
    years: [
      { id: 2, name: '2023-2024' },
      { id: 3, name: '2024-2025' },
    ],
    currentYear: { id: 3, name: '2024-2025' },
  });

export function fakeData(records: Questionnaire[], overrides: Partial<DataProvider> = {}) {
  return testDataProvider({
    getList: vi.fn(async () => ({ data: records, total: records.length })) as never,
    getOne: vi.fn(async (_r: string, { id }: { id: unknown }) => ({ data: records.find((r) => String(r.id) === String(id))! })) as never,
    create: vi.fn(async (_r: string, { data }: { data: object }) => ({ data: { ...questionnaire({ id: 9 }), ...data } })) as never,
    update: vi.fn(async (_r: string, { id, data }: { id: unknown; data: object }) => ({ data: { ...records.find((r) => String(r.id) === String(id))!, ...data } })) as never,
    ...overrides,
  });
}

export type Answer = { status?: number; code?: number; msg?: string; data?: unknown };
export type FetchCall = { method: string; path: string; query: URLSearchParams; body: unknown };

/**
 * A fake server for request(): `answer(call)` gives the envelope's data (or a failure);
 * every call is recorded with its path, query and JSON body.
 */
export function fakeFetch(answer: (call: FetchCall) => Answer | unknown) {
  const calls: FetchCall[] = [];
  const fetch = vi.fn(async (url: string, init?: RequestInit) => {
    const u = new URL(url, 'http://localhost');
    const call = { method: init?.method ?? 'GET', path: u.pathname, query: u.searchParams, body: init?.body ? JSON.parse(String(init.body)) : undefined };
    calls.push(call);
    const given = answer(call);
    const failure = given && typeof given === 'object' && 'code' in (given as object) ? (given as Answer) : null;
    const status = failure?.status ?? 200;
    const envelope = failure ? { code: failure.code, msg: failure.msg ?? '', data: failure.data ?? null } : { code: 200, msg: 'ok', data: given ?? null };
    return { ok: status < 400, status, headers: { get: () => 'application/json' }, json: async () => envelope } as unknown as Response;
  });
  vi.stubGlobal('fetch', fetch);
  return calls;
}

export let location: { pathname: string; search: string } = { pathname: '', search: '' };

export function renderAt(path: string, element: ReactNode, dataProvider: DataProvider, permissions = ALL_FORM) {
  return render(
    <TestMemoryRouter initialEntries={[path]} locationCallback={(l) => (location = l)}>
      <AdminContext dataProvider={dataProvider} authProvider={authFor(permissions)} i18nProvider={i18nProvider} store={memoryStore()}>
        {element}
      </AdminContext>
    </TestMemoryRouter>,
  );
}
