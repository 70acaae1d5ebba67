import type { AuthProvider, UserIdentity } from 'react-admin';
import { canAccessWith } from '../../../src/client/providers/authProvider';
import type { PermissionEntry } from '../../../src/shared/permissions';

/** A permission list (GET /v1/my/permissions) holding exactly the given `page.action` codes. */
export function permissionList(codes: string[]): PermissionEntry[] {
  const pages = new Map<string, string[]>();
  for (const code of codes) {
    const dot = code.lastIndexOf('.');
    const page = code.slice(0, dot);
    pages.set(page, [...(pages.get(page) ?? []), code.slice(dot + 1)]);
  }
  return [...pages].map(([code, actions]) => ({
    code,
    actions: actions.map((a) => ({ code: a })),
    permission_content: '1'.repeat(actions.length),
    permission_selection: '1'.repeat(actions.length),
    permission_mark_cn: actions.join(','),
    permission_mark_en: actions.join(','),
  }));
}

/**
 * An auth provider for screen tests: canAccess is QE's own (authProvider's canAccessWith) over a
 * user holding the given permission codes and, when given, the identity the top bar and screens read.
 */
export const authFor = (permissions: string[], identity?: UserIdentity): AuthProvider => {
  const entries = permissionList(permissions);
  return {
    login: async () => undefined,
    logout: async () => undefined,
    checkAuth: async () => undefined,
    checkError: async () => undefined,
    getPermissions: async () => entries,
    ...(identity ? { getIdentity: async () => identity } : {}),
    canAccess: async (params) => canAccessWith(entries, params),
  };
};
