import { countTry } from '../auth/login-limit.js';
import type { DB } from '../db/connect.js';
import { BusinessError } from '../plugins/errors.js';

/**
 * How often one user may save answer-screen drafts (docs/security.md#drafts-are-bounded): a burst
 * and a rate per minute, over all their questionnaires. The answer screen saves 1.5 s after the
 * last change and one save at a time (src/client/filling/serverDraft.ts), so however fast one
 * types it sends at most some 7 saves in 10 s and 40 in a minute; these are well above that and
 * far below a script's hundreds a second. No longer than a minute each, the shortest login
 * window, so the login limit's clearing of spent counters never clears one of these early.
 */
export const DRAFT_SAVE_LIMITS = [
  { name: 'burst', max: 20, windowMs: 10_000 },
  { name: 'minute', max: 60, windowMs: 60_000 },
] as const;

/**
 * Counts a save of `userId`'s draft in the database (the login limit's counters, `countTry`: every
 * instance on the database sees the same counts), or refuses it with 429 `DRAFT_SAVES_LIMITED`
 * and the seconds until it may save again (`data.retryAfter`). The first counter used up refuses;
 * the later ones are not counted then.
 */
export async function countDraftSave(db: DB, userId: number, now = Date.now()): Promise<void> {
  for (const { name, max, windowMs } of DRAFT_SAVE_LIMITS) {
    const row = await countTry(db, `draft-${name}:${userId}`, windowMs, now);
    if (row.count > max) {
      const seconds = Math.min(windowMs / 1000, Math.max(1, Math.ceil((Number(row.window_start) + windowMs - now) / 1000)));
      throw new BusinessError('DRAFT_SAVES_LIMITED', { seconds }, { retryAfter: seconds });
    }
  }
}
