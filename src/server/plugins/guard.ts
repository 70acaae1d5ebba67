import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import type { DB } from '../db/connect.js';
import { readToken } from '../auth/tokens.js';
import { mayLogIn } from '../auth/user-info.js';
import { userPermissionCodes } from '../developer/permission-queries.js';
import { BusinessError } from './errors.js';

export interface AuthUser {
  id: number;
  userType: string;
  sessionId: string;
  /** the `page.action` codes held, loaded on each request so a role change applies at once */
  permissions: Set<string>;
  /** a session from a reminder link: this questionnaire only */
  questionnaireId: number | null;
}

/** What a reminder link's session may call: who am I, and that one questionnaire. */
const QUICK_ROUTES = new Set(['/v1/my/user-info', '/v1/my/action-list', '/v1/my/permissions', '/v1/logout', '/v1/school-info', '/v1/my/questionnaires/:id', '/v1/my/questionnaires/:id/replies']);

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

export async function authenticate(db: DB, config: Config, request: FastifyRequest): Promise<AuthUser> {
  const token = bearer(request);
  if (!token) throw new BusinessError('SESSION_EXPIRED');
  const claims = await readToken(config.secret, token);
  if (!claims) throw new BusinessError('SESSION_EXPIRED');
  const row = await db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .where('s.id', '=', claims.sessionId)
    .select(['s.user_id', 's.expires_at', 's.revoked_at', 's.questionnaire_id', 'u.user_type', 'u.active', 'u.status'])
    .executeTakeFirst();
  if (!row || row.user_id !== claims.userId || row.expires_at < Date.now()) throw new BusinessError('SESSION_EXPIRED');
  // a revoked session (logout, password change) or an account that may no longer log in
  // (disabled, a teacher off the job, a student who left): 444, so the client logs out
  if (row.revoked_at !== null || !mayLogIn(row)) throw new BusinessError('SESSION_REVOKED');
  let permissions = await userPermissionCodes(db, claims.userId);
  const questionnaireId = row.questionnaire_id ?? null;
  if (questionnaireId !== null) {
    const url = request.routeOptions.url ?? '';
    const id = (request.params as { id?: string } | undefined)?.id;
    if (!QUICK_ROUTES.has(url) || (url.includes(':id') && Number(id) !== questionnaireId)) throw new BusinessError('PERMISSION_DENIED');
    permissions = new Set([...permissions].filter((p) => p === 'form-input.view'));
  }
  return { id: claims.userId, userType: row.user_type, sessionId: claims.sessionId, permissions, questionnaireId };
}

export const guardPlugin = fp<{ db: DB; config: Config }>(async function guard(app: FastifyInstance, { db, config }) {
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
    request.user = await authenticate(db, config, request);
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
