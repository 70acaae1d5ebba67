import type { AuthProvider, UserIdentity } from 'react-admin';

/**
 * An auth provider for screen tests: canAccess as QE's authProvider answers it (`${resource}.${action}`
 * among the user's permission codes) and, when given, the identity the top bar and screens read.
 */
export const authFor = (permissions: string[], identity?: UserIdentity): AuthProvider => ({
  login: async () => undefined,
  logout: async () => undefined,
  checkAuth: async () => undefined,
  checkError: async () => undefined,
  getPermissions: async () => [],
  ...(identity ? { getIdentity: async () => identity } : {}),
  canAccess: async ({ resource, action }) => permissions.includes(`${resource}.${action}`),
});
