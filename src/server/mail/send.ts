import nodemailer from 'nodemailer';
import type { Config } from '../config.js';
import type { DB } from '../db/connect.js';
import { BusinessError } from '../plugins/errors.js';
import { isSealed, open, seal, UnreadableSecret } from './secret.js';
import { outboxSender } from './outbox.js';

import type { MailMessage, MailSender } from './sender.js';

export type { MailMessage, MailSender };

/** What the SMTP password is sealed for (src/server/mail/secret.ts): the key and the check are this use's own. */
const PASSWORD = 'mail_settings.password';

/** The SMTP password as stored: sealed with the server secret ('' and null stay empty). */
export function sealPassword(config: Pick<Config, 'secret'>, plain: unknown): unknown {
  return typeof plain === 'string' && plain !== '' ? seal(config.secret, PASSWORD, plain) : plain;
}

/**
 * Seals a readable SMTP password left from before QE sealed it (at start-up, and again when
 * one is read: an instance not yet upgraded may have written one meanwhile). Idempotent: a
 * sealed value is left alone, and the update only applies while the row still holds the
 * readable value it read.
 */
export async function sealReadablePassword(db: DB, config: Pick<Config, 'secret'>): Promise<void> {
  const rows = await db.selectFrom('mail_settings').select(['id', 'password']).where('password', 'is not', null).execute();
  for (const row of rows) {
    if (!row.password || isSealed(row.password)) continue;
    await db.updateTable('mail_settings').set({ password: seal(config.secret, PASSWORD, row.password) }).where('id', '=', row.id).where('password', '=', row.password).execute();
  }
}

/** A TLS certificate the client refused (Node's codes for an untrusted, expired or mismatched one). */
function certificateRefused(error: { code?: unknown; originalCode?: unknown }): boolean {
  return [error.originalCode, error.code].some((c) => typeof c === 'string' && /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/.test(c));
}

/** A failure to mail as the caller is told it (713): why, in their language where QE can say it. */
export function mailFailure(error: unknown): BusinessError {
  if (error instanceof BusinessError) return error;
  const e = error as Error & { code?: unknown; originalCode?: unknown };
  // Node 24 adds advice for whoever runs Node ("; if the root CA is installed locally, try running
  // Node.js with --use-system-ca"): the school's administrator is told the reason alone
  if (certificateRefused(e)) return new BusinessError('MAIL_CERTIFICATE_UNTRUSTED', { reason: e.message.split(';')[0].trim() });
  return new BusinessError('MAIL_FAILED', { reason: e?.message ?? String(error) });
}

/** What sending needs of the configuration: the secret the SMTP password is sealed with, and whether mail goes to the outbox. */
export type MailConfig = Pick<Config, 'secret' | 'mailOutbox'>;

/**
 * A connection to the school's SMTP server as the mail setting describes it — or, with the
 * development outbox on (QE_MAIL_OUTBOX), the outbox in the database (outbox.ts). Throws 713 when
 * there is no setting, or when its password was sealed under another server secret.
 */
export async function mailSender(db: DB, config: MailConfig): Promise<MailSender> {
  const setting = await db.selectFrom('mail_settings').selectAll().orderBy('id').executeTakeFirst();
  if (!setting) throw new BusinessError('MAIL_SETTING_MISSING');
  if (config.mailOutbox) return outboxSender(db, setting.from_name ? `${setting.from_name} <${setting.from_address}>` : setting.from_address);
  let password = '';
  if (setting.password) {
    if (!isSealed(setting.password)) await sealReadablePassword(db, config);
    try {
      password = open(config.secret, PASSWORD, setting.password);
    } catch (error) {
      if (error instanceof UnreadableSecret) throw new BusinessError('MAIL_PASSWORD_UNREADABLE');
      throw error;
    }
  }
  const transport = nodemailer.createTransport({
    host: setting.host,
    port: setting.port,
    secure: setting.secure === 1,
    auth: setting.username ? { user: setting.username, pass: password } : undefined,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
    // certificates are verified (Node's trusted authorities, the host name) unless the school
    // turned that off for a relay with a certificate of its own making — shown as a warning
    tls: setting.allow_untrusted_certificate === 1 ? { rejectUnauthorized: false } : { rejectUnauthorized: true },
  });
  const from = setting.from_name ? { name: setting.from_name, address: setting.from_address } : setting.from_address;
  return {
    async verify() {
      await transport.verify();
    },
    async send(message) {
      await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text });
    },
    close: () => transport.close(),
  };
}

/** Sends one mail through the school's SMTP server; a failure is the 713 that says why. */
export async function sendMail(db: DB, config: MailConfig, message: MailMessage): Promise<void> {
  const sender = await mailSender(db, config);
  try {
    await sender.send(message);
  } catch (error) {
    throw mailFailure(error);
  } finally {
    sender.close();
  }
}

/** The reminder template with its placeholders {name}, {title}, {deadline} (and {link}, when given) replaced. */
export function fillTemplate(template: string, values: { name: string; title: string; deadline: string; link?: string }): string {
  return template.replace(/\{(name|title|deadline|link)\}/g, (whole, key: keyof typeof values) => values[key] ?? whole);
}
