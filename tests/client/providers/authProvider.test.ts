import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UserInfo } from '../../../src/client/providers/authProvider';
import { permissionList } from '../support/auth';
import { startLocalServer, tokenFor, type LocalServer, type Received } from '../support/local-server';

// QE's react-admin auth provider as react-admin calls it (docs/product-rules.md#states,
// docs/product-rules.md#screens-and-routes), against a real HTTP server on 127.0.0.1.
// Each test loads it afresh, as a page load does: the user info is loaded once per page.

type Auth = typeof import('../../../src/client/providers/authProvider');
type Session = typeof import('../../../src/client/providers/session');

const TEACHER: UserInfo = {
  userId: 7,
  userNo: 'T007',
  username: 'teacher07',
  nameHk: '李老師',
  nameEn: 'Lee Siu Ming',
  avatar: 'avatars/7.png',
  email: 'lee@example.edu.hk',
  googleMail: null,
  identityCardId: null,
  identityCardType: null,
  tel: null,
  gender: null,
  birthday: null,
  userType: 'TEACHER',
  active: true,
  loginTime: null,
  lastLogin: null,
  staff_id: 7,
  status: '1',
  permissions: permissionList(['form.view', 'form.add', 'form-input.view', 'help.view']),
  personalDataStatus: null,
  years: [],
  terms: [],
  currentYear: null,
  currentTerm: null,
  timeZone: 'Asia/Hong_Kong',
};

let server: LocalServer;
let auth: Auth;
let session: Session;

beforeAll(async () => {
  server = await startLocalServer();
});
afterAll(async () => server.close());

/** The server of a teacher with password Passw0rd!: login, user info, logout. */
function teacherServer(request: Received) {
  if (request.path === '/v1/login') {
    const { username, password } = JSON.parse(request.body.toString());
    if (username === 'teacher07' && password === 'Passw0rd!') return { envelope: { code: 200, msg: 'ok', data: { tk: tokenFor(7), userId: 7 } } };
    return { status: 400, envelope: { code: 702, msg: '帳號或密碼錯誤', data: null } };
  }
  if (request.path === '/v1/my/user-info') {
    if (request.headers.authorization !== `Bearer ${tokenFor(7)}`) return { status: 401, envelope: { code: 401, msg: '', data: null } };
    return { envelope: { code: 200, msg: 'ok', data: TEACHER } };
  }
  return undefined;
}

beforeEach(async () => {
  server.received.length = 0;
  server.answer(teacherServer);
  server.openPage('/qe/forms/list?status=PREPARING');
  localStorage.clear();
  document.cookie = 'qe_token=; path=/qe; max-age=0';
  vi.resetModules();
  session = await import('../../../src/client/providers/session');
  auth = await import('../../../src/client/providers/authProvider');
  vi.spyOn(window, 'alert').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
});

const calls = (path: string) => server.received.filter((r) => r.path === path);
const provider = () => auth.authProvider;
async function loggedIn() {
  await provider().login({ username: 'teacher07', password: 'Passw0rd!' });
}

describe('login', () => {
  it('posts the trimmed user name and the password, and keeps the session: token, user id, cookie', async () => {
    await provider().login({ username: '  teacher07 ', password: 'Passw0rd!' });
    const [post] = calls('/v1/login');
    expect(post.method).toBe('POST');
    expect(JSON.parse(post.body.toString())).toEqual({ username: 'teacher07', password: 'Passw0rd!' });
    expect(post.headers).toMatchObject({ 'accept-language': 'zh-HK', 'x-device': 'Web', 'x-system': 'QE' });
    expect(localStorage.getItem('qe-token')).toBe(tokenFor(7));
    expect(localStorage.getItem('qe-user-id')).toBe('7');
    expect(document.cookie).toContain(`qe_token=${encodeURIComponent(tokenFor(7))}`);
  });

  it("fails with the server's message and keeps nothing", async () => {
    await expect(provider().login({ username: 'teacher07', password: 'wrong!' })).rejects.toThrow('帳號或密碼錯誤');
    expect(localStorage.getItem('qe-token')).toBeNull();
    expect(await provider().checkAuth({}).catch((e: unknown) => e)).toEqual({ redirectTo: '/login?redirect=%2Fforms%2Flist%3Fstatus%3DPREPARING', message: false });
  });
});

describe('the logged-in user', () => {
  it('is loaded once from /v1/my/user-info with the token and user id, for identity, permissions and access', async () => {
    await loggedIn();
    const identity = await provider().getIdentity!();
    expect(identity).toMatchObject({ id: 7, fullName: '李老師', avatar: '/qe/storage/avatars/7.png', userType: 'TEACHER', username: 'teacher07' });
    expect(await provider().getPermissions!({})).toEqual(TEACHER.permissions);
    expect(await provider().canAccess!({ resource: 'form', action: 'add' })).toBe(true);
    expect(await provider().canAccess!({ resource: 'form', action: 'delete' })).toBe(false);
    expect(await provider().canAccess!({ resource: 'teacher', action: 'view' })).toBe(false);
    expect(await provider().canAccess!({ resource: '*', action: 'view' })).toBe(true);

    const loads = calls('/v1/my/user-info');
    expect(loads).toHaveLength(1);
    expect(loads[0].query.get('userId')).toBe('7');
    expect(loads[0].headers.authorization).toBe(`Bearer ${tokenFor(7)}`);
  });

  it('is named in English once the user switched to English, and has no avatar when none is set', async () => {
    const { i18nProvider } = await import('../../../src/client/providers/i18nProvider');
    await i18nProvider.changeLocale('en');
    server.answer((r) => (r.path === '/v1/my/user-info' ? { envelope: { code: 200, msg: 'ok', data: { ...TEACHER, avatar: null } } } : teacherServer(r)));
    await loggedIn();
    const identity = await provider().getIdentity!();
    expect(identity.fullName).toBe('Lee Siu Ming');
    expect(identity.avatar).toBeUndefined();
  });

  it('holds nothing without a session, and asks the server nothing', async () => {
    expect(await provider().getPermissions!({})).toEqual([]);
    expect(await provider().canAccess!({ resource: 'form-input', action: 'view' })).toBe(false);
    await expect(provider().getIdentity!()).rejects.toThrow();
    expect(server.received).toEqual([]);
  });
});

describe('logout', () => {
  it('tells the server, clears the session with the staff-edit-personal mark, and goes to /login', async () => {
    await loggedIn();
    await provider().getIdentity!();
    localStorage.setItem('qe-staff-edit-personal', '1');
    expect(await provider().logout({})).toBe('/login');
    const [post] = calls('/v1/logout');
    expect(post.method).toBe('POST');
    expect(post.headers.authorization).toBe(`Bearer ${tokenFor(7)}`);
    expect(localStorage.getItem('qe-token')).toBeNull();
    expect(localStorage.getItem('qe-user-id')).toBeNull();
    expect(localStorage.getItem('qe-staff-edit-personal')).toBeNull();
    expect(document.cookie).not.toContain('qe_token=ey');
    expect(await provider().getPermissions!({})).toEqual([]);
  });

  it('clears the session even when the server does not answer, with nothing on screen', async () => {
    await loggedIn();
    server.answer((r) => (r.path === '/v1/logout' ? { drop: true } : teacherServer(r)));
    const notifier = await import('../../../src/client/providers/notifier');
    const notices: unknown[] = [];
    notifier.subscribe((n) => notices.push(n));
    expect(await provider().logout({})).toBe('/login');
    expect(session.getToken()).toBeNull();
    expect(notices).toEqual([]);
    expect(window.alert).not.toHaveBeenCalled();
  });

  it('without a session asks nothing and keeps the wanted path for after the login', async () => {
    expect(await provider().logout({})).toBe('/login?redirect=%2Fforms%2Flist%3Fstatus%3DPREPARING');
    server.openPage('/qe/');
    expect(await provider().logout({})).toBe('/login');
    expect(server.received).toEqual([]);
  });
});

describe('checkAuth', () => {
  it('sends a visitor without a session to /login with the wanted path, silently', async () => {
    await expect(provider().checkAuth({})).rejects.toEqual({ redirectTo: '/login?redirect=%2Fforms%2Flist%3Fstatus%3DPREPARING', message: false });
    expect(server.received).toEqual([]);
  });

  it('lets a user whose user info loads stay', async () => {
    await loggedIn();
    await expect(provider().checkAuth({})).resolves.toBeUndefined();
  });

  it.each([
    ['expired (401)', { status: 401, envelope: { code: 401, msg: '', data: null } }],
    ['failing (500)', { status: 500, envelope: { code: 500, msg: '', data: null } }],
  ])('logs out locally and goes to /login when the user info load is %s', async (_, answer) => {
    await loggedIn();
    server.answer((r) => (r.path === '/v1/my/user-info' ? answer : teacherServer(r)));
    await expect(provider().checkAuth({})).rejects.toEqual({ redirectTo: '/login', message: false });
    expect(session.getToken()).toBeNull();
    expect(session.getStoredUserId()).toBeNull();
  });
});

describe('checkError', () => {
  it.each([401, 444])('logs out to /login on an expired-session answer (%s)', async (code) => {
    await expect(provider().checkError({ status: 401, body: { code } })).rejects.toEqual({ redirectTo: '/login', message: false });
  });

  it.each([
    ['a refusal (403, code 405)', { status: 403, body: { code: 405 } }],
    ['a validation error (422)', { status: 422, body: { code: 422 } }],
    ['a business error (400, code 703)', { status: 400, body: { code: 703 } }],
    ['no answer (0)', { status: 0, body: { code: 0 } }],
  ])('keeps the user logged in on %s', async (_, error) => {
    await expect(provider().checkError(error)).resolves.toBeUndefined();
  });
});
