import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AdminContext, memoryStore, testDataProvider, TestMemoryRouter, type AuthProvider, type DataProvider } from 'react-admin';
import { i18nProvider } from '../../../src/client/providers/i18nProvider';
import { student, teacher } from '../../../src/client/master/generated/resources';
import { LoginScreen } from '../../../src/client/auth/LoginScreen';
import { ChangePasswordPage } from '../../../src/client/auth/ChangePasswordPage';

// docs/product-rules.md#input-filters: the input filters of the schema-made forms, typed into as a browser does

function fakeData() {
  return testDataProvider({
    getList: vi.fn(async () => ({ data: [], total: 0 })) as never,
    getMany: vi.fn(async () => ({ data: [] })) as never,
    create: vi.fn(async (_resource: string, { data }: { data: object }) => ({ data: { id: 3, ...data } })) as never,
  });
}

const authProvider: AuthProvider = {
  login: async () => undefined,
  logout: async () => undefined,
  checkAuth: async () => undefined,
  checkError: async () => undefined,
  getPermissions: async () => [],
  canAccess: async () => true,
};

function renderAt(path: string, element: ReactNode, dataProvider: DataProvider) {
  return render(
    <TestMemoryRouter initialEntries={[path]}>
      <AdminContext dataProvider={dataProvider} authProvider={authProvider} i18nProvider={i18nProvider} store={memoryStore()}>
        {element}
      </AdminContext>
    </TestMemoryRouter>,
  );
}

const valueSetter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;

/**
 * What the browser does on a key or a paste: the input's value becomes `next` with the caret at
 * `caret`, then an input event (React's onChange). The value is written past React's tracking, as
 * the browser's own editing is.
 */
function edit(input: HTMLInputElement, next: string, caret = next.length, init: InputEventInit = {}) {
  valueSetter.call(input, next);
  input.setSelectionRange(caret, caret);
  fireEvent.input(input, init);
}

/** Types `text` key by key at the caret. */
function type(input: HTMLInputElement, text: string) {
  for (const c of text) {
    const at = input.selectionStart ?? input.value.length;
    edit(input, input.value.slice(0, at) + c + input.value.slice(at), at + c.length);
  }
}

const textbox = (name: RegExp) => screen.getByRole('textbox', { name }) as HTMLInputElement;

beforeEach(async () => {
  await i18nProvider.changeLocale('zh-hk');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the student form', () => {
  it('code and user name: what they may not hold does not appear, the rest does; the form saves what is shown', async () => {
    const data = fakeData();
    renderAt('/master/students/add', <student.Screen type="add" />, data);
    const code = await screen.findByRole('textbox', { name: /學生編號/ }) as HTMLInputElement;
    fireEvent.focus(code);
    type(code, 'S 2024!-0中1');
    expect(code.value).toBe('S2024-01');
    const username = textbox(/帳號/);
    fireEvent.focus(username);
    type(username, 'chan tai#man@school.hk');
    expect(username.value).toBe('chantaiman@school.hk');

    // a paste keeps its allowed characters
    fireEvent.focus(username);
    edit(username, 'chan.t (x)', 10);
    expect(username.value).toBe('chan.tx');

    // names are not filtered: Chinese typed through an IME stays as composed
    const nameHk = textbox(/中文姓名/);
    fireEvent.focus(nameHk);
    fireEvent.compositionStart(nameHk);
    edit(nameHk, 'chen', 4, { isComposing: true });
    edit(nameHk, '陳大文', 3, { isComposing: true });
    fireEvent.compositionEnd(nameHk);
    expect(nameHk.value).toBe('陳大文');
    fireEvent.change(textbox(/英文姓名/), { target: { value: 'Chan Tai Man' } });
    const password = screen.getByLabelText(/^密碼/) as HTMLInputElement;
    fireEvent.focus(password);
    type(password, 'se\tcret 1');
    expect(password.value).toBe('secret 1');

    fireEvent.click(screen.getByTestId('master-save'));
    await waitFor(() => expect(data.create).toHaveBeenCalled());
    expect(vi.mocked(data.create).mock.calls[0][1].data).toMatchObject({ code: 'S2024-01', username: 'chan.tx', password: 'secret 1', nameHk: '陳大文' });
  });

  it('a character refused in the middle leaves the caret where it was, and the value untouched', async () => {
    renderAt('/master/students/add', <student.Screen type="add" />, fakeData());
    const code = await screen.findByRole('textbox', { name: /學生編號/ }) as HTMLInputElement;
    fireEvent.focus(code);
    type(code, 'S1234');
    // the caret after "S1", then "!" typed
    edit(code, 'S1!234', 3);
    expect(code.value).toBe('S1234');
    expect(code.selectionStart).toBe(2);
    await waitFor(() => expect(code.value).toBe('S1234'));
    expect(code.selectionStart).toBe(2);
    // an allowed character there goes in, the caret after it
    edit(code, 'S1X234', 3);
    expect(code.value).toBe('S1X234');
    expect(code.selectionStart).toBe(3);
  });

  it('an IME composing in a filtered field is left alone until it commits, then filtered', async () => {
    const data = fakeData();
    renderAt('/master/students/add', <student.Screen type="add" />, data);
    const code = await screen.findByRole('textbox', { name: /學生編號/ }) as HTMLInputElement;
    fireEvent.focus(code);
    type(code, 'S1');
    fireEvent.compositionStart(code);
    edit(code, 'S1zh', 4, { isComposing: true });
    expect(code.value).toBe('S1zh');
    edit(code, 'S1中2', 4, { isComposing: true });
    expect(code.value).toBe('S1中2');
    fireEvent.compositionEnd(code);
    expect(code.value).toBe('S12');
    expect(code.selectionStart).toBe(3);
  });

  it('one more key past maxLength is refused; a longer paste is kept and its length message shows', async () => {
    renderAt('/master/students/add', <student.Screen type="add" />, fakeData());
    const code = await screen.findByRole('textbox', { name: /學生編號/ }) as HTMLInputElement;
    fireEvent.focus(code);
    type(code, `S${'1'.repeat(29)}`);
    type(code, '2');
    expect(code.value).toBe(`S${'1'.repeat(29)}`);
    edit(code, `S${'1'.repeat(29)}345`);
    expect(code.value).toBe(`S${'1'.repeat(29)}345`);
    fireEvent.blur(code);
    expect(await screen.findByText('最多 30 個字元')).toBeTruthy();
  });
});

describe('the teacher form', () => {
  it('phone: digits and phone signs only, with the phone keyboard; identity card: letters, digits, ( ) # -', async () => {
    renderAt('/master/teachers/add', <teacher.Screen type="add" />, fakeData());
    const tel = await screen.findByRole('textbox', { name: /電話/ }) as HTMLInputElement;
    expect(tel.inputMode).toBe('tel');
    fireEvent.focus(tel);
    type(tel, '+852 (2345)-67a8*9');
    expect(tel.value).toBe('+852 (2345)-6789');
    // a name field has no keyboard hint and keeps what is typed
    expect(textbox(/英文姓名/).inputMode).toBe('');

    const card = screen.getByLabelText(/身份證號碼|證件號碼/) as HTMLInputElement;
    fireEvent.focus(card);
    type(card, 'A123456(7)!_');
    expect(card.value).toBe('A123456(7)');
  });

  it('an integer: the keys a number input would take but the schema refuses are stopped', async () => {
    renderAt('/master/teachers/add', <teacher.Screen type="add" />, fakeData());
    const seq = await screen.findByRole('spinbutton', { name: /排序/ }) as HTMLInputElement;
    expect(seq.inputMode).toBe('numeric');
    for (const key of ['e', '-', '+', '.']) expect(fireEvent.keyDown(seq, { key })).toBe(false);
    expect(fireEvent.keyDown(seq, { key: '5' })).toBe(true);
    expect(fireEvent.keyDown(seq, { key: 'Backspace' })).toBe(true);
    expect(fireEvent.keyDown(seq, { key: 'v', ctrlKey: true })).toBe(true);
  });
});

describe('the login and change-password screens', () => {
  it('login: the user name keeps what a user name may hold, the password all but control characters; the caret stays', () => {
    // the school and init calls are never answered here
    vi.stubGlobal('fetch', vi.fn(() => new Promise(() => undefined)));
    render(<LoginScreen locale="zh-hk" translate={(key) => key} onLoggedIn={() => undefined} onUninitialised={() => undefined} />);
    const username = screen.getByTestId('login-username') as HTMLInputElement;
    fireEvent.focus(username);
    type(username, 'chan tai!man');
    expect(username.value).toBe('chantaiman');
    edit(username, 'chan(taiman', 5);
    expect(username.value).toBe('chantaiman');
    expect(username.selectionStart).toBe(4);
    const password = screen.getByTestId('login-password') as HTMLInputElement;
    fireEvent.focus(password);
    type(password, 'pa ss\tw密碼!');
    expect(password.value).toBe('pa ssw密碼!');
  });

  it('change password: a new password stops at 15 characters as it is typed, the old one does not', async () => {
    render(
      <TestMemoryRouter>
        <AdminContext dataProvider={fakeData()} authProvider={authProvider} i18nProvider={i18nProvider} store={memoryStore()}>
          <ChangePasswordPage />
        </AdminContext>
      </TestMemoryRouter>,
    );
    const old = (await screen.findByTestId('oldPassword')) as HTMLInputElement;
    fireEvent.focus(old);
    type(old, 'x'.repeat(20));
    expect(old.value).toHaveLength(20);
    const fresh = screen.getByTestId('newPassword') as HTMLInputElement;
    fireEvent.focus(fresh);
    type(fresh, `${'y'.repeat(16)}\t`);
    expect(fresh.value).toBe('y'.repeat(15));
  });
});
