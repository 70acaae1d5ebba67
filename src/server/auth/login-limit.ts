import { sql } from 'kysely';
import type { Config } from '../config.js';
import type { DB } from '../db/connect.js';
import { BusinessError } from '../plugins/errors.js';

/**
 * Failed logins counted per account and per client address in the database, so that
 * every instance behind a load balancer sees the same counts.
 */
export function loginLimiter(db: DB, config: Config) {
  const windowMs = config.loginWindowMinutes * 60_000;
  const keys = (username: string, address: string) => [
    { key: `account:${username.toLowerCase()}`, max: config.loginMaxFailures },
    { key: `address:${address}`, max: config.loginMaxFailuresPerAddress },
  ];

  return {
    /** Refuses with 702 when either count is used up within the window. */
    async check(username: string, address: string): Promise<void> {
      const now = Date.now();
      for (const { key, max } of keys(username, address)) {
        const row = await db.selectFrom('login_failures').selectAll().where('key', '=', key).executeTakeFirst();
        if (row && now - row.window_start < windowMs && row.count >= max) {
          const minutes = Math.max(1, Math.ceil((row.window_start + windowMs - now) / 60_000));
          throw new BusinessError('LOGIN_RATE_LIMITED', { minutes });
        }
      }
    },

    async recordFailure(username: string, address: string): Promise<void> {
      const now = Date.now();
      const expired = now - windowMs;
      for (const { key } of keys(username, address)) {
        await db
          .insertInto('login_failures')
          .values({ key, count: 1, window_start: now })
          .onConflict((oc) =>
            oc.column('key').doUpdateSet({
              count: sql`case when login_failures.window_start < ${expired} then 1 else login_failures.count + 1 end`,
              window_start: sql`case when login_failures.window_start < ${expired} then ${now} else login_failures.window_start end`,
            }),
          )
          .execute();
      }
    },

    /** A successful login clears the account's count (not the address's: one good login must not reopen a guessing address). */
    async clear(username: string): Promise<void> {
      await db.deleteFrom('login_failures').where('key', '=', `account:${username.toLowerCase()}`).execute();
    },
  };
}
