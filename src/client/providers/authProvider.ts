import type { AuthProvider, UserIdentity } from 'react-admin';
import { hasPermission, type PermissionEntry } from '../../shared/permissions';
import type { UserInfo } from '../../shared/calls/session';
import { passwordLogin } from '../auth/publicApi';
import { request } from './http';
import { currentLocale, translate } from './i18nProvider';
import { clearSession, getStoredUserId, getToken, setCurrentUserId } from './session';
import { setSchoolTimeZone } from '../common/schoolClock';

// what GET /v1/my/user-info answers, described once with its schema (docs/conventions.md#call-shapes)
export type { UserInfo } from '../../shared/calls/session';

/** The logged-in user, loaded once per page load (a role change shows on the next load). */
let userInfo: Promise<UserInfo> | null = null;

export function loadUserInfo(): Promise<UserInfo> {
  const token = getToken();
  if (!token) return Promise.reject(new Error('not logged in'));
  userInfo ??= request<UserInfo>('/v1/my/user-info', { query: { userId: getStoredUserId() } }).then(
    (info) => {
      setCurrentUserId(String(info.userId));
      // before any screen shows a day or a time: they are read on the school's clock
      setSchoolTimeZone(info.timeZone);
      return info;
    },
    (error) => {
      userInfo = null;
      // failure to load user info forces a local logout (docs/product-rules.md#states) — unless a new login
      // replaced the token while this call was under way
      if (getToken() === token) clearSession();
      throw error;
    },
  );
  return userInfo;
}

/** Drops the cached user info: the next read loads it again (after the Google account was linked). */
export function forgetUserInfo(): void {
  userInfo = null;
}

/** POST /v1/login as the login screen makes it (auth/publicApi.ts, which loads without react-admin). */
export async function login(username: string, password: string): Promise<void> {
  await passwordLogin(username, password, { locale: currentLocale(), translate });
  userInfo = null;
}

/** Where an unauthenticated visit goes: /login with the wanted path as `redirect` (docs/product-rules.md#screens-and-routes). */
export function loginRedirect(): string {
  const path = window.location.pathname.replace(/^\/qe/, '') || '/';
  if (path.startsWith('/login')) return `/login${window.location.search}`;
  const wanted = path + window.location.search;
  return path === '/' ? '/login' : `/login?redirect=${encodeURIComponent(wanted)}`;
}

/** What canAccess answers for a user holding `permissions`: `${resource}.${action}` held, or the resource `*` (any logged-in user). */
export function canAccessWith(permissions: PermissionEntry[], { resource, action }: { resource: string; action: string }): boolean {
  return hasPermission(permissions, resource === '*' ? '*' : `${resource}.${action}`);
}

export const authProvider: AuthProvider = {
  async login({ username, password }: { username: string; password: string }) {
    await login(username, password);
  },

  async logout() {
    // an explicit logout goes to /login; a visit without a session keeps the wanted path (docs/product-rules.md#screens-and-routes)
    const hadToken = Boolean(getToken());
    if (hadToken) await request('/v1/logout', { method: 'POST', ignoreErr: true, quietSession: true }).catch(() => undefined);
    clearSession();
    userInfo = null;
    return hadToken ? '/login' : loginRedirect();
  },

  async checkAuth() {
    if (!getToken()) throw { redirectTo: loginRedirect(), message: false };
    await loadUserInfo().catch(() => {
      throw { redirectTo: '/login', message: false };
    });
  },

  async checkError(error: { status?: number; body?: { code?: number } }) {
    const code = error?.body?.code;
    if (code === 401 || code === 444) throw { redirectTo: '/login', message: false };
  },

  async getIdentity(): Promise<UserIdentity> {
    const info = await loadUserInfo();
    return { ...info, id: info.userId, fullName: currentLocale() === 'en' ? info.nameEn : info.nameHk, avatar: info.avatar ? `/qe/storage/${info.avatar}` : undefined };
  },

  async getPermissions() {
    if (!getToken()) return [];
    return (await loadUserInfo()).permissions;
  },

  async canAccess({ resource, action }: { resource: string; action: string }) {
    if (!getToken()) return false;
    const { permissions } = await loadUserInfo();
    return canAccessWith(permissions, { resource, action });
  },
};
