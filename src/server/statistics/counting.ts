import type { DB } from '../db/connect.js';
import { lockForQuestionnaire } from '../db/locks.js';
import { answerRows, insertAnswerRows } from './answerRows.js';
import { parseDefinition } from '../questionnaires/definitions.js';

/**
 * A named reply is stored with `counted = 0` (filling/index.ts): its submission's transaction
 * writes the reply and the feedback record only, so a whole school submitting at once waits for
 * two rows each, not ~150 countable rows and as many counters. Its counters (answer_counts) and
 * its rows with a text (reply_answers) are written here, many replies in one transaction — each counter
 * once per batch however many replies it counts — shortly after (ReplyCounting below), and by
 * any statistics call before it reads (scopedQuestionnaire, statistics/scoped.ts), so results are never behind
 * the replies stored. A batch marks its replies counted in the transaction that writes their
 * rows: after a crash the replies still at 0 are counted at the next start, none twice.
 */

/** Replies per transaction: counters shared by many replies, others kept waiting a few ms at most. */
const BATCH_REPLIES = 100;
/** Counting waits for a pause in the submissions this long… */
const QUIET_MS = 200;
/** …but no longer than this after the first reply it has to count (a statistics call counts at once). */
const MAX_WAIT_MS = 3000;

/** Writes the countable rows and counters of a questionnaire's uncounted replies; answers how many replies. */
export async function countPendingReplies(db: DB, questionnaireId: number): Promise<number> {
  let counted = 0;
  for (;;) {
    const done = await db.transaction().execute(async (trx) => {
      // one counting of a questionnaire at a time across instances; a second one then finds none left
      await lockForQuestionnaire(trx, 'replyCounting', questionnaireId);
      const pending = await trx
        .selectFrom('replies')
        .select(['id', 'answers', 'respondent_role', 'grade_id', 'class_id'])
        .where('questionnaire_id', '=', questionnaireId)
        .where('counted', '=', 0)
        .limit(BATCH_REPLIES)
        .execute();
      if (!pending.length) return { replies: 0, more: false };
      const q = await trx.selectFrom('questionnaires').select('definition').where('id', '=', questionnaireId).executeTakeFirstOrThrow();
      const definition = parseDefinition(q.definition);
      const rows = pending.flatMap((r) => answerRows(definition, { id: r.id, questionnaire_id: questionnaireId, respondent_role: r.respondent_role ?? null, grade_id: r.grade_id ?? null, class_id: r.class_id ?? null }, JSON.parse(r.answers)));
      await insertAnswerRows(trx, rows);
      await trx.updateTable('replies').set({ counted: 1 }).where('id', 'in', pending.map((r) => r.id)).execute();
      return { replies: pending.length, more: pending.length === BATCH_REPLIES };
    });
    counted += done.replies;
    if (!done.more) return counted;
    // other requests between batches
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Whether a questionnaire has replies still to count (one probe of a partial index). */
export async function hasPendingReplies(db: DB, questionnaireId: number): Promise<boolean> {
  const row = await db.selectFrom('replies').select('id').where('questionnaire_id', '=', questionnaireId).where('counted', '=', 0).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** Results never lag behind the replies stored: what the background counting has not reached yet is counted now. */
export async function countPendingNow(db: DB, questionnaireId: number): Promise<void> {
  if (await hasPendingReplies(db, questionnaireId)) await countPendingReplies(db, questionnaireId);
}

/** Counts every questionnaire's pending replies now; answers how many replies. */
export async function countAllPendingReplies(db: DB): Promise<number> {
  const due = await db.selectFrom('replies').select('questionnaire_id').where('counted', '=', 0).groupBy('questionnaire_id').execute();
  let n = 0;
  for (const { questionnaire_id } of due) n += await countPendingReplies(db, questionnaire_id);
  return n;
}

/**
 * The background side: `soon()` after a named submission counts the pending replies once the
 * submissions pause (QUIET_MS without one) or, under a burst that does not pause, MAX_WAIT_MS
 * after the first of them — so that what a pupil waits for (the acknowledgement of a reply) is
 * not kept waiting by what nobody waits for (its counting), and the submissions of a burst are
 * counted together. A statistics call never waits for this: it counts what is pending before it
 * reads. At start, the replies a stop left uncounted. `close()` waits for a counting under way.
 */
export class ReplyCounting {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private again = false;
  private closed = false;
  /** when the first submission not yet counted, and the last one, came (ms) */
  private firstAt = 0;
  private lastAt = 0;

  constructor(
    private readonly db: DB,
    private readonly log: { error: (o: object, m: string) => void },
    private readonly quietMs = QUIET_MS,
    private readonly maxWaitMs = MAX_WAIT_MS,
  ) {}

  /** Counts what a stop left uncounted (at start). */
  start(): void {
    if (this.closed) return;
    this.timer = setTimeout(() => this.run(), 0);
    this.timer.unref();
  }

  /** A named reply was stored: counted with the others once the submissions pause, or at the latest after maxWaitMs. */
  soon(): void {
    if (this.closed) return;
    const now = Date.now();
    this.lastAt = now;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) return;
    this.waitFrom(now);
  }

  /** The first reply to count came at `now`: counted after the pause, or at the latest after maxWaitMs. */
  private waitFrom(now: number): void {
    this.firstAt = now;
    this.arm(Math.min(this.quietMs, this.maxWaitMs));
  }

  private arm(delayMs: number): void {
    this.timer = setTimeout(() => this.due(), Math.max(0, delayMs));
    this.timer.unref();
  }

  /** One timer for the whole burst: re-armed for what is left of the pause, not reset by every submission. */
  private due(): void {
    const now = Date.now();
    const quietLeft = this.lastAt + this.quietMs - now;
    const waitLeft = this.firstAt + this.maxWaitMs - now;
    if (quietLeft > 0 && waitLeft > 0) return this.arm(Math.min(quietLeft, waitLeft));
    this.run();
  }

  private run(): void {
    this.timer = null;
    this.again = false;
    this.running = countAllPendingReplies(this.db)
      .catch((err) => this.log.error({ err }, 'counting replies failed'))
      .finally(() => {
        this.running = null;
        if (this.again && !this.closed) {
          // the submissions that came meanwhile: counted by the same rule, from the first of them
          this.waitFrom(Date.now());
        }
      });
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }
}
