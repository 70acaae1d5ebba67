import { sql, type Insertable } from 'kysely';
import type { DB } from '../db/connect.js';
import type { RepliesTable } from '../db/schema.js';
import { insertRows } from '../db/bulk.js';

/** One submission to store: the claim of its feedback record and its reply. */
export interface Submission {
  feedbackId: number;
  submittedAt: string;
  submissionKey: string;
  reply: Required<Insertable<RepliesTable>>;
  /** the respondent's draft, deleted with the stored reply (drafts.ts; a named questionnaire's only: an anonymous one has none) */
  draft?: { questionnaireId: number; userId: number };
}

interface Queued extends Submission {
  resolve: (stored: boolean) => void;
  reject: (error: unknown) => void;
}

/** A reply's columns as a submission writes them (bulk.ts: plain SQL, prepared once). */
const REPLY_COLUMNS = ['id', 'questionnaire_id', 'respondent_role', 'grade_id', 'class_id', 'feedback_id', 'submitted_on', 'answers', 'mixed', 'released', 'counted'] as const;
/** An anonymous reply's, which waits apart until its batch is released (mixing.ts, migration 0028). */
const WAITING_COLUMNS = ['id', 'questionnaire_id', 'respondent_role', 'grade_id', 'class_id', 'submitted_on', 'answers'] as const;

/** At most this many submissions share a transaction (the rest take the next one). */
const GROUP = 200;

/**
 * Stores submissions the way a whole school sends them: together. Those that arrive within the
 * same turn of the event loop are written in one transaction — on SQLite, which has one writer
 * anyway, one commit instead of one each — and each is answered only after that commit, so an
 * acknowledged reply is stored. The feedback records are claimed by one conditional update for the
 * group: a record still NOT_SUBMITTED turns SUBMITTED and its reply is stored; of concurrent
 * submissions of one person exactly one does (`false` for the others), as when each had a
 * transaction of its own. A stored named reply's draft (drafts.ts) is deleted in the same
 * transaction, so no draft outlives the reply it became.
 */
export class SubmissionWriter {
  private queue: Queued[] = [];
  private scheduled = false;

  constructor(private readonly db: DB) {}

  /** Stores the submission: true once committed, false when the feedback record was already submitted. */
  store(submission: Submission): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.queue.push({ ...submission, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    while (this.queue.length) {
      const group = this.queue.splice(0, GROUP);
      try {
        const stored = await this.db.transaction().execute(async (trx) => {
          // a person's second submission in the same group is refused as it would be a moment later
          const first = new Map<number, Queued>();
          for (const s of group) if (!first.has(s.feedbackId)) first.set(s.feedbackId, s);
          const claimed = new Set<number>();
          const claims = [...first.values()];
          for (let i = 0; i < claims.length; i += 100) {
            const part = claims.slice(i, i + 100);
            const each = (value: (s: Queued) => string) => sql<string>`case ${sql.ref('id')} ${sql.join(part.map((s) => sql`when ${s.feedbackId} then ${value(s)}`), sql` `)} end`;
            const rows = await trx
              .updateTable('feedback')
              .set({ status: 'SUBMITTED', submitted_at: each((s) => s.submittedAt), submission_key: each((s) => s.submissionKey) })
              .where('id', 'in', part.map((s) => s.feedbackId))
              .where('status', '=', 'NOT_SUBMITTED')
              .returning('id')
              .execute();
            for (const r of rows) claimed.add(r.id);
          }
          const won = group.map((s) => claimed.has(s.feedbackId) && first.get(s.feedbackId) === s);
          const replies = group.filter((_, i) => won[i]).map((s) => s.reply);
          const named = replies.filter((r) => r.feedback_id !== null);
          const anonymous = replies.filter((r) => r.feedback_id === null);
          await insertRows(trx, 'replies', REPLY_COLUMNS, named.map((r) => REPLY_COLUMNS.map((c) => r[c])));
          await insertRows(trx, 'waiting_replies', WAITING_COLUMNS, anonymous.map((r) => WAITING_COLUMNS.map((c) => r[c])));
          // the answers being typed are the reply now: their draft goes in the same commit
          const drafts = group.filter((s, i) => won[i] && s.draft).map((s) => s.draft!);
          for (let i = 0; i < drafts.length; i += 100) {
            const part = drafts.slice(i, i + 100);
            await trx
              .deleteFrom('reply_drafts')
              .where((eb) => eb(eb.refTuple('questionnaire_id', 'user_id'), 'in', part.map((d) => eb.tuple(d.questionnaireId, d.userId))))
              .execute();
          }
          return won;
        });
        group.forEach((s, i) => s.resolve(stored[i]));
      } catch (error) {
        // nothing of the group is stored: each is answered with the failure, none acknowledged
        for (const s of group) s.reject(error);
      }
    }
  }
}
