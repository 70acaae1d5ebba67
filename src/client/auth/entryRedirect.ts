import { PUBLIC_PATHS } from '../routes/public';

/**
 * Where a page load without a session must go before anything renders (docs/product-rules.md#screens-and-routes): a
 * non-public path becomes /login?redirect=<the wanted path>. Paths are without /qe.
 */
export function entryRedirect(path: string, search: string, hasToken: boolean): string | null {
  if (hasToken) return null;
  if (PUBLIC_PATHS.some((p) => path === p || path.startsWith(`${p}/`))) return null;
  if (path === '/' || path === '') return '/login';
  return `/login?redirect=${encodeURIComponent(path + search)}`;
}
