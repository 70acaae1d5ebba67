import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** the user it logged in as, when it did */
  user: string | undefined;
  raw: string;
}

/**
 * A real SMTP server on loopback (DESIGN §8) that keeps what it receives and the credentials it
 * was given, and refuses the recipients put in `refuse` (550).
 */
export async function smtpServer() {
  const received: ReceivedMail[] = [];
  const logins: { user: string; pass: string }[] = [];
  const refuse = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, done) {
      logins.push({ user: auth.username ?? '', pass: auth.password ?? '' });
      done(null, { user: auth.username });
    },
    onRcptTo(address, _session, done) {
      if (!refuse.has(address.address)) return done();
      const error = new Error('No such mailbox here') as Error & { responseCode: number };
      error.responseCode = 550;
      done(error);
    },
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          user: session.user as string | undefined,
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { received, logins, refuse, port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A header's value and the decoded text body of a plain single-part message. */
export function parseMail(raw: string) {
  const [head, ...rest] = raw.split(/\r?\n\r?\n/);
  const headers = head.replace(/\r?\n[ \t]+/g, ' ');
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(headers)?.[1].trim();
  let body = rest.join('\n\n');
  const encoding = header('Content-Transfer-Encoding')?.toLowerCase();
  if (encoding === 'base64') body = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    body = Buffer.from(body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8');
  }
  return { header, body: body.trim() };
}
