import type { Transaction } from 'kysely';
import type { DB } from '../db/connect.js';
import type { Database } from '../db/schema.js';
import type { Config } from '../config.js';
import { renewSignInStamps } from './sign-in-stamp.js';
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
export async function revokeUserSessions(db: DB | Transaction<Database>, userId: number, except?: string): Promise<void> {
  let q = db.updateTable('sessions').set({ revoked_at: Date.now() }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (except) q = q.where('id', '!=', except);
  await q.execute();
}

/**
 * A password changed (by its owner, an administrator or an import): every session of the account
 * ends and so do the sign-in links of reminders already mailed (a new sign-in stamp), on every
 * instance. Not the login's silent rehash to a stronger scheme: the password stays the same.
 */
export async function passwordChanged(db: DB | Transaction<Database>, userId: number): Promise<void> {
  await revokeUserSessions(db, userId);
  await renewSignInStamps(db, userId);
}
