import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** the user it logged in as, when it did */
  user: string | undefined;
  raw: string;
}

export interface SmtpOptions {
  /**
   * TLS with the test-only self-signed certificate of tests/fixtures/tls (localhost, 127.0.0.1):
   * offered through STARTTLS, or from the first byte (port 465 style, `secure` in the setting)
   */
  tls?: 'starttls' | 'implicit';
  /** the accounts it accepts (a wrong password gets 535); without, every login is accepted */
  users?: Record<string, string>;
}

const fixtures = fileURLToPath(new URL('../fixtures/tls/', import.meta.url));
/** The test relay's certificate, for a client that trusts it. */
export const selfSignedCertificate = () => readFileSync(join(fixtures, 'smtp-self-signed.crt'), 'utf8');

/**
 * A real SMTP server on loopback (docs/conventions.md#tests) that keeps what it receives and the credentials it
 * was given, and refuses the recipients put in `refuse` (550). `pause()` makes it hold every
 * message until `resume()` (`whenHolding(n)`: once n are held at once).
 */
export async function smtpServer(options: SmtpOptions = {}) {
  const received: ReceivedMail[] = [];
  const logins: { user: string; pass: string }[] = [];
  const refuse = new Set<string>();
  let held: Promise<void> = Promise.resolve();
  let release = () => undefined as void;
  // messages being held now, and who waits for that many
  let holding = 0;
  const holdingWatchers: { n: number; resolve: () => void }[] = [];
  const server = new SMTPServer({
    authOptional: !options.users,
    allowInsecureAuth: true,
    disabledCommands: options.tls === 'starttls' ? [] : ['STARTTLS'],
    secure: options.tls === 'implicit',
    ...(options.tls ? { key: readFileSync(join(fixtures, 'smtp-self-signed.key')), cert: selfSignedCertificate() } : {}),
    logger: false,
    onAuth(auth, _session, done) {
      logins.push({ user: auth.username ?? '', pass: auth.password ?? '' });
      if (options.users && options.users[auth.username ?? ''] !== auth.password) return done(new Error('Invalid username or password'));
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
      stream.on('end', async () => {
        holding++;
        for (const w of holdingWatchers.filter((x) => x.n <= holding)) w.resolve();
        await held;
        holding--;
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
  // a client that refuses the certificate drops the connection mid-handshake: the server reports
  // it as an 'error' event, which is the behaviour under test, not a fault of the server
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    received,
    logins,
    refuse,
    port,
    pause: () => void (held = new Promise<void>((resolve) => (release = resolve))),
    /** resolves when `n` messages are held at once (while paused) */
    whenHolding: (n: number) => new Promise<void>((resolve) => (holding >= n ? resolve() : holdingWatchers.push({ n, resolve }))),
    resume: () => release(),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
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
