import { randomBytes } from 'node:crypto';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../config.js';
import { ownerOnlyFolder } from '../db/files.js';
import type { MailMessage, MailSender } from './sender.js';

/** A mail kept in the outbox, as administrators read it. */
export interface OutboxMail extends MailMessage {
  /** the file's name: when it was kept, then a random part */
  id: string;
  from: string;
  sentAt: string;
}

/** Mails the outbox keeps at most: the oldest go first. */
export const OUTBOX_KEPT = 500;

const folderOf = (config: Pick<Config, 'dataDir'>) => join(config.dataDir, 'outbox');
const MAIL_FILE = /^\d{13}-[0-9a-f]{12}\.json$/;

/**
 * The development outbox (QE_MAIL_OUTBOX, on for `npm run demo`): mails are written as files in
 * DATA_DIR/outbox — readable by QE's own user only — and shown to whoever may see the mail
 * setting, instead of going to an SMTP server. So reminders can be tried without a mail server.
 * Never for a school's real use: a reminder holds its respondent's sign-in link.
 */
export function outboxSender(config: Pick<Config, 'dataDir'>, from: string): MailSender {
  const folder = folderOf(config);
  return {
    async verify() {
      ownerOnlyFolder(folder);
    },
    async send(message) {
      ownerOnlyFolder(folder);
      const now = Date.now();
      const id = `${now}-${randomBytes(6).toString('hex')}.json`;
      const mail: Omit<OutboxMail, 'id'> = { from, to: message.to, subject: message.subject, text: message.text, sentAt: new Date(now).toISOString() };
      await writeFile(join(folder, id), JSON.stringify(mail), { mode: 0o600 });
      await prune(folder);
    },
    close() {},
  };
}

async function mailFiles(folder: string): Promise<string[]> {
  const names = await readdir(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  // newest first: names begin with the time in milliseconds, all 13 digits
  return names.filter((n) => MAIL_FILE.test(n)).sort().reverse();
}

async function prune(folder: string): Promise<void> {
  const files = await mailFiles(folder);
  for (const name of files.slice(OUTBOX_KEPT)) await rm(join(folder, name), { force: true });
}

/** The newest mails of the outbox (at most `limit`) and how many it holds. */
export async function readOutbox(config: Pick<Config, 'dataDir'>, limit: number): Promise<{ total: number; list: OutboxMail[] }> {
  const folder = folderOf(config);
  const files = await mailFiles(folder);
  const list: OutboxMail[] = [];
  for (const name of files.slice(0, limit)) {
    // a file removed meanwhile (pruned) is passed over
    const text = await readFile(join(folder, name), 'utf8').catch(() => null);
    if (text !== null) list.push({ id: name.replace(/\.json$/, ''), ...(JSON.parse(text) as Omit<OutboxMail, 'id'>) });
  }
  return { total: files.length, list };
}
