import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { RecordContextProvider } from 'react-admin';
import { i18nProvider } from '../../../src/client/providers/i18nProvider';
import { SignInSettings } from '../../../src/client/sign-in/SignInSettings';
import { LinkedSignIns } from '../../../src/client/sign-in/LinkedSignIns';
import { MySignInsDialog } from '../../../src/client/sign-in/MySignIns';
import { pendingSignIn } from '../../../src/client/auth/signInFlow';
import { masterEntities } from '../../../src/shared/generated/master-entities';
import type { IdentityProvider, SignInLinkList } from '../../../src/shared/calls/sign-in';
import appZhHk from '../../../src/shared/i18n/app-zh-hk';
import { fieldMessage } from '../../../src/shared/field-messages';
import { fakeData, fakeFetch, renderAt, type Answer, type FetchCall } from '../questionnaires/support';

// The super administrator's settings of sign-in with the school's accounts (the school settings'
// section), an account's linked sign-ins on its master screen, and the user's own. The server is a
// fake fetch: what is checked is what the screens send and show.

const T = appZhHk.qe.signIn.settings;
const ENTRA: IdentityProvider = {
  id: 3,
  kind: 'microsoft',
  nameHk: 'Microsoft',
  nameEn: 'Microsoft',
  tenant: 'school.onmicrosoft.com',
  issuer: 'https://login.microsoftonline.com/0f1e2d3c/v2.0',
  clientId: 'c1i2e3n4t',
  secretSource: 'stored',
  secretEnv: null,
  domains: ['school.edu.hk'],
  roles: ['TEACHER', 'STUDENT'],
  enabled: true,
  seq: 0,
  redirectUri: 'https://qe.school.edu.hk/qe/sign-in-callback',
  links: 12,
};
const POLICY = { ADMIN: true, TEACHER: true, STUDENT: true };
const VIEW = ['sign-in.view'];
const EDIT = ['sign-in.view', 'sign-in.edit'];

/** The settings' calls: the providers and the policy as given, the rest as `more` answers. */
function server(more: (call: FetchCall) => Answer | unknown = () => null, providers: IdentityProvider[] = [ENTRA]) {
  return fakeFetch((call) => {
    if (call.method === 'GET' && call.path === '/v1/identity-providers') return providers;
    if (call.method === 'GET' && call.path === '/v1/sign-in/password-policy') return POLICY;
    return more(call);
  });
}

const open = (permissions: string[]) => renderAt('/master/school', <><SignInSettings /><span data-testid="rendered" /></>, fakeData([]), permissions);
const dialog = () => screen.getByTestId('provider-dialog');
const input = (testId: string) => within(dialog()).getByTestId(testId) as HTMLInputElement;
const type = (testId: string, value: string) => fireEvent.change(input(testId), { target: { value } });

beforeEach(async () => {
  await i18nProvider.changeLocale('zh-hk');
  sessionStorage.clear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('the school settings: sign-in with school accounts', () => {
  it('is not there without sign-in.view', async () => {
    server();
    open(['school.view', 'school.edit']);
    await screen.findByTestId('rendered');
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('sign-in-settings')).toBeNull();
  });

  it('lists each provider for sign-in.view — what it checks, its linked accounts, the redirect address to copy — without a control to change anything', async () => {
    server();
    open(VIEW);
    const section = await screen.findByRole('region', { name: T.title });
    const item = await within(section).findByTestId('provider-3');
    expect(within(item).getByRole('heading', { level: 4 }).textContent).toBe('Microsoft');
    expect(item.textContent).toContain(T.kinds.microsoft);
    expect(item.textContent).toContain(T.enabled);
    expect(item.textContent).toContain('https://login.microsoftonline.com/0f1e2d3c/v2.0');
    expect(item.textContent).toContain('school.edu.hk');
    expect(item.textContent).toContain('教師、學生');
    expect(within(item).getByTestId('provider-links').textContent).toBe('已連結帳戶：12');
    expect(within(item).getByTestId('provider-redirect-uri').textContent).toBe('https://qe.school.edu.hk/qe/sign-in-callback');
    const copy = within(item).getByRole('button', { name: '複製 Microsoft 的重新導向網址' });
    const written = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText: written } });
    fireEvent.click(copy);
    await waitFor(() => expect(written).toHaveBeenCalledWith('https://qe.school.edu.hk/qe/sign-in-callback'));
    for (const id of ['provider-add', 'provider-test', 'provider-edit', 'provider-delete', 'password-policy-save']) expect(screen.queryByTestId(id)).toBeNull();
    // the password rule is shown, not changeable
    const student = await screen.findByTestId('password-policy-STUDENT');
    expect(student).toHaveProperty('disabled', true);
  });

  it('says so when there is no provider', async () => {
    server(undefined, []);
    open(EDIT);
    expect((await screen.findByTestId('providers-none')).textContent).toBe(T.none);
  });

  it('adds another OpenID Connect service: checked before sending (required fields, domains), then its fields sent as the call takes them', async () => {
    const calls = server((call) => (call.method === 'POST' && call.path === '/v1/identity-providers' ? { ...ENTRA, id: 9 } : null));
    open(EDIT);
    fireEvent.click(await screen.findByTestId('provider-add'));
    expect(within(dialog()).getByRole('heading', { name: T.addTitle })).toBeTruthy();
    fireEvent.click(input('provider-kind-oidc'));
    // Microsoft's own name gives way to the school's
    expect(input('provider-nameHk').value).toBe('');
    fireEvent.click(within(dialog()).getByTestId('provider-save'));
    await waitFor(() => expect(within(dialog()).getAllByText(fieldMessage('required', 'zh-hk')).length).toBeGreaterThanOrEqual(3));
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    type('provider-nameHk', '教育局帳戶');
    type('provider-nameEn', 'EDB account');
    type('provider-issuer', 'https://sso.edb.example');
    type('provider-clientId', 'qe-school');
    type('provider-secret', 's3cret!');
    // a domain is a chip: Enter adds it (in lower case); what is not a domain is refused
    type('provider-domain-input', 'not a domain');
    fireEvent.keyDown(input('provider-domain-input'), { key: 'Enter' });
    expect(within(dialog()).getByText('不是網域：not a domain')).toBeTruthy();
    type('provider-domain-input', 'School.EDU.hk');
    fireEvent.keyDown(input('provider-domain-input'), { key: 'Enter' });
    type('provider-domain-input', 'staff.school.edu.hk');
    fireEvent.keyDown(input('provider-domain-input'), { key: ',' });
    const chips = within(within(dialog()).getByTestId('provider-domains')).getAllByRole('button');
    expect(chips.map((c) => c.textContent)).toEqual(['school.edu.hk', 'staff.school.edu.hk']);
    expect(chips[1].getAttribute('aria-label')).toBe('移除 staff.school.edu.hk');
    fireEvent.click(chips[1]);
    // the roles: administrators, teachers and students at first; the super administrator added
    fireEvent.click(input('provider-role-SUPER_ADMIN'));
    fireEvent.click(input('provider-role-ADMIN'));
    fireEvent.click(within(dialog()).getByTestId('provider-save'));
    await waitFor(() => expect(screen.queryByTestId('provider-dialog')).toBeNull());
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.path).toBe('/v1/identity-providers');
    expect(post.body).toEqual({
      kind: 'oidc',
      nameHk: '教育局帳戶',
      nameEn: 'EDB account',
      tenant: null,
      issuer: 'https://sso.edb.example',
      clientId: 'qe-school',
      secret: 's3cret!',
      secretEnv: null,
      domains: ['school.edu.hk'],
      roles: ['SUPER_ADMIN', 'TEACHER', 'STUDENT'],
      enabled: true,
    });
  });

  it('edits a provider without its secret: the stored one is kept unless a new one is typed; or names its environment variable', async () => {
    const calls = server((call) => (call.method === 'PUT' ? ENTRA : null));
    open(EDIT);
    fireEvent.click(await screen.findByRole('button', { name: '編輯 Microsoft' }));
    expect(within(dialog()).getByRole('heading', { name: '編輯 Microsoft' })).toBeTruthy();
    expect(input('provider-tenant').value).toBe('school.onmicrosoft.com');
    expect(within(dialog()).getByText(T.secretKept)).toBeTruthy();
    expect(input('provider-secret').value).toBe('');
    type('provider-clientId', 'new-client');
    fireEvent.click(within(dialog()).getByTestId('provider-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.path).toBe('/v1/identity-providers/3');
    expect(put.body).toMatchObject({ kind: 'microsoft', tenant: 'school.onmicrosoft.com', issuer: null, clientId: 'new-client', secretEnv: null, roles: ['TEACHER', 'STUDENT'], seq: 0 });
    expect(put.body).not.toHaveProperty('secret');
    // the secret from the server's environment instead
    await waitFor(() => expect(screen.queryByTestId('provider-dialog')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: '編輯 Microsoft' }));
    fireEvent.click(input('provider-secret-environment'));
    type('provider-secretEnv', 'qe secret');
    fireEvent.click(within(dialog()).getByTestId('provider-save'));
    expect(await within(dialog()).findByText(T.secretEnvInvalid)).toBeTruthy();
    type('provider-secretEnv', 'QE_ENTRA_SECRET');
    fireEvent.click(within(dialog()).getByTestId('provider-save'));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(2));
    expect(calls.filter((c) => c.method === 'PUT')[1].body).toMatchObject({ secretEnv: 'QE_ENTRA_SECRET' });
  });

  it("shows the server's refusals: a field's on its field, another above the fields", async () => {
    let answer: Answer = { status: 422, code: 422, msg: 'invalid', data: { tenant: '找不到此租用戶' } };
    server((call) => (call.method === 'PUT' ? answer : null));
    open(EDIT);
    fireEvent.click(await screen.findByRole('button', { name: '編輯 Microsoft' }));
    type('provider-tenant', 'nowhere.onmicrosoft.com');
    fireEvent.click(within(dialog()).getByTestId('provider-save'));
    expect(await within(dialog()).findByText('找不到此租用戶')).toBeTruthy();
    expect(within(dialog()).queryByTestId('provider-refusal')).toBeNull();
    answer = { status: 409, code: 779, msg: '這樣「學生」將既不能以密碼登入，也沒有已啟用的登入方式可用' };
    fireEvent.click(input('provider-enabled'));
    fireEvent.click(within(dialog()).getByTestId('provider-save'));
    expect((await within(dialog()).findByTestId('provider-refusal')).textContent).toBe('這樣「學生」將既不能以密碼登入，也沒有已啟用的登入方式可用');
    expect(screen.getByTestId('provider-dialog')).toBeTruthy();
  });

  it('deletes after a confirmation that names the provider and how many linked accounts go', async () => {
    const calls = server((call) => (call.method === 'DELETE' ? null : null));
    open(EDIT);
    fireEvent.click(await screen.findByRole('button', { name: '刪除 Microsoft' }));
    const confirm = await screen.findByRole('dialog');
    expect(within(confirm).getByText('刪除 Microsoft？')).toBeTruthy();
    expect(within(confirm).getByTestId('provider-delete-links').textContent).toBe(T.deleteLinks.replace('%{count}', '12'));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(within(confirm).getByRole('button', { name: T.delete }));
    await waitFor(() => expect(calls.find((c) => c.method === 'DELETE')?.path).toBe('/v1/identity-providers/3'));
  });

  it('tests a provider in a new window that holds the browser key kept before it opened, and sends it to the provider', async () => {
    let keptWhenOpened: ReturnType<typeof pendingSignIn> = null;
    const win = { opener: window as Window | null, location: { href: 'about:blank' }, close: vi.fn() };
    const opened = vi.spyOn(window, 'open').mockImplementation(() => {
      keptWhenOpened = pendingSignIn();
      return win as unknown as Window;
    });
    const calls = server((call) => (call.path === '/v1/identity-providers/3/test' ? { link: 'https://login.example.test/authorize?state=t' } : null));
    open(EDIT);
    fireEvent.click(await screen.findByRole('button', { name: '測試 Microsoft' }));
    await waitFor(() => expect(win.location.href).toBe('https://login.example.test/authorize?state=t'));
    expect(opened).toHaveBeenCalledWith('', '_blank');
    const sent = calls.find((c) => c.path === '/v1/identity-providers/3/test')!;
    expect(sent.method).toBe('POST');
    expect(keptWhenOpened).toEqual({ browserKey: (sent.body as { browserKey: string }).browserKey, providerId: 3, purpose: 'test' });
    expect((sent.body as { browserKey: string }).browserKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(win.opener).toBeNull();
  });

  it('saves the password login per role with its own button; a refusal shows above the switches', async () => {
    let answer: Answer | unknown = { ...POLICY, STUDENT: false };
    const calls = server((call) => (call.method === 'PUT' && call.path === '/v1/sign-in/password-policy' ? answer : null));
    open(EDIT);
    const student = await screen.findByRole('switch', { name: '學生：可以密碼登入' });
    expect(screen.getByRole('switch', { name: '管理員：可以密碼登入' })).toHaveProperty('checked', true);
    expect(screen.queryByRole('switch', { name: /超級管理員/ })).toBeNull();
    const save = screen.getByTestId('password-policy-save') as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    fireEvent.click(student);
    expect(save.disabled).toBe(false);
    fireEvent.click(save);
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ ADMIN: true, TEACHER: true, STUDENT: false }));
    // saved: nothing left to save until the next change
    await waitFor(() => expect(save.disabled).toBe(true));
    expect(student).toHaveProperty('checked', false);
    answer = { status: 409, code: 779, msg: '這樣「教師」將既不能以密碼登入' };
    fireEvent.click(screen.getByRole('switch', { name: '教師：可以密碼登入' }));
    fireEvent.click(save);
    expect((await screen.findByTestId('password-policy-refusal')).textContent).toBe('這樣「教師」將既不能以密碼登入');
  });
});

const LINKS: SignInLinkList = [
  { id: 5, providerId: 3, kind: 'microsoft', nameHk: 'Microsoft', nameEn: 'Microsoft', email: 's001@school.edu.hk', linkedAt: '2026-03-01T01:30:00.000Z', lastUsedAt: null },
  { id: 6, providerId: 4, kind: 'oidc', nameHk: '教育局帳戶', nameEn: 'EDB account', email: 'chan@edb.example', linkedAt: '2026-03-02T15:10:00.000Z', lastUsedAt: '2026-03-03T00:05:00.000Z' },
];

describe("an account's linked sign-ins", () => {
  const show = (permissions: string[]) =>
    renderAt(
      '/master/students/edit?id=42',
      <RecordContextProvider value={{ id: 42 }}>
        <LinkedSignIns meta={masterEntities.student.meta} />
        <span data-testid="rendered" />
      </RecordContextProvider>,
      fakeData([]),
      permissions,
    );

  it("lists them with the entity's view permission, times on the school's clock; unlinks with its edit permission after a confirmation", async () => {
    let links = LINKS;
    const calls = fakeFetch((call) => {
      if (call.method === 'GET' && call.path === '/v1/users/42/sign-in-links') return links;
      if (call.method === 'DELETE') {
        links = links.slice(1);
        return null;
      }
      return null;
    });
    show(['student.view', 'student.edit']);
    const panel = await screen.findByRole('region', { name: appZhHk.qe.signIn.links.title });
    const first = await within(panel).findByTestId('sign-in-link-5');
    expect(first.textContent).toContain('s001@school.edu.hk');
    expect(first.textContent).toContain('連結時間：2026-03-01 09:30');
    expect(first.textContent).toContain('最近使用：未曾使用');
    expect(within(panel).getByTestId('sign-in-link-6').textContent).toContain('最近使用：2026-03-03 08:05');
    fireEvent.click(within(first).getByRole('button', { name: '解除連結 Microsoft：s001@school.edu.hk' }));
    const confirm = await screen.findByRole('dialog');
    expect(confirm.textContent).toContain('Microsoft 帳戶 s001@school.edu.hk 將不能再以此用戶登入');
    fireEvent.click(within(confirm).getByRole('button', { name: appZhHk.qe.signIn.links.unlink }));
    await waitFor(() => expect(calls.find((c) => c.method === 'DELETE')?.path).toBe('/v1/users/42/sign-in-links/5'));
    await waitFor(() => expect(screen.queryByTestId('sign-in-link-5')).toBeNull());
    expect(screen.getByTestId('sign-in-link-6')).toBeTruthy();
  });

  it('offers no unlinking without the edit permission; shows nothing without the view permission; says when there is none', async () => {
    fakeFetch(() => LINKS);
    show(['student.view']);
    await screen.findByTestId('sign-in-link-5');
    expect(screen.queryByTestId('sign-in-unlink')).toBeNull();
    cleanup();
    show(['teacher.view']);
    await screen.findByTestId('rendered');
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('linked-sign-ins')).toBeNull();
    cleanup();
    fakeFetch(() => []);
    show(['student.view']);
    expect((await screen.findByTestId('sign-in-links-none')).textContent).toBe(appZhHk.qe.signIn.links.none);
  });

  it("the user's own, read only", async () => {
    const calls = fakeFetch((call) => (call.path === '/v1/my/sign-in-links' ? LINKS : null));
    renderAt('/dashboard', <MySignInsDialog open onClose={() => undefined} />, fakeData([]), []);
    const dialogBox = await screen.findByRole('dialog', { name: appZhHk.qe.signIn.links.mine });
    await within(dialogBox).findByTestId('sign-in-link-6');
    expect(within(dialogBox).queryByTestId('sign-in-unlink')).toBeNull();
    expect(calls.map((c) => c.path)).toEqual(['/v1/my/sign-in-links']);
  });
});
