import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { DB } from '../db/connect.js';
import { ok } from '../plugins/envelope.js';
import { BusinessError, FieldError, requestLang } from '../plugins/errors.js';
import { currentUser } from '../plugins/guard.js';
import { permissionCatalogue, permissionEntries } from '../developer/permission-queries.js';
import type { SessionCache } from './session-cache.js';
import { loginLimiter } from './login-limit.js';
import { decoyHash, hashPassword, needsRehash, verifyPassword } from './passwords.js';
import { openSession, passwordChanged, revokeSession } from './sessions.js';
import { mayLogIn, userInfo } from './user-info.js';
import { UserInfoAnswers } from './user-info-answers.js';
import { PasswordPolicyService } from '../sign-in/password-policy.js';
import { normaliseUsername } from '../../shared/usernames.js';
import { schoolClock } from '../school/clock.js';
import { SESSION_ANSWERS } from '../../shared/calls/session.js';
import { AUTH_ANSWERS, changePasswordBody, loginBody, userIdQuery, type ActionList, type ChangePasswordBody, type LoggedIn, type LoginBody, type MyPermissions, type UserIdQuery } from '../../shared/calls/auth.js';

const tags = ['session'];

/** Login, logout, password change and what the logged-in user may see and do. */
export async function authRoutes(app: FastifyInstance, { db, config, sessions }: { db: DB; config: Config; sessions: SessionCache }) {
  const limiter = loginLimiter(db, config);
  const userInfoAnswers = new UserInfoAnswers();
  const passwordPolicy = new PasswordPolicyService(db);

  app.post<{ Body: LoginBody }>('/v1/login', {
    config: { permission: 'public' },
    schema: { tags, summary: 'Log in; answers the token (tk) and the user id. 778 for a right password of a user type that signs in with the school’s accounts (GET /v1/sign-in/options)', body: loginBody, response: AUTH_ANSWERS.login },
  }, async (request) => {
    const { password: given } = request.body;
    // as every user name is kept (the import, an account's form): ｆｕｌｌ１２３ finds full123
    const username = normaliseUsername(request.body.username);
    // counted before the slow check: a burst gets no more checks than the limit allows
    const attempt = await limiter.login(username, request.ip);
    const user = await db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
    const matches = await verifyPassword(given, user?.password_hash ?? (await decoyHash()), request.ip);
    if (!user || !matches) throw new BusinessError('LOGIN_FAILED');
    await attempt.succeeded();
    if (!mayLogIn(user)) throw new BusinessError('ACCOUNT_DISABLED');
    // a user type the school signs in through its own accounts: the right password is refused, pointing there
    await passwordPolicy.refusePasswordLogin(user.user_type, requestLang(request));
    const now = new Date().toISOString();
    // a hash of an older scheme (scrypt) or strength is replaced now that the password is known;
    // only if it is still the one checked (a password changed meanwhile is left alone)
    if (needsRehash(user.password_hash)) {
      const upgraded = await hashPassword(given, request.ip);
      await db.updateTable('users').set({ password_hash: upgraded }).where('id', '=', user.id).where('password_hash', '=', user.password_hash).execute();
    }
    await db.updateTable('users').set({ last_login: user.login_time, login_time: now, language: requestLang(request) }).where('id', '=', user.id).execute();
    const tk = await openSession(db, config, user.id);
    return ok<LoggedIn>({ tk, userId: user.id });
  });

  app.post('/v1/logout', {
    config: { permission: '*' },
    schema: { tags, summary: 'Log out: the token stops working at once', response: AUTH_ANSWERS.changed },
  }, async (request) => {
    await revokeSession(db, currentUser(request).sessionId);
    return ok(null);
  });

  app.post<{ Body: ChangePasswordBody }>('/v1/change-password', {
    config: { permission: '*' },
    schema: { tags, summary: 'Change my password; every session of mine ends and I log in again', body: changePasswordBody, response: AUTH_ANSWERS.changed },
  }, async (request) => {
    const me = currentUser(request);
    const { oldPassword, newPassword } = request.body;
    const attempt = await limiter.oldPassword(me.id);
    const user = await db.selectFrom('users').select(['password_hash']).where('id', '=', me.id).executeTakeFirstOrThrow();
    if (!(await verifyPassword(oldPassword, user.password_hash, request.ip))) {
      throw new FieldError({ oldPassword: { rule: 'oldPasswordWrong' } });
    }
    await attempt.succeeded();
    if (oldPassword === newPassword) throw new BusinessError('SAME_PASSWORD');
    await db
      .updateTable('users')
      .set({ password_hash: await hashPassword(newPassword, request.ip), updated_at: new Date().toISOString() })
      .where('id', '=', me.id)
      .execute();
    await passwordChanged(db, me.id);
    return ok(null);
  });

  /** The userId parameter of the calls the product names must be the caller's own (docs/product-rules.md#calls-the-product-names). */
  const ownUserId = (asked: number | undefined, mine: number) => {
    if (asked !== undefined && asked !== mine) throw new BusinessError('PERMISSION_DENIED');
  };

  app.get<{ Querystring: UserIdQuery }>('/v1/my/user-info', {
    config: { permission: '*' },
    schema: { tags, summary: 'The logged-in user, permissions and school calendar included', querystring: userIdQuery, response: SESSION_ANSWERS.userInfo },
  }, async (request, reply) => {
    const me = currentUser(request);
    ownUserId(request.query.userId, me.id);
    const body = await userInfoAnswers.answer(me, await schoolClock(db).zone(me.seen), async () =>
      ok(userInfo(await sessions.user(me.id, me.seen), await sessions.permissionEntries(me.permissions, me.seen), await sessions.calendar(me.seen))),
    );
    return reply.type('application/json; charset=utf-8').send(body);
  });

  app.get<{ Querystring: UserIdQuery }>('/v1/my/action-list', {
    config: { permission: '*' },
    schema: { tags, summary: 'The `page.action` codes I hold', querystring: userIdQuery, response: AUTH_ANSWERS.actionList },
  }, async (request) => {
    const me = currentUser(request);
    ownUserId(request.query.userId, me.id);
    return ok<ActionList>([...me.permissions].sort());
  });

  app.get<{ Querystring: UserIdQuery }>('/v1/my/permissions', {
    config: { permission: '*' },
    schema: { tags, summary: 'My permission list: every page with its actions and which I hold', querystring: userIdQuery, response: AUTH_ANSWERS.permissions },
  }, async (request) => {
    const me = currentUser(request);
    ownUserId(request.query.userId, me.id);
    const system = request.query.system ?? 'QE';
    return ok<MyPermissions>(system === 'QE' ? await sessions.permissionEntries(me.permissions, me.seen) : permissionEntries(await permissionCatalogue(db, system), me.permissions));
  });
}
