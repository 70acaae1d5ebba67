import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { mayLogIn } from '../auth/user-info.js';
import type { SessionCache, Versions } from '../auth/session-cache.js';
import { BusinessError } from './errors.js';

export interface AuthUser {
  id: number;
  userType: string;
  sessionId: string;
  /** the `page.action` codes held, checked on each request so a role change applies at once (auth/session-cache.ts) */
  permissions: Set<string>;
  /** a session from a reminder link: this questionnaire only */
  questionnaireId: number | null;
  /** the cache counters read as the request began (auth/session-cache.ts) */
  seen: Versions;
}

/** What a reminder link's session may call: who am I, and that one questionnaire (its draft too). */
const QUICK_ROUTES = new Set(['/v1/my/user-info', '/v1/my/action-list', '/v1/my/permissions', '/v1/logout', '/v1/school-info', '/v1/my/questionnaires/:id', '/v1/my/questionnaires/:id/replies', '/v1/my/questionnaires/:id/draft']);

/** One action of one page: `form.view`. */
export type PagePermission = `${string}.${string}`;

/**
 * What a route needs: `public` (no login), `*` (any logged-in user), `page.action`
 * (form.view), or a list of `page.action` of which any one will do (the class list serves
 * whoever sees, adds or edits students). Every /v1 and /ed route must declare one — the app
 * refuses to start otherwise.
 */
export type Permission = 'public' | '*' | PagePermission | readonly PagePermission[];

declare module 'fastify' {
  interface FastifyContextConfig {
    permission?: Permission;
  }
  interface FastifyRequest {
    user: AuthUser | null;
  }
}

const API_PREFIXES = ['/v1/', '/ed/'];

function bearer(request: FastifyRequest): string | null {
  const h = request.headers.authorization;
  if (!h) return null;
  const m = /^Bearer\s+(.+)$/i.exec(h);
  return m ? m[1].trim() : null;
}

export async function authenticate(sessions: SessionCache, request: FastifyRequest): Promise<AuthUser> {
  const token = bearer(request);
  if (!token) throw new BusinessError('SESSION_EXPIRED');
  const claims = await sessions.claims(token);
  if (!claims) throw new BusinessError('SESSION_EXPIRED');
  const { facts: session, seen } = await sessions.session(claims.sessionId);
  if (!session || session.userId !== claims.userId || session.expiresAt < Date.now()) throw new BusinessError('SESSION_EXPIRED');
  // a revoked session (logout, password change) or an account that may no longer log in
  // (disabled, a teacher off the job, a student who left): 444, so the client logs out
  if (session.revoked || !mayLogIn({ active: session.active, user_type: session.userType, status: session.status })) throw new BusinessError('SESSION_REVOKED');
  let permissions = session.permissions;
  const questionnaireId = session.questionnaireId;
  if (questionnaireId !== null) {
    const url = request.routeOptions.url ?? '';
    const id = (request.params as { id?: string } | undefined)?.id;
    if (!QUICK_ROUTES.has(url) || (url.includes(':id') && Number(id) !== questionnaireId)) throw new BusinessError('PERMISSION_DENIED');
    permissions = new Set([...permissions].filter((p) => p === 'form-input.view'));
  }
  return { id: claims.userId, userType: session.userType, sessionId: claims.sessionId, permissions, questionnaireId, seen };
}

export const guardPlugin = fp<{ sessions: SessionCache }>(async function guard(app: FastifyInstance, { sessions }) {
  app.decorateRequest('user', null);

  app.addHook('onRoute', (route) => {
    const url = route.url ?? '';
    if (!API_PREFIXES.some((p) => url.startsWith(p))) return;
    const permission = route.config?.permission;
    if (!permission || (Array.isArray(permission) && (permission.length === 0 || permission.some((p) => !/^[^.]+\.[^.]+$/.test(p))))) {
      throw new Error(`route ${String(route.method)} ${url} declares no permission`);
    }
  });

  // before the body is read or validated: a caller who may not call learns nothing of the form
  app.addHook('onRequest', async (request) => {
    const permission = request.routeOptions.config?.permission;
    if (!permission) return; // not an API route (static files, the OpenAPI page)
    if (permission === 'public') return;
    request.user = await authenticate(sessions, request);
    if (permission === '*') return;
    const anyOf: readonly string[] = typeof permission === 'string' ? [permission] : permission;
    if (!anyOf.some((p) => request.user!.permissions.has(p))) throw new BusinessError('PERMISSION_DENIED');
  });
});

/** For handlers behind a logged-in permission: the user, which the guard has set. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw new BusinessError('SESSION_EXPIRED');
  return request.user;
}
