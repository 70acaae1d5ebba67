import * as crypto from 'node:crypto';
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { hashQueue } from './hash-queue.js';

/**
 * Password hashes. New hashes are argon2id at OWASP's recommended strength (19 MiB, 2 passes,
 * 1 lane: about 28 ms of a core) with node:crypto's argon2 (Node 24.7 and later), written in the
 * PHC string format `$argon2id$v=19$m=19456,t=2,p=1$salt$hash`. Hashes made before — scrypt
 * (N=2^15, r=8, p=3: about 250 ms) as `scrypt$N$r$p$salt$hash` — still verify, and are replaced
 * at the user's next login (needsRehash). On a Node without argon2 new hashes stay scrypt.
 */

const ARGON2 = { memory: 19_456, passes: 2, parallelism: 1 } as const;
const KEYLEN = 32;
const SCRYPT = { N: 2 ** 15, r: 8, p: 3 } as const;

interface Argon2Parameters {
  message: string | Buffer;
  nonce: Buffer;
  parallelism: number;
  tagLength: number;
  memory: number;
  passes: number;
}
type Argon2 = (algorithm: 'argon2id', parameters: Argon2Parameters, callback: (err: Error | null, key: Buffer) => void) => void;
/** node:crypto's argon2, where this Node has it (24.7+). */
const argon2Fn = (crypto as unknown as { argon2?: Argon2 }).argon2;
export const hasArgon2 = typeof argon2Fn === 'function';

function argon2id(password: string, salt: Buffer, keylen: number, params: { memory: number; passes: number; parallelism: number }): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    argon2Fn!('argon2id', { message: password, nonce: salt, tagLength: keylen, ...params }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

function scrypt(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

const maxmem = (n: number, rr: number, pp: number) => 256 * n * rr * pp + 1024 * 1024;
// PHC strings use base64 without padding
const b64 = (b: Buffer) => b.toString('base64').replace(/=+$/, '');

/**
 * A new hash of `password`. `lane` is who asks (a client address): hashes wait their turn lane
 * by lane (see hash-queue.ts).
 */
export async function hashPassword(password: string, lane = 'server'): Promise<string> {
  const salt = randomBytes(16);
  if (hasArgon2) {
    const key = await hashQueue.run(lane, () => argon2id(password, salt, KEYLEN, ARGON2));
    return `$argon2id$v=19$m=${ARGON2.memory},t=${ARGON2.passes},p=${ARGON2.parallelism}$${b64(salt)}$${b64(key)}`;
  }
  const { N, r, p } = SCRYPT;
  const key = await hashQueue.run(lane, () => scrypt(password, salt, KEYLEN, { N, r, p, maxmem: maxmem(N, r, p) }));
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** The parts of an argon2id PHC string, or null when it is not one this server can check. */
function parseArgon2(stored: string): { memory: number; passes: number; parallelism: number; salt: Buffer; hash: Buffer } | null {
  const m = /^\$argon2id\$v=19\$m=(\d{1,7}),t=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]{16,})\$([A-Za-z0-9+/]{16,})$/.exec(stored);
  if (!m) return null;
  const [memory, passes, parallelism] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // a stored hash cannot make one check cost the server much more than a new hash does
  if (memory < 8 || memory > 65_536 || passes < 1 || passes > 6 || parallelism < 1 || parallelism > 4) return null;
  return { memory, passes, parallelism, salt: Buffer.from(m[4], 'base64'), hash: Buffer.from(m[5], 'base64') };
}

export async function verifyPassword(password: string, stored: string, lane = 'server'): Promise<boolean> {
  if (stored.startsWith('$argon2id$')) {
    const parsed = parseArgon2(stored);
    if (!parsed || !hasArgon2) return false;
    const { salt, hash, ...params } = parsed;
    if (hash.length !== KEYLEN) return false;
    const key = await hashQueue.run(lane, () => argon2id(password, salt, hash.length, params));
    return timingSafeEqual(key, hash);
  }
  const [scheme, n, rr, pp, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  // every scrypt hash QE wrote is 32 bytes: a shorter one would compare only its first bytes
  if (expected.length !== KEYLEN) return false;
  const options = { N: Number(n), r: Number(rr), p: Number(pp) };
  if (!(options.N <= SCRYPT.N * 2 && options.r <= 16 && options.p <= 8)) return false;
  const key = await hashQueue.run(lane, () =>
    scrypt(password, Buffer.from(salt, 'base64url'), expected.length, { ...options, maxmem: maxmem(options.N, options.r, options.p) }),
  );
  return timingSafeEqual(key, expected);
}

/** Whether a stored hash is of an older scheme or strength than new ones: replaced after the next good login. */
export function needsRehash(stored: string): boolean {
  if (!hasArgon2) return !stored.startsWith(`scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$`);
  const parsed = parseArgon2(stored);
  return !parsed || parsed.memory !== ARGON2.memory || parsed.passes !== ARGON2.passes || parsed.parallelism !== ARGON2.parallelism || parsed.hash.length !== KEYLEN;
}

/** A hash nobody's password matches, checked against when the account does not exist so timing tells nothing. */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(12).toString('hex'));
  return decoy;
}
