import { randomBytes } from 'node:crypto';
import type { DB } from '../db/connect.js';
import type { MailMessage, MailSender } from './sender.js';

/** A mail kept in the outbox, as administrators read it. */
export interface OutboxMail extends MailMessage {
  /** when it was kept, then a random part */
  id: string;
  from: string;
  sentAt: string;
}

/** Mails the outbox keeps at most: the oldest go first. */
export const OUTBOX_KEPT = 500;

/**
 * The development outbox (QE_MAIL_OUTBOX, on for `npm run demo`): mails are kept in the table
 * `mail_outbox` (migration 0034) — in the database, so every instance on it lists the same mails —
 * and shown to whoever may see the mail setting, instead of going to an SMTP server. So reminders
 * can be tried without a mail server. Never for a school's real use: a reminder holds its
 * respondent's sign-in link. Not archived, and cleared by a restore (backup/format.ts).
 */
export function outboxSender(db: DB, from: string): MailSender {
  // mails of one millisecond keep the order they were sent in: a sequence before the random part
  let last = 0;
  let sequence = 0;
  return {
    async verify() {},
    async send(message) {
      const now = Date.now();
      sequence = now === last ? sequence + 1 : 0;
      last = now;
      const id = `${now}-${String(sequence).padStart(4, '0')}-${randomBytes(6).toString('hex')}`;
      await db.insertInto('mail_outbox').values({ id, from_address: from, to_address: message.to, subject: message.subject, body: message.text, sent_at: new Date(now).toISOString() }).execute();
      await db
        .deleteFrom('mail_outbox')
        .where('id', 'not in', db.selectFrom('mail_outbox').select('id').orderBy('id', 'desc').limit(OUTBOX_KEPT))
        .execute();
    },
    close() {},
  };
}

/** The newest mails of the outbox (at most `limit`) and how many it holds. */
export async function readOutbox(db: DB, limit: number): Promise<{ total: number; list: OutboxMail[] }> {
  const { n } = await db.selectFrom('mail_outbox').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  // ids begin with the time in milliseconds, all 13 digits: newest first
  const rows = await db.selectFrom('mail_outbox').selectAll().orderBy('id', 'desc').limit(limit).execute();
  return { total: Number(n), list: rows.map((r) => ({ id: r.id, from: r.from_address, to: r.to_address, subject: r.subject, text: r.body, sentAt: r.sent_at })) };
}
