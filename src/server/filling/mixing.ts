import { randomInt } from 'node:crypto';
import type { DB } from '../db/connect.js';
import { isPostgres } from '../db/connect.js';
import { insertAnswerRows } from '../statistics/answerRows.js';

/**
 * On PostgreSQL every row carries the id of the transaction that wrote it (xmin) and a
 * physical place (ctid). An anonymous reply written in the same transaction as its
 * respondent's feedback update would share that id with it — a join back to the person
 * that no column shows. So anonymous replies are rewritten, in random order, in one
 * transaction with every other reply not yet mixed: afterwards their xmin is that of the
 * mixing and their order is random; which feedback each came with is gone. (The old row
 * versions are dead and are removed by VACUUM.) SQLite keeps no such ids and stores replies
 * in random-id order already (WITHOUT ROWID).
 */
function shuffle<T>(rows: T[]): T[] {
  for (let i = rows.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [rows[i], rows[j]] = [rows[j], rows[i]];
  }
  return rows;
}

export async function mixAnonymousReplies(db: DB): Promise<number> {
  if (!isPostgres(db)) {
    const r = await db.updateTable('replies').set({ mixed: 1 }).where('feedback_id', 'is', null).where('mixed', '=', 0).executeTakeFirst();
    return Number(r.numUpdatedRows);
  }
  return db.transaction().execute(async (trx) => {
    const unmixed = trx.selectFrom('replies').select('id').where('feedback_id', 'is', null).where('mixed', '=', 0);
    // their countable rows carry the same transaction id: they are rewritten too
    const answers = shuffle(await trx.deleteFrom('reply_answers').where('reply_id', 'in', unmixed).returningAll().execute());
    const rows = shuffle(
      await trx.deleteFrom('replies').where('feedback_id', 'is', null).where('mixed', '=', 0).returning(['id', 'questionnaire_id', 'submitted_on', 'answers', 'respondent_role', 'grade_id', 'class_id']).execute(),
    );
    for (let i = 0; i < rows.length; i += 500) {
      await trx.insertInto('replies').values(rows.slice(i, i + 500).map((r) => ({ ...r, feedback_id: null, mixed: 1 }))).execute();
    }
    await insertAnswerRows(trx, answers);
    return rows.length;
  });
}

/** Mixes every `seconds` (with the questionnaire scheduler's period) until stopped. */
export function startMixing(db: DB, seconds: number, log: { error: (o: object, m: string) => void }): () => void {
  if (seconds <= 0) return () => undefined;
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    mixAnonymousReplies(db)
      .catch((err) => log.error({ err }, 'mixing anonymous replies failed'))
      .finally(() => (running = false));
  }, seconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
