import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets QE must keep usable (the SMTP password: sending needs it) but not readable to whoever
 * reads the database or a backup of it: AES-256-GCM with a key derived from the server secret
 * (QE_SECRET or DATA_DIR/secret.key, which live apart from the database). Stored as
 * `qe-sealed:v1:` and base64url(IV ‖ tag ‖ ciphertext), a fresh 12-byte IV per value; the version
 * lets a later key or cipher be told apart. The authentication tag makes a value sealed under
 * another secret (or altered) fail to open instead of answering garbage.
 */
const PREFIX = 'qe-sealed:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A value that cannot be opened with this secret: sealed under another one, or damaged. */
export class UnreadableSecret extends Error {
  constructor() {
    super('the stored value cannot be decrypted with the server secret');
  }
}

/** The key of one use of the server secret; `context` keeps keys for different uses apart. */
function keyFor(serverSecret: string, context: string): Buffer {
  return Buffer.from(hkdfSync('sha256', serverSecret, 'qe-sealed-secret', `qe ${context} v1`, 32));
}

/** Whether a stored value is sealed (else it is a readable value written before sealing began). */
export function isSealed(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

/** Seals `plain` for storage. `context` (e.g. 'mail_settings.password') must be the same to open it. */
export function seal(serverSecret: string, context: string, plain: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyFor(serverSecret, context), iv);
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** The plain value of a sealed one; a value stored before sealing began is answered as it is. Throws UnreadableSecret. */
export function open(serverSecret: string, context: string, stored: string): string {
  if (!isSealed(stored)) return stored;
  const raw = Buffer.from(stored.slice(PREFIX.length), 'base64url');
  if (raw.length < IV_BYTES + TAG_BYTES) throw new UnreadableSecret();
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyFor(serverSecret, context), raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw new UnreadableSecret();
  }
}
