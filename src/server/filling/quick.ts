import type { FastifyInstance } from 'fastify';
import { SignJWT, jwtVerify } from 'jose';
import type { Config } from '../config.js';
import type { DB } from '../db/connect.js';
import { openSession } from '../auth/sessions.js';
import { mayLogIn } from '../auth/user-info.js';
import { ok } from '../plugins/envelope.js';
import { FILLING_ANSWERS, quickLoginBody, type QuickLoginBody, type QuickSession } from '../../shared/calls/filling.js';
import { BusinessError } from '../plugins/errors.js';

const PURPOSE = 'qe-quick';
const MAX_DAYS = 60;
const key = (config: Config) => new TextEncoder().encode(`${config.secret}:quick-link`);

/**
 * Where links in mails point: QE_PUBLIC_URL and nothing else. Never the request's Host header: a
 * caller could forge it, and the school's own mail server would then send every respondent a
 * link to another site carrying a valid login token. Without it nothing is sent (a clear 713).
 */
export function mailOrigin(config: Config): string {
  if (!config.publicUrl) throw new BusinessError('PUBLIC_URL_REQUIRED');
  return config.publicUrl;
}

/**
 * The link in a reminder mail (the route /app/quick): signed, for one respondent and one
 * questionnaire, expiring with the questionnaire (60 days at most). It opens a session that
 * reaches that questionnaire only. It carries the account's sign-in stamp (`stamp`, as read with
 * the respondent: auth/sign-in-stamp.ts) and dies when that moves — a password changed, the
 * account disabled or left, a restore — like the account's sessions.
 */
export async function quickLink(config: Config, origin: string, userId: number, questionnaireId: number, endDate: string | null, stamp: string): Promise<string> {
  const cap = Date.now() + MAX_DAYS * 86_400_000;
  const expires = Math.min(endDate ? new Date(endDate).getTime() : cap, cap);
  const token = await new SignJWT({ purpose: PURPOSE, uid: userId, qid: questionnaireId, st: stamp })
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime(Math.floor(expires / 1000))
    .sign(key(config));
  return `${origin}/qe/app/quick?token=${encodeURIComponent(token)}`;
}

export async function quickLoginRoutes(app: FastifyInstance, { db, config }: { db: DB; config: Config }) {
  app.post<{ Body: QuickLoginBody }>('/v1/quick-login', {
    config: { permission: 'public', addressLimit: { max: 30, windowMs: 60_000 } },
    schema: {
      tags: ['filling'],
      summary: "Logs in from a reminder mail's link: a session for that questionnaire only: {tk, userId, questionnaireId}",
      body: quickLoginBody,
      response: FILLING_ANSWERS.quickLogin,
    },
  }, async (request) => {
    const verified = await jwtVerify(request.body.token, key(config)).catch(() => null);
    const claims = verified?.payload as { purpose?: string; uid?: number; qid?: number; st?: string; exp?: number } | undefined;
    if (!claims || claims.purpose !== PURPOSE || !claims.uid || !claims.qid || typeof claims.st !== 'string') throw new BusinessError('SESSION_EXPIRED');
    const user = await db.selectFrom('users').select(['id', 'active', 'status', 'user_type', 'sign_in_stamp']).where('id', '=', claims.uid).executeTakeFirst();
    const feedback = await db.selectFrom('feedback').select('id').where('user_id', '=', claims.uid).where('questionnaire_id', '=', claims.qid).executeTakeFirst();
    if (!user || !mayLogIn(user)) throw new BusinessError('ACCOUNT_DISABLED');
    // the stamp moved since the mail was sent: answered as an expired link (log in with the password)
    if (claims.st !== user.sign_in_stamp) throw new BusinessError('SESSION_EXPIRED');
    if (!feedback) throw new BusinessError('NOT_A_RESPONDENT');
    const tk = await openSession(db, config, user.id, { questionnaireId: claims.qid, expiresAt: (claims.exp ?? 0) * 1000 });
    return ok<QuickSession>({ tk, userId: user.id, questionnaireId: claims.qid });
  });
}
