/**
 * Where the session lives in the browser (docs/product-rules.md#calls-the-product-names): the token in a cookie and in local
 * storage together with the user id; the 'staff edit personal' confirmation beside them.
 */
export const TOKEN_KEY = 'qe-token';
export const USER_ID_KEY = 'qe-user-id';
export const STAFF_EDIT_PERSONAL_KEY = 'qe-staff-edit-personal';
const COOKIE = 'qe_token';

export function getToken(): string | null {
  return localStorage.getItem(TOKEN_KEY);
}

export function getStoredUserId(): string | null {
  return localStorage.getItem(USER_ID_KEY);
}

export function saveSession(token: string, userId: number | string): void {
  localStorage.setItem(TOKEN_KEY, token);
  localStorage.setItem(USER_ID_KEY, String(userId));
  document.cookie = `${COOKIE}=${encodeURIComponent(token)}; path=/qe; SameSite=Strict`;
}

/** Logout clears token, user, permissions and the staff-edit-personal confirmation (docs/product-rules.md#states). */
export function clearSession(): void {
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(USER_ID_KEY);
  localStorage.removeItem(STAFF_EDIT_PERSONAL_KEY);
  document.cookie = `${COOKIE}=; path=/qe; max-age=0; SameSite=Strict`;
  currentUserId = null;
}

/** The `jti` claim of a token (the user id it was issued to), or null when unreadable. */
export function tokenJti(token: string): string | null {
  try {
    const payload = token.split('.')[1];
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const jti = (JSON.parse(json) as { jti?: unknown }).jti;
    return typeof jti === 'string' ? jti : null;
  } catch {
    return null;
  }
}

/** The user this page was loaded for; another tab logging in as someone else changes local storage, not this. */
let currentUserId: string | null = getStoredUserIdSafe();

function getStoredUserIdSafe(): string | null {
  try {
    return localStorage.getItem(USER_ID_KEY);
  } catch {
    return null;
  }
}

export function setCurrentUserId(id: string | null): void {
  currentUserId = id;
}

export type SessionCheck = 'ok' | 'none' | 'token-user-mismatch' | 'user-changed';

/** The check run before every request (docs/product-rules.md#validation). */
export function checkSession(): SessionCheck {
  const token = getToken();
  if (!token) return 'none';
  const stored = getStoredUserId();
  if (tokenJti(token) !== stored) return 'token-user-mismatch';
  if (currentUserId !== null && stored !== currentUserId) return 'user-changed';
  return 'ok';
}
