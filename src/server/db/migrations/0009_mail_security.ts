import type { Kysely } from 'kysely';

/**
 * Mail security: the mail setting's switch that lets a school relay with a
 * certificate of its own making be used (TLS is verified otherwise), and the claim that keeps
 * two "send notice" calls for one questionnaire from running at once (see
 * src/server/questionnaires/notice.ts). The SMTP password is encrypted by QE at start-up, not
 * here: migrations do not hold the server secret (src/server/mail/secret.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mail_settings').addColumn('allow_untrusted_certificate', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('questionnaires').addColumn('notice_claimed_at', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('questionnaires').dropColumn('notice_claimed_at').execute();
  await db.schema.alterTable('mail_settings').dropColumn('allow_untrusted_certificate').execute();
}
