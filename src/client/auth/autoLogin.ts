import type { LoggedIn } from '../../shared/calls/auth';
import { SYSTEM_CODE } from '../../shared/envelope';
import { saveSession } from '../providers/session';

/** "username:password" (or a JSON pair) from the base64 of an `authorization` URL value. */
export function decodeAuthorization(value: string): { username: string; password: string } | null {
  try {
    const bytes = Uint8Array.from(atob(value.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
    const text = new TextDecoder().decode(bytes);
    if (text.trim().startsWith('{')) {
      const { username, password } = JSON.parse(text) as { username?: unknown; password?: unknown };
      return typeof username === 'string' && typeof password === 'string' ? { username: username.trim(), password } : null;
    }
    const i = text.indexOf(':');
    return i > 0 ? { username: text.slice(0, i).trim(), password: text.slice(i + 1) } : null;
  } catch {
    return null;
  }
}

/**
 * A URL carrying `?authorization=` logs in automatically, then goes to /qe/; on any failure
 * it goes back to the bare path (docs/product-rules.md#screens-and-routes). Answers true when it has taken over the page load.
 */
export function autoLoginFromUrl(): boolean {
  const url = new URL(window.location.href);
  const value = url.searchParams.get('authorization');
  if (!value) return false;
  url.searchParams.delete('authorization');
  const bare = url.pathname + url.search + url.hash;
  const pair = decodeAuthorization(value);
  if (!pair) {
    window.location.replace(bare);
    return true;
  }
  fetch('/v1/login', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Device': 'Web', 'X-System': SYSTEM_CODE },
    body: JSON.stringify(pair),
  })
    .then((r) => r.json())
    .then((body: { code: number; data?: LoggedIn }) => {
      if (body.code !== 200 || !body.data) throw new Error('login failed');
      saveSession(body.data.tk, body.data.userId);
      window.location.replace('/qe/');
    })
    .catch(() => window.location.replace(bare));
  return true;
}
