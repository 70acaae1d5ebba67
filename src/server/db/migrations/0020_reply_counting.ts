import { sql, type Kysely } from 'kysely';
import type { DB } from '../connect.js';
import { answerRows, countAnswerRows, recountAnswers, type ReplyAnswerRow } from '../../statistics/answerRows.js';
import type { Definition } from '../../../shared/questionnaire/definition.js';

/**
 * A named reply's countable rows and counters are written after the submission, in batches
 * (statistics/counting.ts), instead of in the submission's own transaction: `counted` is 0 until
 * they are. Replies stored before this migration have theirs already (default 1). The partial
 * index holds only the replies still to count, so finding them costs nothing when there are none.
 *
 * The counters (0018) answer every count, so reply_answers' covering count index — an entry per
 * row at ~150 places of the index per reply, most of a submission's cost — gives way to an index
 * of the rows with a text, and only those rows are kept (text answers and "other" texts, read a
 * page at a time in the order of their reply): the rest are counted, not stored. A recount after
 * a restore reads the replies' own answers (recountAnswers), as this migration does to add each
 * reply's own counter (how many replies a group has). The down migration writes every
 * row again from the replies, and counts the replies that were still to count.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('replies').addColumn('counted', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await db.schema.createIndex('replies_uncounted_idx').on('replies').column('questionnaire_id').where(sql.ref('counted'), '=', 0).execute();
  await db.schema.dropIndex('reply_answers_count_idx').execute();
  // rows without a text are counted and no longer kept (statistics/answerRows.ts)
  await db.deleteFrom('reply_answers').where('value_text', 'is', null).execute();
  await db.schema
    .createIndex('reply_answers_text_idx')
    .on('reply_answers')
    .columns(['questionnaire_id', 'question_id', 'item', 'reply_id'])
    .where(sql.ref('value_text'), 'is not', null)
    .execute();
  // counted again, now with each reply's own counter (how many replies a group has)
  // the totals table comes later (0022), made from these counters
  await recountAnswers(db as unknown as DB, false);
}

export async function down(db: Kysely<any>): Promise<void> {
  const qe = db as unknown as DB;
  // every row of every reply in results again (and the counters of those still to count), as the submission wrote them before
  const questionnaires = await qe.selectFrom('questionnaires').select(['id', 'definition']).where('id', 'in', qe.selectFrom('replies').select('questionnaire_id')).execute();
  for (const q of questionnaires) {
    const definition = JSON.parse(q.definition) as Definition;
    const replies = await qe.selectFrom('replies').select(['id', 'answers', 'counted', 'respondent_role', 'grade_id', 'class_id']).where('questionnaire_id', '=', q.id).where('released', '=', 1).execute();
    const rows: ReplyAnswerRow[] = [];
    const uncounted: ReplyAnswerRow[] = [];
    for (const r of replies) {
      const of = answerRows(definition, { id: r.id, questionnaire_id: q.id, respondent_role: r.respondent_role ?? null, grade_id: r.grade_id ?? null, class_id: r.class_id ?? null }, JSON.parse(r.answers));
      rows.push(...of);
      if (r.counted === 0) uncounted.push(...of);
    }
    await qe.deleteFrom('reply_answers').where('questionnaire_id', '=', q.id).execute();
    for (let i = 0; i < rows.length; i += 1000) await qe.insertInto('reply_answers').values(rows.slice(i, i + 1000)).execute();
    await countAnswerRows(qe, uncounted, 1, false);
  }
  await db.schema.dropIndex('reply_answers_text_idx').execute();
  await db.schema
    .createIndex('reply_answers_count_idx')
    .on('reply_answers')
    .columns(['questionnaire_id', 'question_id', 'item', 'col', 'respondent_role', 'grade_id', 'class_id'])
    .execute();
  await db.schema.dropIndex('replies_uncounted_idx').execute();
  await db.schema.alterTable('replies').dropColumn('counted').execute();
}
