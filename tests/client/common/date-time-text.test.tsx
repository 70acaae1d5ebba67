import { useState, type ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AdminContext, Form, memoryStore, testDataProvider, TestMemoryRouter, type DataProvider } from 'react-admin';
import { i18nProvider } from '../../../src/client/providers/i18nProvider';
import { DateTimeText, dateTimeText, isDateTimeText, type DateTimeKind } from '../../../src/client/common/DateTimeText';
import { DayInput } from '../../../src/client/master/DayInput';
import { schoolYear } from '../../../src/client/master/generated/resources';
import { QuestionnaireScreen } from '../../../src/client/questionnaires/form/QuestionnaireScreen';
import { DayTimeInput } from '../../../src/client/questionnaires/form/DayTimeInput';
import { setSchoolTimeZone, toIso } from '../../../src/client/common/schoolClock';
import { fakeData, fakeFetch, renderAt } from '../questionnaires/support';
import { authFor } from '../support/auth';

afterEach(() => {
  cleanup();
  setSchoolTimeZone('Asia/Hong_Kong');
});
beforeEach(async () => {
  await i18nProvider.changeLocale('zh-hk');
});

describe('dateTimeText: what the field keeps of what was typed', () => {
  it('keeps our format as it is typed', () => {
    expect(dateTimeText('date', '2026-11')).toBe('2026-11');
    expect(dateTimeText('date', '2026-11-23')).toBe('2026-11-23');
    expect(dateTimeText('time', '16:5')).toBe('16:5');
    expect(dateTimeText('datetime', '2026-11-23 16:54')).toBe('2026-11-23 16:54');
    expect(dateTimeText('date', '')).toBe('');
  });

  it('puts the separators in as digits alone are typed (a phone keypad has no - or :)', () => {
    expect(dateTimeText('date', '20261123')).toBe('2026-11-23');
    expect(dateTimeText('time', '1654')).toBe('16:54');
    expect(dateTimeText('datetime', '202611231654')).toBe('2026-11-23 16:54');
    expect(dateTimeText('date', '2026')).toBe('2026');
    expect(dateTimeText('date', '20261')).toBe('2026-1');
    expect(dateTimeText('date', '2026112')).toBe('2026-11-2');
    expect(dateTimeText('time', '165')).toBe('16:5');
    expect(dateTimeText('datetime', '20261123')).toBe('2026-11-23');
    expect(dateTimeText('datetime', '202611231')).toBe('2026-11-23 1');
    expect(dateTimeText('date', '2026112399')).toBe('2026-11-23');
    // once a separator is typed, what is typed is kept as it is
    expect(dateTimeText('date', '2026-1123')).toBe('2026-1123');
  });

  it("takes the native picker's T as a space, and its seconds not at all", () => {
    expect(dateTimeText('datetime', '2026-11-23T16:54')).toBe('2026-11-23 16:54');
    expect(dateTimeText('datetime', '2026-11-23T16:54:30')).toBe('2026-11-23 16:54');
    expect(dateTimeText('time', '16:54:00')).toBe('16:54');
  });

  it('drops what is not a digit, -, : or a space, and what is past the format', () => {
    expect(dateTimeText('date', '2026/11/23')).toBe('2026-11-23');
    expect(dateTimeText('date', 'abc2026-11-23x')).toBe('2026-11-23');
    expect(dateTimeText('time', '4:54 PM')).toBe('4:54 ');
    expect(dateTimeText('date', '2026-11-234')).toBe('2026-11-23');
    expect(dateTimeText('datetime', '2026-11-23 16:54Z')).toBe('2026-11-23 16:54');
  });
});

describe('isDateTimeText: complete and real', () => {
  it.each<[DateTimeKind, string, boolean]>([
    ['date', '2026-11-23', true],
    ['date', '2028-02-29', true],
    ['date', '2026-02-29', false],
    ['date', '2026-02-30', false],
    ['date', '2026-13-01', false],
    ['date', '2026-11-2', false],
    ['date', '26-11-23', false],
    ['date', '', false],
    ['time', '00:00', true],
    ['time', '23:59', true],
    ['time', '24:00', false],
    ['time', '16:60', false],
    ['time', '9:05', false],
    ['datetime', '2026-11-23 16:54', true],
    ['datetime', '2026-11-23T16:54', false],
    ['datetime', '2026-02-30 10:00', false],
    ['datetime', '2026-11-23 24:00', false],
    ['datetime', '2026-11-23', false],
    ['datetime', '2026-11-23 16:54 ', false],
  ])('%s %j → %s', (kind, text, expected) => {
    expect(isDateTimeText(kind, text)).toBe(expected);
  });
});

describe('toIso', () => {
  it("reads yyyy-MM-dd HH:mm on the school's clock, like the T form, whatever the browser's zone; an ISO timestamp as it is", () => {
    expect(toIso('2026-11-23 16:54')).toBe('2026-11-23T08:54:00.000Z');
    expect(toIso('2026-11-23T16:54')).toBe('2026-11-23T08:54:00.000Z');
    expect(toIso('2026-11-23T08:54:00.000Z')).toBe('2026-11-23T08:54:00.000Z');
    expect(toIso('')).toBeNull();
    expect(toIso('2026-02-30 10:00')).toBeNull();
    setSchoolTimeZone('America/New_York');
    expect(toIso('2026-11-23 16:54')).toBe('2026-11-23T21:54:00.000Z');
    expect(toIso('2026-07-01 16:54')).toBe('2026-07-01T20:54:00.000Z');
  });
});

/** The field with its own state, as a screen holds it. */
function Field({ kind, initial = '', disabled }: { kind: DateTimeKind; initial?: string; disabled?: boolean }) {
  const [text, setText] = useState(initial);
  return <DateTimeText kind={kind} label="日子" value={text} onChange={setText} disabled={disabled} htmlInput={{ 'data-testid': 'field' }} />;
}

const renderField = (kind: DateTimeKind, initial?: string, disabled?: boolean) =>
  render(
    <AdminContext i18nProvider={i18nProvider}>
      <Field kind={kind} initial={initial} disabled={disabled} />
    </AdminContext>,
  );

const field = () => screen.getByTestId('field') as HTMLInputElement;
const native = (container: HTMLElement, type: string) => container.querySelector(`input[type="${type}"]`) as HTMLInputElement;

describe('DateTimeText', () => {
  it('shows what is typed in our format, with the format as its placeholder and a numeric keypad', () => {
    renderField('date');
    expect(field().placeholder).toBe('年-月-日');
    expect(field().type).toBe('text');
    expect(field().inputMode).toBe('numeric');
    fireEvent.change(field(), { target: { value: '20261123' } });
    expect(field().value).toBe('2026-11-23');
    fireEvent.change(field(), { target: { value: '2026/12/01' } });
    expect(field().value).toBe('2026-12-01');
    fireEvent.change(field(), { target: { value: '2026-12-0' } });
    expect(field().value).toBe('2026-12-0');
  });

  it('names its picker button in zh-hk and in English', async () => {
    renderField('date');
    expect(screen.getByRole('button', { name: '選擇日期' })).toBeTruthy();
    cleanup();
    renderField('time');
    expect(screen.getByRole('button', { name: '選擇時間' })).toBeTruthy();
    cleanup();
    await i18nProvider.changeLocale('en');
    renderField('datetime');
    expect(screen.getByRole('button', { name: 'Choose a date' })).toBeTruthy();
    cleanup();
    renderField('time');
    expect(screen.getByRole('button', { name: 'Choose a time' })).toBeTruthy();
  });

  it("opens the native picker of a hidden native input, and takes the picker's choice as text", () => {
    const { container } = renderField('datetime', '2026-11-23 16:54');
    const picker = native(container, 'datetime-local');
    expect(picker.value).toBe('2026-11-23T16:54');
    expect(picker.tabIndex).toBe(-1);
    expect(picker.getAttribute('aria-hidden')).toBe('true');
    const showPicker = vi.fn();
    Object.defineProperty(picker, 'showPicker', { value: showPicker });
    fireEvent.click(screen.getByRole('button', { name: '選擇日期' }));
    expect(showPicker).toHaveBeenCalled();
    fireEvent.change(picker, { target: { value: '2026-12-01T08:05' } });
    expect(field().value).toBe('2026-12-01 08:05');
    // an incomplete text has no native value
    fireEvent.change(field(), { target: { value: '2026-12-01 08:' } });
    expect(picker.value).toBe('');
  });

  it('a time from the picker, and a browser without showPicker focuses the text instead', () => {
    const { container } = renderField('time');
    fireEvent.change(native(container, 'time'), { target: { value: '16:54' } });
    expect(field().value).toBe('16:54');
    Object.defineProperty(native(container, 'time'), 'showPicker', {
      value: () => {
        throw new Error('not supported');
      },
    });
    fireEvent.click(screen.getByRole('button', { name: '選擇時間' }));
    expect(document.activeElement).toBe(field());
  });

  it('has no picker button when disabled', () => {
    const { container } = renderField('date', '2026-11-23', true);
    expect(screen.queryByRole('button')).toBeNull();
    expect(native(container, 'date')).toBeNull();
    expect(field().value).toBe('2026-11-23');
  });
});

describe('the react-admin inputs', () => {
  it('DayTimeInput shows an ISO value in our format, takes a T form, and says what a wrong text should be', async () => {
    const iso = '2026-11-23T08:54:00.000Z';
    const onSubmit = vi.fn();
    render(
      <AdminContext i18nProvider={i18nProvider}>
        <Form record={{ openDate: iso }} onSubmit={onSubmit} mode="onBlur">
          <DayTimeInput source="openDate" label="開始日期" />
          <button type="submit">go</button>
        </Form>
      </AdminContext>,
    );
    const input = (await screen.findByRole('textbox', { name: '開始日期' })) as HTMLInputElement;
    expect(input.name).toBe('openDate');
    // 08:54 UTC is 16:54 on the school's clock (Hong Kong)
    expect(input.value).toBe('2026-11-23 16:54');
    fireEvent.change(input, { target: { value: '2026-11-23T16:54' } });
    expect(input.value).toBe('2026-11-23 16:54');
    fireEvent.change(input, { target: { value: '2026-02-30 10:00' } });
    fireEvent.blur(input);
    expect(await screen.findByText('請以 年-月-日 時:分 格式輸入（24 小時制，例如 2026-09-01 08:30）')).toBeTruthy();
    fireEvent.change(input, { target: { value: '2026-12-01 09:30' } });
    await waitFor(() => expect(screen.queryByText('請以 年-月-日 時:分 格式輸入（24 小時制，例如 2026-09-01 08:30）')).toBeNull());
    fireEvent.click(screen.getByText('go'));
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(onSubmit.mock.calls[0][0]).toMatchObject({ openDate: '2026-12-01 09:30' });
    expect(toIso(onSubmit.mock.calls[0][0].openDate)).toBe('2026-12-01T01:30:00.000Z');
  });

  it('DayInput holds yyyy-MM-dd or null, and names the format of a wrong text', async () => {
    const onSubmit = vi.fn();
    render(
      <AdminContext i18nProvider={i18nProvider}>
        <Form record={{ birthday: '1985-04-02' }} onSubmit={onSubmit} mode="onBlur">
          <DayInput source="birthday" label="出生日期" />
          <button type="submit">go</button>
        </Form>
      </AdminContext>,
    );
    const input = (await screen.findByRole('textbox', { name: '出生日期' })) as HTMLInputElement;
    expect(input.value).toBe('1985-04-02');
    fireEvent.change(input, { target: { value: '1985-04' } });
    fireEvent.blur(input);
    expect(await screen.findByText('請以 年-月-日 格式輸入日期（例如 2026-09-01）')).toBeTruthy();
    fireEvent.click(screen.getByText('go'));
    await new Promise((r) => setTimeout(r, 50));
    expect(onSubmit).not.toHaveBeenCalled();
    fireEvent.change(input, { target: { value: '' } });
    fireEvent.click(screen.getByText('go'));
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(onSubmit.mock.calls[0][0]).toMatchObject({ birthday: null });
  });
});

describe('the screens that use them', () => {
  const renderScreen = (path: string, element: ReactNode, dataProvider: DataProvider, permissions: string[]) =>
    render(
      <TestMemoryRouter initialEntries={[path]}>
        <AdminContext dataProvider={dataProvider} authProvider={authFor(permissions)} i18nProvider={i18nProvider} store={memoryStore()}>
          {element}
        </AdminContext>
      </TestMemoryRouter>,
    );

  it("a master form's day: the schema's resolver checks it, the message names the format", async () => {
    const create = vi.fn(async (_r: string, { data }: { data: object }) => ({ data: { id: 5, ...data } }));
    const data = testDataProvider({ getList: (async () => ({ data: [], total: 0 })) as never, create: create as never });
    renderScreen('/master/years/add', <schoolYear.Screen type="add" />, data, ['view', 'add', 'edit'].map((a) => `schoolYear.${a}`));
    const begin = (await screen.findByRole('textbox', { name: /開始日期/ })) as HTMLInputElement;
    const end = screen.getByRole('textbox', { name: /結束日期/ }) as HTMLInputElement;
    expect(begin.placeholder).toBe('年-月-日');
    fireEvent.change(document.querySelector('input[name="name"]')!, { target: { value: '2026-2027' } });
    fireEvent.change(begin, { target: { value: '2026-09' } });
    fireEvent.blur(begin);
    expect(await screen.findByText('請以 年-月-日 格式輸入日期（例如 2026-09-01）')).toBeTruthy();
    fireEvent.change(begin, { target: { value: '20260901' } });
    expect(begin.value).toBe('2026-09-01');
    await waitFor(() => expect(screen.queryByText('請以 年-月-日 格式輸入日期（例如 2026-09-01）')).toBeNull());
    fireEvent.change(end, { target: { value: '2027-08-31' } });
    fireEvent.click(screen.getByTestId('master-save'));
    await waitFor(() => expect(create).toHaveBeenCalled());
    expect(create.mock.calls[0][1].data).toMatchObject({ name: '2026-2027', beginDate: '2026-09-01', endDate: '2027-08-31' });
  });

  it("the questionnaire form: a wrong open date is named and not saved; a T form is read on the school's clock", async () => {
    fakeFetch(() => null);
    const data = fakeData([]);
    renderAt('/forms/add', <QuestionnaireScreen type="add" />, data);
    fireEvent.change(await screen.findByRole('textbox', { name: /標題/ }), { target: { value: '新問卷' } });
    const open = screen.getByRole('textbox', { name: /開始日期/ }) as HTMLInputElement;
    expect(open.name).toBe('openDate');
    fireEvent.change(open, { target: { value: '2026-11-23 16' } });
    fireEvent.blur(open);
    expect(await screen.findByText('請以 年-月-日 時:分 格式輸入（24 小時制，例如 2026-09-01 08:30）')).toBeTruthy();
    fireEvent.click(screen.getByTestId('q-save'));
    await new Promise((r) => setTimeout(r, 50));
    expect(data.create).not.toHaveBeenCalled();
    fireEvent.change(open, { target: { value: '2026-11-23T16:54' } });
    expect(open.value).toBe('2026-11-23 16:54');
    fireEvent.click(screen.getByTestId('q-save'));
    await waitFor(() => expect(data.create).toHaveBeenCalled());
    expect(vi.mocked(data.create).mock.calls[0][1].data).toMatchObject({ openDate: '2026-11-23T08:54:00.000Z' });
    vi.unstubAllGlobals();
  });
});
