import { sql } from 'kysely';
import { addressKey } from '../ip-ranges.js';
import type { Config } from '../config.js';
import type { DB } from '../db/connect.js';
import { BusinessError } from '../plugins/errors.js';
import type { ErrorKey } from '../../shared/errors.js';

/** A counted try: what to do once the password check has answered. */
export interface Attempt {
  /** the password was right: the account's count starts afresh, the try is not held against the address */
  succeeded(): Promise<void>;
}

interface Counter {
  key: string;
  max: number;
}

/**
 * Adds one to a counter of tries kept in the database (`login_failures`, shared by every instance
 * on the database), starting a fresh window when the old one has passed, and answers the new
 * count and its window's start. One atomic statement, so of a burst of simultaneous tries exactly
 * the first `max` see a count within the limit. The login limits below count so, and so do the
 * saves of answer-screen drafts (src/server/filling/draft-saves.ts), under keys of their own.
 */
export async function countTry(db: DB, key: string, windowMs: number, now: number): Promise<{ count: number; window_start: number }> {
  const expired = now - windowMs;
  return db
    .insertInto('login_failures')
    .values({ key, count: 1, window_start: now })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql`case when login_failures.window_start < ${expired} then 1 else login_failures.count + 1 end`,
        window_start: sql`case when login_failures.window_start < ${expired} then ${now} else login_failures.window_start end`,
      }),
    )
    .returning(['count', 'window_start'])
    .executeTakeFirstOrThrow();
}

/**
 * Password guesses counted in the database (so every instance behind a load balancer sees the
 * same counts) per account and per client address, within a window.
 *
 * A try is counted *before* the slow password check, by one atomic increment that answers the
 * new count: of 200 simultaneous guesses for one account only the first `max` are checked, and
 * the right password sent after them is refused until the window has passed. The per-address
 * ceiling is much higher than the per-account one: a class behind one router shares an address,
 * and one pupil's typing must not lock out the others.
 */
export function loginLimiter(db: DB, config: Config) {
  const windowMs = config.loginWindowMinutes * 60_000;

  const increment = (key: string, now: number) => countTry(db, key, windowMs, now);

  /** The address's count keeps failures only: one good login neither counts nor reopens a guessing address. */
  async function release(counters: Counter[]): Promise<void> {
    for (const { key } of counters) {
      await db.updateTable('login_failures').set({ count: sql`case when count > 0 then count - 1 else 0 end` }).where('key', '=', key).execute();
    }
  }

  /**
   * Counts a try against each counter in turn; the first one used up refuses it (702), and later
   * counters are left alone. `countAll` false: only the first is counted (the others were counted
   * already), the rest named for `succeeded` to release.
   */
  async function attempt(counters: Counter[], refusal: ErrorKey, countAll = true): Promise<Attempt> {
    const now = Date.now();
    // made-up names leave rows behind: now and then the expired ones go
    if (Math.random() < 0.01) await db.deleteFrom('login_failures').where('window_start', '<', now - windowMs).execute();
    for (const { key, max } of countAll ? counters : counters.slice(0, 1)) {
      const row = await increment(key, now);
      if (row.count > max) {
        // tries of one burst take their clock a moment apart: one that read it before the window's
        // first try would count a few milliseconds more than the window (16 minutes of 15)
        const minutes = Math.min(config.loginWindowMinutes, Math.max(1, Math.ceil((row.window_start + windowMs - now) / 60_000)));
        throw new BusinessError(refusal, { minutes });
      }
    }
    const [account, ...others] = counters;
    return {
      async succeeded() {
        await db.deleteFrom('login_failures').where('key', '=', account.key).execute();
        await release(others);
      },
    };
  }

  return {
    /** A login try for `username` from `address`: counted, or refused with 702 when a count is used up. */
    login(username: string, address: string): Promise<Attempt> {
      return attempt(
        [
          { key: `account:${username.toLowerCase()}`, max: config.loginMaxFailures },
          { key: `address:${addressKey(address)}`, max: config.loginMaxFailuresPerAddress },
        ],
        'LOGIN_RATE_LIMITED',
      );
    },

    /**
     * A completion of a sign-in through the school's provider (src/server/sign-in/flow.ts), from
     * `address`: counted against the address as a failed login is, before anything is checked, so
     * that a burst of forged completions is refused (702) like a burst of guesses; `succeeded`
     * takes the try off the address's count, as a good login does.
     *
     * It is never counted against the account's password counter (`account:<username>`), nor does
     * it clear it: a completion whose ID token the provider signed is no guess of a password, so
     * wrong passwords typed for an account (by anyone who knows its username) must not refuse its
     * owner's sign-in with the school account; and the owner's routine sign-ins must not hand a
     * password guesser a fresh set of guesses each time. Only a right password clears that count.
     */
    async signIn(address: string) {
      const byAddress = { key: `address:${addressKey(address)}`, max: config.loginMaxFailuresPerAddress };
      await attempt([byAddress], 'LOGIN_RATE_LIMITED');
      return {
        async succeeded(): Promise<void> {
          await release([byAddress]);
        },
      };
    },

    /** A try of a logged-in user's old password (change password): the same limit as logins, per user. */
    oldPassword(userId: number): Promise<Attempt> {
      return attempt([{ key: `password-change:${userId}`, max: config.loginMaxFailures }], 'PASSWORD_RATE_LIMITED');
    },
  };
}
