import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../connect.js';

/**
 * An anonymous reply waits for its release in a table of its own
 * (docs/security.md#anonymous-means-unlinkable). A b-tree's balance (SQLite's `rebuildPage`) lays a
 * page's cells out anew and leaves the bytes it moved them from in the page's unallocated space,
 * which `secure_delete` does not zero: kept in `replies`, a reply as it arrived could stay there,
 * in the order replies reached that page, and a reply rewritten round after round while it waited
 * for its batch could leave a copy of each round's place. Each round that changes anything empties
 * this table in one transaction and writes back, in random order, the replies still waiting
 * (filling/mixing.ts): every page it had is freed then, and a freed page is zeroed. So the pages
 * of `replies` only ever hold replies as released, and this table only what came since the last
 * round and the last round's rewrite.
 *
 * No foreign key and no trigger: either would keep SQLite from clearing the table whole. A reply
 * of a questionnaire deleted meanwhile is dropped by the next round. The anonymous replies not yet
 * released move here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const table = db.schema
    .createTable('waiting_replies')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('questionnaire_id', 'integer', (c) => c.notNull())
    .addColumn('respondent_role', 'text')
    .addColumn('grade_id', 'integer')
    .addColumn('class_id', 'integer')
    .addColumn('submitted_on', 'text', (c) => c.notNull())
    .addColumn('answers', 'text', (c) => c.notNull())
    // 1 once a round has rewritten it among the others
    .addColumn('mixed', 'integer', (c) => c.notNull().defaultTo(0));
  await (isPostgres(db) ? table : table.modifyEnd(sql`without rowid`)).execute();
  const columns = ['id', 'questionnaire_id', 'respondent_role', 'grade_id', 'class_id', 'submitted_on', 'answers', 'mixed'] as const;
  await db
    .insertInto('waiting_replies')
    .columns([...columns])
    .expression(db.selectFrom('replies').select([...columns]).where('feedback_id', 'is', null).where('released', '=', 0))
    .execute();
  await db.deleteFrom('replies').where('feedback_id', 'is', null).where('released', '=', 0).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db
    .insertInto('replies')
    .columns(['id', 'questionnaire_id', 'respondent_role', 'grade_id', 'class_id', 'submitted_on', 'answers', 'mixed', 'feedback_id', 'released', 'counted'])
    .expression(
      db
        .selectFrom('waiting_replies')
        .select(['id', 'questionnaire_id', 'respondent_role', 'grade_id', 'class_id', 'submitted_on', 'answers', 'mixed', sql<null>`null`.as('feedback_id'), sql<number>`0`.as('released'), sql<number>`1`.as('counted')])
        .where('questionnaire_id', 'in', db.selectFrom('questionnaires').select('id')),
    )
    .execute();
  await db.schema.dropTable('waiting_replies').execute();
}
