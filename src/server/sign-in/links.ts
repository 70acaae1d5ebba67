import type { FastifyInstance } from 'fastify';
import type { DB } from '../db/connect.js';
import { ok } from '../plugins/envelope.js';
import { BusinessError } from '../plugins/errors.js';
import { currentUser, type AuthUser, type PagePermission } from '../plugins/guard.js';
import { SIGN_IN_ANSWERS, userLinkParams, userLinksParams, type ProviderKind, type SignInLinkList, type UserLinkParams, type UserLinksParams } from '../../shared/calls/sign-in.js';

/** The master-data page whose records hold accounts of each user type: its view and edit actions govern their links too. */
const PAGE_OF: Record<string, string> = { STUDENT: 'student', TEACHER: 'teacher', ADMIN: 'admin', SUPER_ADMIN: 'admin' };
const ANY_OF = (action: 'view' | 'edit') => ['student', 'teacher', 'admin'].map((p) => `${p}.${action}` as PagePermission);

/**
 * The links between QE accounts and the accounts of the school's providers (made at an account's
 * first sign-in, src/server/sign-in/flow.ts): the caller's own, and any account's for who may see
 * or change that account's record — students' by student.view/edit, teachers' by teacher.*,
 * administrators' by admin.*, and a super administrator's by a super administrator only (as only
 * they change such a record: docs/security.md#super-administrators). Removing a link makes the next
 * sign-in find the account by its school account again.
 */
export class SignInLinks {
  constructor(private readonly db: DB) {}

  async of(userId: number): Promise<SignInLinkList> {
    const rows = await this.db
      .selectFrom('sign_in_links')
      .innerJoin('identity_providers', 'identity_providers.id', 'sign_in_links.provider_id')
      .select(['sign_in_links.id', 'sign_in_links.provider_id', 'identity_providers.kind', 'identity_providers.name_hk', 'identity_providers.name_en', 'sign_in_links.email', 'sign_in_links.linked_at', 'sign_in_links.last_used_at'])
      .where('sign_in_links.user_id', '=', userId)
      .orderBy('identity_providers.seq')
      .orderBy('sign_in_links.id')
      .execute();
    return rows.map((r) => ({ id: r.id, providerId: r.provider_id, kind: r.kind as ProviderKind, nameHk: r.name_hk, nameEn: r.name_en, email: r.email, linkedAt: r.linked_at, lastUsedAt: r.last_used_at }));
  }

  /** Refuses (405) a caller who may not `action` the record of the account; an unknown account is 404. */
  async mayReach(me: AuthUser, userId: number, action: 'view' | 'edit'): Promise<void> {
    const target = await this.db.selectFrom('users').select('user_type').where('id', '=', userId).executeTakeFirst();
    if (!target) throw new BusinessError('RECORD_NOT_FOUND');
    const page = PAGE_OF[target.user_type];
    if (!page || !me.permissions.has(`${page}.${action}`)) throw new BusinessError('PERMISSION_DENIED');
    if (target.user_type === 'SUPER_ADMIN' && me.userType !== 'SUPER_ADMIN') throw new BusinessError('PERMISSION_DENIED');
  }

  async remove(userId: number, linkId: number): Promise<void> {
    const gone = await this.db.deleteFrom('sign_in_links').where('id', '=', linkId).where('user_id', '=', userId).executeTakeFirst();
    if (!Number(gone.numDeletedRows)) throw new BusinessError('RECORD_NOT_FOUND');
  }
}

const tags = ['sign-in'];

export async function linkRoutes(app: FastifyInstance, { links }: { links: SignInLinks }) {
  app.get('/v1/my/sign-in-links', {
    config: { permission: '*' },
    schema: { tags, summary: 'My account’s links to the school’s sign-in providers', response: SIGN_IN_ANSWERS.links },
  }, async (request) => ok(await links.of(currentUser(request).id)));

  app.get<{ Params: UserLinksParams }>('/v1/users/:userId/sign-in-links', {
    config: { permission: ANY_OF('view') },
    schema: { tags, summary: 'An account’s sign-in links: student.view for a student’s, teacher.view for a teacher’s, admin.view for an administrator’s; a super administrator’s to a super administrator only', params: userLinksParams, response: SIGN_IN_ANSWERS.links },
  }, async (request) => {
    await links.mayReach(currentUser(request), request.params.userId, 'view');
    return ok(await links.of(request.params.userId));
  });

  app.delete<{ Params: UserLinkParams }>('/v1/users/:userId/sign-in-links/:linkId', {
    config: { permission: ANY_OF('edit') },
    schema: { tags, summary: 'Removes a sign-in link (edit of the account’s record): the next sign-in finds the account by its school account again', params: userLinkParams, response: SIGN_IN_ANSWERS.removed },
  }, async (request) => {
    await links.mayReach(currentUser(request), request.params.userId, 'edit');
    await links.remove(request.params.userId, request.params.linkId);
    return ok(null);
  });
}
