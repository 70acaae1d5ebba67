import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { hashQueue } from './hash-queue.js';

// scrypt at one of OWASP's equivalent settings (N=2^15, r=8, p=3): 32 MiB per hash.
const N = 2 ** 15;
const r = 8;
const p = 3;
const KEYLEN = 32;

function scrypt(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

const maxmem = (n: number, rr: number, pp: number) => 256 * n * rr * pp + 1024 * 1024;

/**
 * `scrypt$N$r$p$salt$hash`, salt and hash in base64url. `lane` is who asks (a client address):
 * hashes wait their turn lane by lane (see hash-queue.ts).
 */
export async function hashPassword(password: string, lane = 'server'): Promise<string> {
  const salt = randomBytes(16);
  const key = await hashQueue.run(lane, () => scrypt(password, salt, KEYLEN, { N, r, p, maxmem: maxmem(N, r, p) }));
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string, lane = 'server'): Promise<boolean> {
  const [scheme, n, rr, pp, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const options = { N: Number(n), r: Number(rr), p: Number(pp) };
  const key = await hashQueue.run(lane, () =>
    scrypt(password, Buffer.from(salt, 'base64url'), expected.length, { ...options, maxmem: maxmem(options.N, options.r, options.p) }),
  );
  return timingSafeEqual(key, expected);
}

/** A hash nobody's password matches, checked against when the account does not exist so timing tells nothing. */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(12).toString('hex'));
  return decoy;
}
