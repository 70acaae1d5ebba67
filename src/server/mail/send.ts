import nodemailer from 'nodemailer';
import type { DB } from '../db/connect.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface MailSender {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** A connection to the school's SMTP server as the mail setting describes it; throws when there is none. */
export async function mailSender(db: DB): Promise<MailSender> {
  const setting = await db.selectFrom('mail_settings').selectAll().orderBy('id').executeTakeFirst();
  if (!setting) throw new Error('no mail setting');
  const transport = nodemailer.createTransport({
    host: setting.host,
    port: setting.port,
    secure: setting.secure === 1,
    auth: setting.username ? { user: setting.username, pass: setting.password ?? '' } : undefined,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
    // a school's own SMTP relay often has a certificate of its own making
    tls: { rejectUnauthorized: false },
  });
  const from = setting.from_name ? { name: setting.from_name, address: setting.from_address } : setting.from_address;
  return {
    async send(message) {
      await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text });
    },
    close: () => transport.close(),
  };
}

/** Sends one mail through the school's SMTP server. */
export async function sendMail(db: DB, message: MailMessage): Promise<void> {
  const sender = await mailSender(db);
  try {
    await sender.send(message);
  } finally {
    sender.close();
  }
}

/** The reminder template with its placeholders {name}, {title}, {deadline} (and {link}, when given) replaced. */
export function fillTemplate(template: string, values: { name: string; title: string; deadline: string; link?: string }): string {
  return template.replace(/\{(name|title|deadline|link)\}/g, (whole, key: keyof typeof values) => values[key] ?? whole);
}
