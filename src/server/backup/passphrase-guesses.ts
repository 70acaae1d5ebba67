import type { Config } from '../config.js';
import type { DB } from '../db/connect.js';
import { countTry } from '../auth/login-limit.js';
import { BusinessError } from '../plugins/errors.js';

/** Passphrase tries of one user, and of everyone, within the login window (QE_LOGIN_WINDOW_MINUTES). */
export const PASSPHRASE_GUESSES = { perUser: 10, overall: 30 } as const;

/**
 * A restore's passphrase tried: counted before the slow check, as logins are (auth/login-limit.ts,
 * in `login_failures` so every instance sees the counts), per user and over all users; past
 * either limit refused with BACKUP_GUESSES_LIMITED (768). A right passphrase takes the user's
 * count back to nothing; the overall one keeps wrong ones only.
 */
export async function countPassphraseGuess(db: DB, config: Config, userId: number): Promise<{ right(): Promise<void> }> {
  const windowMs = config.loginWindowMinutes * 60_000;
  const now = Date.now();
  const counters = [
    { key: `backup-passphrase:user:${userId}`, max: PASSPHRASE_GUESSES.perUser },
    { key: 'backup-passphrase:all', max: PASSPHRASE_GUESSES.overall },
  ];
  for (const { key, max } of counters) {
    const row = await countTry(db, key, windowMs, now);
    if (row.count > max) {
      const minutes = Math.min(config.loginWindowMinutes, Math.max(1, Math.ceil((Number(row.window_start) + windowMs - now) / 60_000)));
      throw new BusinessError('BACKUP_GUESSES_LIMITED', { minutes });
    }
  }
  return {
    async right() {
      await db.deleteFrom('login_failures').where('key', '=', counters[0].key).execute();
      await db
        .updateTable('login_failures')
        .set((eb) => ({ count: eb.case().when('count', '>', 0).then(eb('count', '-', 1)).else(0).end() }))
        .where('key', '=', counters[1].key)
        .execute();
    },
  };
}
