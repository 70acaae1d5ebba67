import type { DB } from '../db/connect.js';
import { BusinessError } from '../plugins/errors.js';
import { fillTemplate, mailSender } from '../mail/send.js';

const now = () => new Date().toISOString();

/** yyyy-MM-dd HH:mm in Hong Kong time, as a deadline reads in a mail. */
function deadline(iso: string | null): string {
  if (!iso) return '';
  const hk = new Date(new Date(iso).getTime() + 8 * 3_600_000).toISOString();
  return `${hk.slice(0, 10)} ${hk.slice(11, 16)}`;
}

/**
 * Mails every respondent who has not submitted, with the reminder template filled per
 * recipient in their language. Each success is recorded at once (notified_at), so a failure
 * half way loses nothing of who was told; the last notice time (when this notice started) is
 * recorded with the first mail that goes out, so a notice that reached nobody leaves no trace.
 */
export async function sendNotice(db: DB, questionnaireId: number, link?: (userId: number, endDate: string | null) => Promise<string>): Promise<{ sent: number; failed: number }> {
  const q = await db.selectFrom('questionnaires').select(['title', 'status', 'end_date']).where('id', '=', questionnaireId).executeTakeFirstOrThrow();
  if (q.status !== 'PROCESSING') throw new BusinessError('ILLEGAL_TRANSITION');
  const setting = await db.selectFrom('mail_settings').select(['reminder_subject', 'reminder_content']).orderBy('id').executeTakeFirst();
  if (!setting) throw new BusinessError('MAIL_FAILED', { reason: 'no mail setting' });
  const recipients = await db
    .selectFrom('feedback as f')
    .innerJoin('users as u', 'u.id', 'f.user_id')
    .select(['f.id', 'f.user_id', 'u.email', 'u.name_hk', 'u.name_en', 'u.language'])
    .where('f.questionnaire_id', '=', questionnaireId)
    .where('f.status', '=', 'NOT_SUBMITTED')
    .execute();
  const started = now();
  let sender;
  try {
    sender = await mailSender(db);
  } catch (error) {
    throw new BusinessError('MAIL_FAILED', { reason: (error as Error).message });
  }
  let sent = 0;
  let failed = 0;
  try {
    for (const r of recipients) {
      if (!r.email) {
        failed++;
        continue;
      }
      // the respondent's own link into this questionnaire (/app/quick): in {link}, or after the text
      const own = link ? await link(r.user_id, q.end_date) : undefined;
      const values = { name: r.language === 'en' ? r.name_en : r.name_hk, title: q.title, deadline: deadline(q.end_date), link: own };
      const text = fillTemplate(setting.reminder_content, values);
      try {
        await sender.send({ to: r.email, subject: fillTemplate(setting.reminder_subject, values), text: own && !setting.reminder_content.includes('{link}') ? `${text}\n\n${own}` : text });
        await db.updateTable('feedback').set({ notified_at: now() }).where('id', '=', r.id).execute();
        if (sent === 0) await db.updateTable('questionnaires').set({ last_notice_time: started }).where('id', '=', questionnaireId).execute();
        sent++;
      } catch {
        failed++;
      }
    }
  } finally {
    sender.close();
  }
  return { sent, failed };
}
