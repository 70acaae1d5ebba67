import { sql, type Kysely } from 'kysely';

/**
 * A named reply's countable rows and counters are written after the submission, in batches
 * (statistics/counting.ts), instead of in the submission's own transaction: `counted` is 0 until
 * they are. Replies stored before this migration have theirs already (default 1). The partial
 * index holds only the replies still to count, so finding them costs nothing when there are none.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('replies').addColumn('counted', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await db.schema.createIndex('replies_uncounted_idx').on('replies').column('questionnaire_id').where(sql.ref('counted'), '=', 0).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('replies_uncounted_idx').execute();
  await db.schema.alterTable('replies').dropColumn('counted').execute();
}
