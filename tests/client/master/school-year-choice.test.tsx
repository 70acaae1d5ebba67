import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { AdminContext, memoryStore, testDataProvider, TestMemoryRouter, type DataProvider } from 'react-admin';
import { i18nProvider } from '../../../src/client/providers/i18nProvider';
import { student } from '../../../src/client/master/generated/resources';
import { authFor } from '../support/auth';

/**
 * The student list, record and import choose a school year: the current one unless
 * another is chosen, so next year's classes and numbers can be entered before it begins.
 */

const YEARS = [
  { id: 12, name: '2026-2027', beginDate: '2026-09-01', endDate: '2027-08-31', yearStatus: '0' },
  { id: 11, name: '2025-2026', beginDate: '2025-09-01', endDate: '2026-08-31', yearStatus: '1' },
];
const CLASSES = [{ id: 31, code: '3A', nameHk: '三年甲班', nameEn: '3A', gradeId: 3 }, { id: 41, code: '4A', nameHk: '四年甲班', nameEn: '4A', gradeId: 4 }];
/** the same pupil in 3A this year and in 4A next year */
const pupil = (year?: string) => ({
  id: 5, code: 'S005', username: 'chan', nameHk: '陳大文', nameEn: 'Chan Tai Man', email: null, status: '1', leaveDate: null,
  ...(year === '12' ? { classId: 41, studentNumber: 7 } : { classId: 31, studentNumber: 12 }),
});

function fakeData() {
  return testDataProvider({
    getList: vi.fn(async (resource: string, { filter }: { filter: Record<string, unknown> }) =>
      resource === 'students' ? { data: [pupil(filter.schoolYearId as string | undefined)], total: 1 } : { data: CLASSES, total: CLASSES.length }) as never,
    getMany: vi.fn(async (_r: string, { ids }: { ids: unknown[] }) => ({ data: CLASSES.filter((c) => ids.map(String).includes(String(c.id))) })) as never,
    getOne: vi.fn(async (_r: string, { meta }: { meta?: { schoolYearId?: string } }) => ({ data: pupil(meta?.schoolYearId) })) as never,
    update: vi.fn(async (_r: string, { id, data }: { id: unknown; data: object }) => ({ data: { id, ...data } })) as never,
    create: vi.fn(async (_r: string, { data }: { data: object }) => ({ data: { id: 6, ...data } })) as never,
  });
}

const auth = (permissions: string[]) => authFor(permissions, { id: 1, fullName: 'Admin', years: YEARS, currentYear: { id: 11, name: '2025-2026' } });
const ALL = ['view', 'add', 'edit', 'delete', 'import', 'export'].map((a) => `student.${a}`);

let location: { pathname: string; search: string } = { pathname: '', search: '' };
function renderAt(path: string, element: ReactNode, data: DataProvider) {
  return render(
    <TestMemoryRouter initialEntries={[path]} locationCallback={(l) => (location = l)}>
      <AdminContext dataProvider={data} authProvider={auth(ALL)} i18nProvider={i18nProvider} store={memoryStore()}>
        {element}
      </AdminContext>
    </TestMemoryRouter>,
  );
}

/** Opens an MUI select by its label and picks an option. */
async function choose(select: HTMLElement, option: string) {
  fireEvent.mouseDown(within(select).getByRole('combobox'));
  fireEvent.click(await screen.findByRole('option', { name: option }));
}

beforeEach(async () => {
  // a wide screen: the layout's mobile mode starts below 1024 px, jsdom's own width
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: 1280 });
  await i18nProvider.changeLocale('zh-hk');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the school year of the student screens', () => {
  it('lists the current year by default; another year chosen lists that year and opens its records in it', async () => {
    const data = fakeData();
    renderAt('/master/students/list', <student.List />, data);
    await screen.findByText('陳大文');
    const filter = screen.getByTestId('school-year-filter');
    expect(within(filter).getByRole('combobox').textContent).toBe('目前學年（2025-2026）');
    expect(data.getList).toHaveBeenCalledWith('students', expect.objectContaining({ filter: {} }));
    await choose(filter, '2026-2027');
    await waitFor(() => expect(data.getList).toHaveBeenCalledWith('students', expect.objectContaining({ filter: { schoolYearId: 12 } })));
    fireEvent.click(await screen.findByText('陳大文'));
    await waitFor(() => expect(location).toMatchObject({ pathname: '/master/students/view', search: '?id=5&schoolYearId=12' }));
  });

  it("shows and saves a record's class and number of the year in its address, and switches year there", async () => {
    const data = fakeData();
    renderAt('/master/students/edit?id=5&schoolYearId=12', <student.Screen type="edit" />, data);
    await waitFor(() => expect(data.getOne).toHaveBeenCalledWith('students', expect.objectContaining({ id: '5', meta: { schoolYearId: '12' } })));
    const year = await screen.findByTestId('school-year-screen');
    expect(within(year).getByRole('combobox').textContent).toBe('2026-2027');
    await waitFor(() => expect((screen.getByLabelText(/班號/) as HTMLInputElement).value).toBe('7'));
    fireEvent.change(screen.getByLabelText(/班號/), { target: { value: '8' } });
    fireEvent.click(screen.getByTestId('master-save'));
    await waitFor(() => expect(data.update).toHaveBeenCalledWith('students', expect.objectContaining({ id: '5', meta: { schoolYearId: '12' } })));
    expect((vi.mocked(data.update).mock.calls[0][1] as { data: Record<string, unknown> }).data).toMatchObject({ studentNumber: 8 });
  });

  it('a record opened without a year is the current year; choosing another reloads it for that year', async () => {
    const data = fakeData();
    renderAt('/master/students/view?id=5', <student.Screen type="view" />, data);
    await waitFor(() => expect((screen.getByLabelText(/班號/) as HTMLInputElement).value).toBe('12'));
    const year = screen.getByTestId('school-year-screen');
    expect(within(year).getByRole('combobox').textContent).toBe('目前學年（2025-2026）');
    await choose(year, '2026-2027');
    await waitFor(() => expect(location.search).toBe('?id=5&schoolYearId=12'));
    await waitFor(() => expect((screen.getByLabelText(/班號/) as HTMLInputElement).value).toBe('7'));
    fireEvent.click(screen.getByTestId('master-edit'));
    await waitFor(() => expect(location).toMatchObject({ pathname: '/master/students/edit', search: '?id=5&schoolYearId=12' }));
  });

  it("imports into the list's year unless another is chosen in the dialog", async () => {
    const opened: string[] = [];
    vi.stubGlobal('XMLHttpRequest', class {
      upload = {};
      status = 200;
      responseText = JSON.stringify({ code: 200, msg: 'success', data: { imported: 1, added: 1, updated: 0, skipped: 0 } });
      onload?: () => void;
      open(_method: string, url: string) { opened.push(url); }
      setRequestHeader() {}
      send() { setTimeout(() => this.onload?.(), 0); }
    });
    const data = fakeData();
    renderAt('/master/students/list', <student.List />, data);
    await screen.findByText('陳大文');
    await choose(screen.getByTestId('school-year-filter'), '2026-2027');
    await waitFor(() => expect(data.getList).toHaveBeenCalledWith('students', expect.objectContaining({ filter: { schoolYearId: 12 } })));
    fireEvent.click(await screen.findByTestId('master-import'));
    const dialog = await screen.findByTestId('import-dialog');
    expect(within(within(dialog).getByTestId('import-school-year')).getByRole('combobox').textContent).toBe('2026-2027');
    expect(within(dialog).getByText('檔案中的班別及學號會儲存於此學年；其他欄位不分學年。')).toBeTruthy();
    fireEvent.change(within(dialog).getByTestId('import-file'), { target: { files: [new File(['x'], 'students.xlsx')] } });
    fireEvent.click(within(dialog).getByTestId('import-upload'));
    await waitFor(() => expect(opened).toHaveLength(1));
    expect(opened[0]).toMatch(/\/v1\/students\/import\?existing=refuse&schoolYearId=12$/);

    fireEvent.click(await screen.findByTestId('master-import'));
    const again = await screen.findByTestId('import-dialog');
    await choose(within(again).getByTestId('import-school-year'), '目前學年（2025-2026）');
    fireEvent.change(within(again).getByTestId('import-file'), { target: { files: [new File(['x'], 'students.xlsx')] } });
    fireEvent.click(within(again).getByTestId('import-upload'));
    await waitFor(() => expect(opened).toHaveLength(2));
    expect(opened[1]).toMatch(/\/v1\/students\/import\?existing=refuse$/);
  });
});
