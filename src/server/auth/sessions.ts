import type { DB } from '../db/connect.js';
import type { Config } from '../config.js';
import { newSessionId, signToken } from './tokens.js';

/** A new session and its token; `questionnaireId` limits it to that questionnaire (a reminder link's login). */
export async function openSession(db: DB, config: Config, userId: number, options: { questionnaireId?: number; expiresAt?: number } = {}): Promise<string> {
  const now = Date.now();
  const expiresAt = Math.min(options.expiresAt ?? Infinity, now + config.sessionHours * 3600_000);
  const id = newSessionId();
  await db.insertInto('sessions').values({ id, user_id: userId, created_at: now, expires_at: expiresAt, revoked_at: null, questionnaire_id: options.questionnaireId ?? null }).execute();
  return signToken(config.secret, { userId, sessionId: id }, expiresAt);
}

export async function revokeSession(db: DB, sessionId: string): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: Date.now() }).where('id', '=', sessionId).where('revoked_at', 'is', null).execute();
}

/** Revokes every session of a user but the one given (password change keeps the current one or none). */
export async function revokeUserSessions(db: DB, userId: number, except?: string): Promise<void> {
  let q = db.updateTable('sessions').set({ revoked_at: Date.now() }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (except) q = q.where('id', '!=', except);
  await q.execute();
}
