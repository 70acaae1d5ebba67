import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../connect.js';
import { answerRows, type ReplyAnswerRow, type ReplyOfRows } from '../../statistics/answerRows.js';
import type { Definition } from '../../../shared/questionnaire/definition.js';

/**
 * Statistics: every answer as countable rows (reply_answers), so summaries are
 * grouped queries; and the respondent's role, grade and class as they were when the
 * questionnaire opened, on the feedback record and copied to the reply, so results can be
 * filtered by them — for anonymous replies too, which keep nothing else of the person.
 * reply_answers is, like replies, WITHOUT ROWID on SQLite: its order is the random reply id,
 * never the order replies came in.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['feedback', 'replies']) {
    await db.schema.alterTable(table).addColumn('grade_id', 'integer').execute();
    await db.schema.alterTable(table).addColumn('class_id', 'integer').execute();
  }
  await db.schema.alterTable('replies').addColumn('respondent_role', 'text').execute();
  const table = db.schema
    .createTable('reply_answers')
    .addColumn('reply_id', 'text', (c) => c.notNull().references('replies.id').onDelete('cascade'))
    .addColumn('questionnaire_id', 'integer', (c) => c.notNull())
    .addColumn('question_id', 'text', (c) => c.notNull())
    .addColumn('item', 'text', (c) => c.notNull())
    .addColumn('col', 'text', (c) => c.notNull())
    .addColumn('value_text', 'text')
    .addColumn('value_number', 'real')
    .addColumn('respondent_role', 'text')
    .addColumn('grade_id', 'integer')
    .addColumn('class_id', 'integer')
    .addPrimaryKeyConstraint('reply_answers_pk', ['reply_id', 'question_id', 'item', 'col']);
  await (isPostgres(db) ? table : table.modifyEnd(sql`without rowid`)).execute();
  // one covering index for every count: the questionnaire's range, in group-by order, with the
  // group columns in it, so a filtered count reads the same range without a lookup per row (a
  // second index led by the group columns made SQLite's planner, without statistics, pick one
  // that needed a lookup per row: seconds at 3,000 replies)
  await db.schema
    .createIndex('reply_answers_count_idx')
    .on('reply_answers')
    .columns(['questionnaire_id', 'question_id', 'item', 'col', 'respondent_role', 'grade_id', 'class_id'])
    .execute();
  await db.schema.createIndex('replies_group_idx').on('replies').columns(['questionnaire_id', 'respondent_role', 'grade_id', 'class_id']).execute();

  // what is already there: classes from the questionnaire's school year (else the current one)
  const year = sql`coalesce((select q.school_year_id from questionnaires q where q.id = feedback.questionnaire_id), (select y.id from school_years y where y.year_status = '1' limit 1))`;
  await sql`update feedback set class_id = (select sc.class_id from student_classes sc where sc.user_id = feedback.user_id and sc.school_year_id = ${year} limit 1) where respondent_role = 'STUDENT'`.execute(db);
  await sql`update feedback set grade_id = (select c.grade_id from classes c where c.id = feedback.class_id) where class_id is not null`.execute(db);
  await sql`update replies set respondent_role = (select f.respondent_role from feedback f where f.id = replies.feedback_id), grade_id = (select f.grade_id from feedback f where f.id = replies.feedback_id), class_id = (select f.class_id from feedback f where f.id = replies.feedback_id) where feedback_id is not null`.execute(db);
  const definitions = new Map<number, Definition>();
  let after = '';
  for (;;) {
    const replies = (await db
      .selectFrom('replies')
      .select(['id', 'questionnaire_id', 'answers', 'respondent_role', 'grade_id', 'class_id'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(1000)
      .execute()) as (ReplyOfRows & { answers: string })[];
    if (!replies.length) break;
    const rows: ReplyAnswerRow[] = [];
    for (const r of replies) {
      if (!definitions.has(r.questionnaire_id)) {
        const q = await db.selectFrom('questionnaires').select('definition').where('id', '=', r.questionnaire_id).executeTakeFirstOrThrow();
        definitions.set(r.questionnaire_id, JSON.parse(q.definition as string) as Definition);
      }
      rows.push(...answerRows(definitions.get(r.questionnaire_id)!, r, JSON.parse(r.answers)));
    }
    for (let i = 0; i < rows.length; i += 1000) await db.insertInto('reply_answers').values(rows.slice(i, i + 1000)).execute();
    after = replies[replies.length - 1].id;
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('reply_answers').execute();
  await db.schema.dropIndex('replies_group_idx').execute();
  await db.schema.alterTable('replies').dropColumn('respondent_role').execute();
  for (const table of ['feedback', 'replies']) {
    await db.schema.alterTable(table).dropColumn('class_id').execute();
    await db.schema.alterTable(table).dropColumn('grade_id').execute();
  }
}
