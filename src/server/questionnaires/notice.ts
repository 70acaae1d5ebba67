import type { Config } from '../config.js';
import type { DB } from '../db/connect.js';
import { BusinessError } from '../plugins/errors.js';
import { fillTemplate, mailFailure, mailSender } from '../mail/send.js';
import { mailOrigin, quickLink } from '../filling/quick.js';
import { schoolClock } from '../school/clock.js';
import { schoolDateTime } from '../../shared/school-clock.js';
import type { MailSettingsTable } from '../db/schema.js';
import type { Lang } from '../../shared/i18n/text.js';
import { titleIn } from '../../shared/questionnaire/languages.js';
import { storedLanguages } from './service.js';

const now = () => new Date().toISOString();

/** The language a recipient reads their reminder in: that of their last login, Chinese before they have logged in. */
const readerLanguage = (language: string | null | undefined): Lang => (language === 'en' ? 'en' : 'zh-hk');

type Templates = Pick<MailSettingsTable, 'reminder_subject' | 'reminder_content' | 'reminder_subject_en' | 'reminder_content_en'>;

/**
 * The reminder template a reader of `lang` gets: the English one where it is written, the Chinese
 * one — the schools' own language, and every reader's before the setting had an English one —
 * otherwise. The form asks for both English parts or neither; a half-written one is not used.
 */
export function reminderTemplate(setting: Templates, lang: Lang): { subject: string; content: string } {
  const subject = setting.reminder_subject_en?.trim();
  const content = setting.reminder_content_en?.trim();
  if (lang === 'en' && subject && content) return { subject: setting.reminder_subject_en!, content: setting.reminder_content_en! };
  return { subject: setting.reminder_subject, content: setting.reminder_content };
}

/** A claim older than this is void: the instance that made it died mid-send (a running send renews it every minute). */
const CLAIM_VOID_MS = 10 * 60_000;
const RENEW_MS = 60_000;

/**
 * Claims the questionnaire's notice through the database, so that two "send notice" calls at
 * the same moment — on one instance or on several sharing one PostgreSQL — cannot both mail
 * everyone: one conditional update, which PostgreSQL applies to the row one transaction at a
 * time (the second re-reads the row the first wrote and matches nothing) and SQLite with its
 * one writer. Answers the claim's stamp, which renewing and releasing it compare with.
 */
async function claimNotice(db: DB, questionnaireId: number): Promise<string> {
  const stamp = now();
  const voidBefore = new Date(Date.now() - CLAIM_VOID_MS).toISOString();
  const claimed = await db
    .updateTable('questionnaires')
    .set({ notice_claimed_at: stamp })
    .where('id', '=', questionnaireId)
    .where((eb) => eb.or([eb('notice_claimed_at', 'is', null), eb('notice_claimed_at', '<', voidBefore)]))
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) throw new BusinessError('NOTICE_IN_PROGRESS');
  return stamp;
}

/** Moves a held claim on to `to` (null releases it); false when it is no longer this send's. */
async function moveClaim(db: DB, questionnaireId: number, held: string, to: string | null): Promise<boolean> {
  const moved = await db.updateTable('questionnaires').set({ notice_claimed_at: to }).where('id', '=', questionnaireId).where('notice_claimed_at', '=', held).executeTakeFirst();
  return Number(moved.numUpdatedRows) === 1;
}

/**
 * Mails every respondent who has not submitted, each in their language (`users.language`, that
 * of their last login): the reminder template of that language, their name and the
 * questionnaire's title in it (`titleIn`). One notice per questionnaire runs at a time (a second is refused
 * with 709 while the first runs). The SMTP server is checked first (connection, TLS, login), so
 * a server that cannot be used answers 713 with the reason and records nothing. Each success is
 * recorded at once (notified_at), so a failure half way loses nothing of who was told; the last
 * notice time (when this notice started) is recorded with the first mail that goes out, so a
 * notice that reached nobody leaves no trace. A respondent with no e-mail address is not a failure:
 * they are counted apart (`noAddress`).
 */
export async function sendNotice(db: DB, config: Config, questionnaireId: number): Promise<{ sent: number; failed: number; noAddress: number }> {
  const q = await db.selectFrom('questionnaires').select(['title', 'title_translation', 'languages', 'status', 'end_date']).where('id', '=', questionnaireId).executeTakeFirstOrThrow();
  if (q.status !== 'PROCESSING') throw new BusinessError('ILLEGAL_TRANSITION');
  const origin = mailOrigin(config);
  const setting = await db.selectFrom('mail_settings').select(['reminder_subject', 'reminder_content', 'reminder_subject_en', 'reminder_content_en']).orderBy('id').executeTakeFirst();
  if (!setting) throw new BusinessError('MAIL_SETTING_MISSING');
  const titled = { title: q.title, titleTranslation: q.title_translation, languages: storedLanguages(q.languages) };
  // yyyy-MM-dd HH:mm on the school's clock, whatever the server's time zone
  const deadline = schoolDateTime(q.end_date, await schoolClock(db).zone());
  const sender = await mailSender(db, config);
  let claim: string;
  try {
    claim = await claimNotice(db, questionnaireId);
  } catch (error) {
    sender.close();
    throw error;
  }
  const started = claim;
  let renewed = Date.now();
  let sent = 0;
  let failed = 0;
  // respondents with no e-mail address: nothing failed, there was nowhere to send (counted apart)
  let noAddress = 0;
  try {
    await sender.verify().catch((error: unknown) => {
      throw mailFailure(error);
    });
    // read once the claim is held: a notice that ran just before has recorded whom it told
    const recipients = await db
      .selectFrom('feedback as f')
      .innerJoin('users as u', 'u.id', 'f.user_id')
      .select(['f.id', 'f.user_id', 'u.email', 'u.name_hk', 'u.name_en', 'u.language', 'u.sign_in_stamp'])
      .where('f.questionnaire_id', '=', questionnaireId)
      .where('f.status', '=', 'NOT_SUBMITTED')
      .execute();
    for (const r of recipients) {
      if (Date.now() - renewed > RENEW_MS) {
        const next = now();
        // taken over as void (this send stalled for minutes): the one that took it sends the rest
        if (!(await moveClaim(db, questionnaireId, claim, next))) break;
        claim = next;
        renewed = Date.now();
      }
      if (!r.email?.trim()) {
        noAddress++;
        continue;
      }
      // the respondent's own link into this questionnaire (/app/quick): in {link}, or after the text
      const own = await quickLink(config, origin, r.user_id, questionnaireId, q.end_date, r.sign_in_stamp);
      // the template, the name and the title in the recipient's language (the title in the
      // questionnaire's main language where it has none in theirs)
      const lang = readerLanguage(r.language);
      const template = reminderTemplate(setting, lang);
      const values = { name: lang === 'en' ? r.name_en : r.name_hk, title: titleIn(titled, lang), deadline, link: own };
      const text = fillTemplate(template.content, values);
      try {
        await sender.send({ to: r.email, subject: fillTemplate(template.subject, values), text: !template.content.includes('{link}') ? `${text}\n\n${own}` : text });
        await db.updateTable('feedback').set({ notified_at: now() }).where('id', '=', r.id).execute();
        if (sent === 0) await db.updateTable('questionnaires').set({ last_notice_time: started }).where('id', '=', questionnaireId).execute();
        sent++;
      } catch {
        failed++;
      }
    }
  } finally {
    sender.close();
    await moveClaim(db, questionnaireId, claim, null);
  }
  return { sent, failed, noAddress };
}
