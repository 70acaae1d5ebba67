import type { DB } from '../db/connect.js';
import type { AuthUser } from '../plugins/guard.js';
import { BusinessError } from '../plugins/errors.js';
import { reachesAll } from '../questionnaires/scope.js';
import type { TextMarksBody, TextMarksResult } from '../../shared/calls/statistics.js';
import type { Scoped } from './scoped.js';
import { withheldResults } from './withholding.js';

/**
 * Text answers marked shown or hidden for a release (docs/product-rules.md#text-answers-read): the
 * read side is the texts' list (replies.ts), which says each answer's mark and filters by it.
 * An answer never marked is hidden.
 */

/** The question types whose answers are marked: the texts of a text question (an 'other' text is part of a choice). */
const MARKED_TYPES = new Set(['SHORT_TEXT', 'PARAGRAPH']);

/**
 * Who may mark: the person in charge, and those who read every questionnaire's results
 * (data-statistics.management). An assistant reads the results but does not decide what the
 * school releases.
 */
export const mayMark = (user: AuthUser, scoped: Scoped) => scoped.row.principal.id === user.id || reachesAll(user, 'results');

/** Marks text answers of one question shown or hidden, all or none. */
export async function markTexts(db: DB, minGroupSize: number, user: AuthUser, scoped: Scoped, body: TextMarksBody): Promise<TextMarksResult> {
  if (!mayMark(user, scoped)) throw new BusinessError('PERMISSION_DENIED');
  const question = scoped.definition.sections.flatMap((s) => s.questions).find((q) => q.id === body.questionId);
  if (!question) throw new BusinessError('RECORD_NOT_FOUND');
  if (!MARKED_TYPES.has(question.type)) throw new BusinessError('TEXT_MARK_NOT_TEXT');
  // what may not be read may not be marked: too few anonymous replies in all, or the group the screen shows
  const filter = { ...(body.role ? { role: body.role } : {}), ...(body.gradeId ? { gradeId: body.gradeId } : {}), ...(body.classId ? { classId: body.classId } : {}) };
  const withheld = (await withheldResults(db, scoped.row, {}, minGroupSize)) ?? (await withheldResults(db, scoped.row, filter, minGroupSize));
  if (withheld) throw new BusinessError('TEXT_MARK_WITHHELD', { min: withheld.minGroupSize });
  const replyIds = [...new Set(body.replyIds)];
  const id = scoped.row.id;
  return db.transaction().execute(async (trx) => {
    // the answers as the texts' list reads them: this questionnaire's, this question's own text, not empty
    const found = await trx
      .selectFrom('reply_answers')
      .select('reply_id')
      .where('questionnaire_id', '=', id)
      .where('question_id', '=', body.questionId)
      .where('item', '=', '')
      .where('value_text', 'is not', null)
      .where('value_text', '!=', '')
      .where('reply_id', 'in', replyIds)
      .execute();
    if (found.length !== replyIds.length) throw new BusinessError('TEXT_MARK_NOT_ANSWER', { count: replyIds.length - found.length });
    const marked_at = new Date().toISOString();
    const shown = body.shown ? 1 : 0;
    // in key order, as every writer takes the rows' locks (PostgreSQL)
    const rows = replyIds.sort().map((reply_id) => ({ reply_id, question_id: body.questionId, questionnaire_id: id, shown, marked_by: user.id, marked_at }));
    await trx
      .insertInto('text_answer_marks')
      .values(rows)
      .onConflict((oc) => oc.columns(['reply_id', 'question_id']).doUpdateSet((eb) => ({ shown: eb.ref('excluded.shown'), marked_by: eb.ref('excluded.marked_by'), marked_at: eb.ref('excluded.marked_at') })))
      .execute();
    return { marked: rows.length, shown: body.shown };
  });
}
