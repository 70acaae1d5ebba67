import { randomBytes } from 'node:crypto';
import type { DB } from '../db/connect.js';
import type { Target } from '../../shared/questionnaire/types.js';
import { recordClasses, resolveAudience } from './audience.js';

const now = () => new Date().toISOString();

/** A code a respondent is known by in the feedback list (its designated code). */
const designatedCode = () => randomBytes(6).toString('base64url').toUpperCase();

/**
 * Opens one questionnaire: NOT_OPEN → PROCESSING and one feedback record per respondent, in
 * one transaction. The conditional update is the claim: when several instances try at once,
 * exactly one of them changes the row and goes on; the others find nothing to do.
 */
export async function openQuestionnaire(db: DB, id: number): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const claimed = await trx.updateTable('questionnaires').set({ status: 'PROCESSING', updated_at: now() }).where('id', '=', id).where('status', '=', 'NOT_OPEN').executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return false;
    const q = await trx.selectFrom('questionnaires').select(['targets', 'school_year_id']).where('id', '=', id).executeTakeFirstOrThrow();
    const { respondents } = await resolveAudience(trx, JSON.parse(q.targets) as Target[], q.school_year_id);
    for (let i = 0; i < respondents.length; i += 500) {
      await trx
        .insertInto('feedback')
        .values(respondents.slice(i, i + 500).map((r) => ({ questionnaire_id: id, user_id: r.userId, respondent_role: r.role, designated_code: designatedCode(), status: 'NOT_SUBMITTED' })))
        .execute();
    }
    await recordClasses(trx, id, q.school_year_id);
    return true;
  });
}

/**
 * Finishes one questionnaire: PROCESSING → FINISHED (claimed the same way), by its end date or
 * closed early. The answers still being typed can no longer be sent: their drafts
 * (filling/drafts.ts) go in the same transaction.
 */
export async function finishQuestionnaire(db: DB, id: number): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const r = await trx.updateTable('questionnaires').set({ status: 'FINISHED', updated_at: now() }).where('id', '=', id).where('status', '=', 'PROCESSING').executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) return false;
    await trx.deleteFrom('reply_drafts').where('questionnaire_id', '=', id).execute();
    return true;
  });
}

/** What is due now: questionnaires to open at their open date and to finish at their end date. */
export async function runDueWork(db: DB, at = now()): Promise<{ opened: number[]; finished: number[] }> {
  const opened: number[] = [];
  const finished: number[] = [];
  const toOpen = await db.selectFrom('questionnaires').select('id').where('status', '=', 'NOT_OPEN').where('open_date', '<=', at).execute();
  for (const { id } of toOpen) if (await openQuestionnaire(db, id)) opened.push(id);
  const toFinish = await db.selectFrom('questionnaires').select('id').where('status', '=', 'PROCESSING').where('end_date', '<=', at).execute();
  for (const { id } of toFinish) if (await finishQuestionnaire(db, id)) finished.push(id);
  return { opened, finished };
}

/** Runs the due work every `seconds` until stopped; a failed round is logged and retried next time. */
export function startScheduler(db: DB, seconds: number, log: { error: (o: object, m: string) => void }): () => void {
  if (seconds <= 0) return () => undefined;
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    runDueWork(db)
      .catch((err) => log.error({ err }, 'questionnaire scheduler round failed'))
      .finally(() => (running = false));
  }, seconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
