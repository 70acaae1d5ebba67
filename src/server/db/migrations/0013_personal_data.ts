import type { Kysely } from 'kysely';
import { withId } from '../columns.js';

/**
 * Staff personal data: the identity card on the account (the number sealed with the
 * server secret, a masked copy beside it for every screen and export, so a list never opens a
 * seal), and the requests staff make to change their own data, which wait (WAITTING) until an
 * approver confirms (CONFIRM) or rejects them with a reason (REJECT). See
 * src/server/personal/index.ts.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('identity_card_type', 'text').execute();
  await db.schema.alterTable('users').addColumn('identity_card_no', 'text').execute();
  await db.schema.alterTable('users').addColumn('identity_card_masked', 'text').execute();

  await withId(db, db.schema.createTable('personal_data_requests'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('tel', 'text')
    .addColumn('gender', 'text')
    .addColumn('birthday', 'text')
    .addColumn('avatar', 'text')
    .addColumn('identity_card_type', 'text')
    .addColumn('identity_card_no', 'text')
    .addColumn('identity_card_masked', 'text')
    .addColumn('reason', 'text')
    .addColumn('decided_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('decided_at', 'text')
    .execute();
  await db.schema.createIndex('personal_data_requests_status_idx').on('personal_data_requests').columns(['status', 'created_at']).execute();
  await db.schema.createIndex('personal_data_requests_user_idx').on('personal_data_requests').columns(['user_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('personal_data_requests').execute();
  await db.schema.alterTable('users').dropColumn('identity_card_masked').execute();
  await db.schema.alterTable('users').dropColumn('identity_card_no').execute();
  await db.schema.alterTable('users').dropColumn('identity_card_type').execute();
}
