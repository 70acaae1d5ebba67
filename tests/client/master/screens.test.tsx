import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { AdminContext, HttpError, memoryStore, testDataProvider, TestMemoryRouter, type DataProvider } from 'react-admin';
import { i18nProvider } from '../../../src/client/providers/i18nProvider';
import { teacher } from '../../../src/client/master/generated/resources';
import { ImportDialog } from '../../../src/client/master/ImportButton';
import { authFor } from '../support/auth';

const TEACHERS = [
  { id: 1, code: 'T01', username: 'lee', nameHk: '李老師', nameEn: 'Lee', abbr: 'LE', status: '1', positionId: 7, email: 'lee@school.hk', seq: 1, googleMail: 'lee@gmail.com' },
  { id: 2, code: 'T02', username: 'wong', nameHk: '黃老師', nameEn: 'Wong', abbr: null, status: '0', positionId: null, email: null, seq: 2, googleMail: null },
];
const POSITIONS = [{ id: 7, code: 'P', nameHk: '校長', nameEn: 'Principal' }];
const ALL = ['view', 'add', 'edit', 'delete', 'import', 'export'].map((a) => `teacher.${a}`);

function fakeData(overrides: Partial<DataProvider> = {}) {
  return testDataProvider({
    getList: vi.fn(async (resource: string) => (resource === 'teachers' ? { data: TEACHERS, total: 2 } : { data: POSITIONS, total: 1 })) as never,
    getMany: vi.fn(async (_resource: string, { ids }: { ids: unknown[] }) => ({ data: POSITIONS.filter((p) => ids.map(String).includes(String(p.id))) })) as never,
    getOne: vi.fn(async (_resource: string, { id }: { id: unknown }) => ({ data: TEACHERS.find((t) => String(t.id) === String(id))! })) as never,
    create: vi.fn(async (_resource: string, { data }: { data: object }) => ({ data: { id: 3, ...data } })) as never,
    update: vi.fn(async (_resource: string, { id, data }: { id: unknown; data: object }) => ({ data: { id, ...data } })) as never,
    delete: vi.fn(async (_resource: string, { previousData }: { previousData: unknown }) => ({ data: previousData })) as never,
    ...overrides,
  });
}


let location: { pathname: string; search: string } = { pathname: '', search: '' };

function renderAt(path: string, element: ReactNode, dataProvider: DataProvider, permissions = ALL) {
  return render(
    <TestMemoryRouter initialEntries={[path]} locationCallback={(l) => (location = l)}>
      <AdminContext dataProvider={dataProvider} authProvider={authFor(permissions)} i18nProvider={i18nProvider} store={memoryStore()}>
        {element}
      </AdminContext>
    </TestMemoryRouter>,
  );
}

const headers = () => [...document.querySelectorAll('thead th')].map((th) => th.textContent?.trim());

/** The layout's mobile mode starts below 1024 px (jsdom's own width): a wide screen unless a test says otherwise. */
const setWidth = (width: number) => Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });

beforeEach(async () => {
  await i18nProvider.changeLocale('zh-hk');
  setWidth(1280);
});
afterEach(cleanup);

describe('the generated teacher list', () => {
  it('shows the columns of meta.columns, typed: enum chips, the position by name, and loads page 1 of 20 in the default sort', async () => {
    const data = fakeData();
    renderAt('/master/teachers/list', <teacher.List />, data);
    await screen.findByText('李老師');
    expect(headers()).toEqual(['教師編號', '帳號', '中文姓名', '英文姓名', '簡稱', '職位', '狀態', '電郵', '排序', '操作']);
    expect(await screen.findByText('校長')).toBeTruthy();
    const rows = screen.getAllByRole('row').slice(1);
    expect(within(rows[0]).getByText('在職')).toBeTruthy();
    expect(within(rows[1]).getByText('離職')).toBeTruthy();
    expect(data.getList).toHaveBeenCalledWith('teachers', expect.objectContaining({ pagination: { page: 1, perPage: 20 }, sort: { field: 'seq', order: 'ASC' }, filter: {} }));
    // the search box and the filters of meta.filters (status, position)
    expect(screen.getByPlaceholderText('搜尋')).toBeTruthy();
    expect(screen.getAllByLabelText('狀態').length).toBeGreaterThan(0);
    expect(screen.getByTestId('master-add')).toBeTruthy();
    expect(screen.getByTestId('master-import')).toBeTruthy();
    expect(screen.getByTestId('master-export')).toBeTruthy();
    expect(screen.getAllByTestId('row-edit')).toHaveLength(2);
    expect(screen.getAllByTestId('row-delete')).toHaveLength(2);
  });

  it('a row opens the record; the edit icon its edit screen', async () => {
    renderAt('/master/teachers/list', <teacher.List />, fakeData());
    fireEvent.click(await screen.findByText('黃老師'));
    await waitFor(() => expect(location).toMatchObject({ pathname: '/master/teachers/view', search: '?id=2' }));
  });

  it('the edit icon goes to the edit screen without opening the record', async () => {
    renderAt('/master/teachers/list', <teacher.List />, fakeData());
    await screen.findByText('李老師');
    fireEvent.click(screen.getAllByTestId('row-edit')[0]);
    await waitFor(() => expect(location).toMatchObject({ pathname: '/master/teachers/edit', search: '?id=1' }));
  });

  it('offers only what the user may do', async () => {
    renderAt('/master/teachers/list', <teacher.List />, fakeData(), ['teacher.view']);
    await screen.findByText('李老師');
    expect(screen.queryByTestId('master-add')).toBeNull();
    expect(screen.queryByTestId('master-import')).toBeNull();
    expect(screen.queryByTestId('master-export')).toBeNull();
    expect(screen.queryByTestId('row-delete')).toBeNull();
    expect(headers()).not.toContain('操作');
  });

  it('says "no data" when there is none', async () => {
    renderAt('/master/teachers/list', <teacher.List />, fakeData({ getList: (async () => ({ data: [], total: 0 })) as never }));
    expect((await screen.findByTestId('no-data')).textContent).toBe('沒有資料');
  });

  it('is cards on a phone: the name as the title, enums as chips, the other columns as labelled lines; the filters behind one button; a card opens its record', async () => {
    setWidth(360);
    renderAt('/master/teachers/list', <teacher.List />, fakeData());
    const cards = await screen.findAllByTestId('master-card');
    expect(cards).toHaveLength(2);
    expect(document.querySelector('table')).toBeNull();
    expect(within(cards[0]).getByRole('heading').textContent).toBe('李老師');
    expect(within(cards[0]).getByText('在職')).toBeTruthy();
    expect(await within(cards[0]).findByText('校長')).toBeTruthy();
    expect(within(cards[0]).getByText(/^職位：/)).toBeTruthy();
    // the search box stays; status and position wait behind the filter button
    expect(screen.getByPlaceholderText('搜尋')).toBeTruthy();
    expect(screen.queryByLabelText('狀態')).toBeNull();
    expect(screen.getByTestId('master-filters')).toBeTruthy();
    fireEvent.click(cards[1].querySelector('.MuiCardActionArea-root')!);
    await waitFor(() => expect(location).toMatchObject({ pathname: '/master/teachers/view', search: '?id=2' }));
  });

  it('on a phone each card has its edit and delete, as the user may; delete asks first and deletes that record', async () => {
    setWidth(360);
    const data = fakeData();
    renderAt('/master/teachers/list', <teacher.List />, data);
    const cards = await screen.findAllByTestId('master-card');
    expect(within(cards[0]).getByRole('button', { name: '編輯' })).toBeTruthy();
    fireEvent.click(within(cards[1]).getByRole('button', { name: '刪除' }));
    const dialog = await screen.findByRole('dialog');
    expect(data.delete).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('button', { name: /刪除/ }));
    await waitFor(() => expect(data.delete).toHaveBeenCalledWith('teachers', expect.objectContaining({ id: 2 })));
    // the card was not opened on the way
    expect(location.pathname).toBe('/master/teachers/list');
    cleanup();
    renderAt('/master/teachers/list', <teacher.List />, fakeData(), ['teacher.view']);
    const viewOnly = await screen.findAllByTestId('master-card');
    expect(within(viewOnly[0]).queryByTestId('row-edit')).toBeNull();
    expect(within(viewOnly[0]).queryByTestId('row-delete')).toBeNull();
  });

  it('shows names in the current language', async () => {
    await i18nProvider.changeLocale('en');
    renderAt('/master/teachers/list', <teacher.List />, fakeData());
    expect(await screen.findByText('Principal')).toBeTruthy();
    expect(headers()).toContain('Teacher code');
    expect(screen.getByText('On the job')).toBeTruthy();
  });

  it('a record in use (708) is explained, and with cascade allowed a stronger confirmation deletes it with its related records', async () => {
    const del = vi.fn(async (_r: string, params: { meta?: { cascade?: boolean }; previousData: unknown }) => {
      if (!params.meta?.cascade) throw new HttpError('此教師仍屬於 2 個教師組別', 409, { code: 708, data: { cascade: true } });
      return { data: params.previousData };
    });
    renderAt('/master/teachers/list', <teacher.List />, fakeData({ delete: del as never }));
    await screen.findByText('李老師');
    fireEvent.click(screen.getAllByTestId('row-delete')[0]);
    expect(await screen.findByText('確定刪除此記錄？')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '刪除' }));
    const inUse = await screen.findByTestId('in-use-dialog');
    expect(within(inUse).getByText('此教師仍屬於 2 個教師組別')).toBeTruthy();
    fireEvent.click(within(inUse).getByTestId('delete-cascade'));
    expect(await screen.findByText('連同所有相關記錄一併刪除？此操作無法還原。')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '連同所有相關記錄一併刪除' }));
    await waitFor(() => expect(del).toHaveBeenCalledTimes(2));
    expect(del.mock.calls[1][1]).toMatchObject({ id: 1, meta: { cascade: true } });
    expect(location.pathname).toBe('/master/teachers/list');
  });
});

describe('the generated teacher screen', () => {
  const field = (name: RegExp | string) => screen.getByRole('textbox', { name });

  it('add: the writable fields with their inputs, no read-only ones; "required" on blur; the e-mail rule', async () => {
    renderAt('/master/teachers/add', <teacher.Screen type="add" />, fakeData());
    await screen.findByRole('textbox', { name: /教師編號/ });
    for (const label of [/教師編號/, /帳號/, /中文姓名/, /英文姓名/, /簡稱/, /電郵/]) expect(field(label)).toBeTruthy();
    expect(screen.getByLabelText(/^密碼/)).toHaveProperty('type', 'password');
    expect(screen.getByRole('combobox', { name: /職位/ })).toBeTruthy();
    expect(screen.getByRole('spinbutton', { name: /排序/ })).toBeTruthy();
    expect(screen.getAllByText(/狀態/).length).toBeGreaterThan(0);
    // the Google address is typed by the administrator, checked as an e-mail address
    expect(field(/Google 帳戶/)).toBeTruthy();

    fireEvent.focus(field(/教師編號/));
    fireEvent.blur(field(/教師編號/));
    expect(await screen.findByText('必填')).toBeTruthy();

    fireEvent.change(field(/電郵/), { target: { value: 'not-an-address' } });
    fireEvent.blur(field(/電郵/));
    expect(await screen.findByText('請輸入正確的電郵地址')).toBeTruthy();
  });

  it('add: saves only the create schema fields, then returns to the list', async () => {
    const data = fakeData();
    renderAt('/master/teachers/add', <teacher.Screen type="add" />, data);
    await screen.findByRole('textbox', { name: /教師編號/ });
    fireEvent.change(field(/教師編號/), { target: { value: 'T09' } });
    fireEvent.change(field(/帳號/), { target: { value: 'chan' } });
    fireEvent.change(screen.getByLabelText(/^密碼/), { target: { value: 'secret1' } });
    fireEvent.change(field(/中文姓名/), { target: { value: '陳老師' } });
    fireEvent.change(field(/英文姓名/), { target: { value: 'Chan' } });
    fireEvent.click(screen.getByTestId('master-save'));
    await waitFor(() => expect(data.create).toHaveBeenCalled());
    expect(vi.mocked(data.create).mock.calls[0][1].data).toEqual({ code: 'T09', username: 'chan', password: 'secret1', nameHk: '陳老師', nameEn: 'Chan', status: '1', seq: 0 });
    await waitFor(() => expect(location.pathname).toBe('/master/teachers/list'));
  });

  it('edit: loads ?id=, no password input but a reset-password button; the server’s 422 field errors land on their fields', async () => {
    const update = vi.fn(async () => {
      throw new HttpError('驗證失敗', 422, { code: 422, errors: { username: '帳號「wong」已被使用' } });
    });
    const data = fakeData({ update: update as never });
    renderAt('/master/teachers/edit?id=1', <teacher.Screen type="edit" />, data);
    await waitFor(() => expect(field(/帳號/)).toHaveProperty('value', 'lee'));
    expect(data.getOne).toHaveBeenCalledWith('teachers', expect.objectContaining({ id: '1' }));
    expect(screen.queryByLabelText(/^密碼/)).toBeNull();
    expect(screen.getByTestId('reset-password')).toBeTruthy();
    fireEvent.change(field(/帳號/), { target: { value: 'wong' } });
    fireEvent.click(screen.getByTestId('master-save'));
    expect(await screen.findByText('帳號「wong」已被使用')).toBeTruthy();
    expect(update).toHaveBeenCalledWith('teachers', expect.objectContaining({ id: '1', data: expect.objectContaining({ username: 'wong', googleMail: 'lee@gmail.com' }) }));
  });

  it('edit: the reset-password dialog checks length and the two entries', async () => {
    renderAt('/master/teachers/edit?id=1', <teacher.Screen type="edit" />, fakeData());
    fireEvent.click(await screen.findByTestId('reset-password'));
    fireEvent.change(screen.getByTestId('reset-password-new'), { target: { value: 'abc' } });
    fireEvent.change(screen.getByTestId('reset-password-confirm'), { target: { value: 'abd' } });
    fireEvent.click(screen.getByTestId('reset-password-submit'));
    expect(await screen.findByText('密碼長度須為 6 至 15 個字元')).toBeTruthy();
    expect(screen.getByText('兩次輸入的密碼不一致')).toBeTruthy();
  });

  it('view: the same form read-only, with the computed values, and an edit button for those who may edit', async () => {
    renderAt('/master/teachers/view?id=1', <teacher.Screen type="view" />, fakeData());
    await waitFor(() => expect(field(/帳號/)).toHaveProperty('value', 'lee'));
    expect(field(/帳號/)).toHaveProperty('disabled', true);
    expect(field(/Google 帳戶/)).toHaveProperty('value', 'lee@gmail.com');
    expect(screen.queryByTestId('master-save')).toBeNull();
    fireEvent.click(await screen.findByTestId('master-edit'));
    await waitFor(() => expect(location).toMatchObject({ pathname: '/master/teachers/edit', search: '?id=1' }));
  });
});

describe('the import dialog', () => {
  it('refuses anything but Excel before sending', async () => {
    renderAt('/master/teachers/list', <ImportDialog meta={teacher.meta} onClose={() => undefined} />, fakeData());
    const input = await screen.findByTestId('import-file');
    fireEvent.change(input, { target: { files: [new File(['a,b'], 'teachers.csv', { type: 'text/csv' })] } });
    expect((await screen.findByTestId('import-error')).textContent).toBe('只接受 Excel 檔案（.xlsx、.xls）');
    expect(screen.getByTestId('import-upload')).toHaveProperty('disabled', true);
    fireEvent.change(input, { target: { files: [new File(['x'], 'teachers.xlsx')] } });
    expect(await screen.findByText('teachers.xlsx')).toBeTruthy();
    expect(screen.queryByTestId('import-error')).toBeNull();
    expect(screen.getByTestId('import-upload')).toHaveProperty('disabled', false);
  });
});
