import { randomBytes, scryptSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasArgon2, hashPassword, needsRehash, verifyPassword } from '../../src/server/auth/passwords.js';
import { login, testApp, type TestApp } from './harness.js';

/** A hash as QE made them before argon2id: scrypt N=2^15, r=8, p=3. */
function legacyScrypt(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, 32, { N: 2 ** 15, r: 8, p: 3, maxmem: 256 * 2 ** 15 * 8 * 3 + 2 ** 20 });
  return ['scrypt', 2 ** 15, 8, 3, salt.toString('base64url'), key.toString('base64url')].join('$');
}

describe('password hashes', () => {
  it.runIf(hasArgon2)('are argon2id at OWASP strength (19 MiB, 2 passes, 1 lane) in PHC form, salted each time', async () => {
    const [a, b] = await Promise.all([hashPassword('Passw0rd!'), hashPassword('Passw0rd!')]);
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('Passw0rd!', a)).toBe(true);
    expect(await verifyPassword('Passw0rd?', a)).toBe(false);
    expect(needsRehash(a)).toBe(false);
  });

  it('still check the scrypt hashes made before, and mark them for replacement', async () => {
    const old = legacyScrypt('Passw0rd!');
    expect(await verifyPassword('Passw0rd!', old)).toBe(true);
    expect(await verifyPassword('wrong', old)).toBe(false);
    expect(needsRehash(old)).toBe(hasArgon2);
  });

  it('refuse a stored hash that is damaged or asks for an unbounded cost, without trying it', async () => {
    const argon = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$YWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXphYmNkZWY';
    const scrypt = legacyScrypt('Passw0rd!');
    const crafted = [
      argon.replace(/m=\d+/, 'm=4194304'),
      argon.replace(/t=\d+/, 't=99'),
      argon.replace('v=19', 'v=16'),
      argon.slice(0, -10),
      // a hash cut short would compare only its first bytes
      scrypt.slice(0, -10),
      'scrypt$1048576$8$3$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      '',
      'plain',
    ];
    for (const stored of crafted) expect(await verifyPassword('Passw0rd!', stored), stored).toBe(false);
  });
});

describe('login upgrades an old hash', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp({ demo: true });
  });
  afterAll(async () => t?.close());

  const stored = async (username: string) => (await t.db.selectFrom('users').select('password_hash').where('username', '=', username).executeTakeFirstOrThrow()).password_hash;

  it.runIf(hasArgon2)('replaces a scrypt hash with argon2id at the first good login, not at a failed one', async () => {
    const old = legacyScrypt('Passw0rd!');
    await t.db.updateTable('users').set({ password_hash: old }).where('username', '=', 'teacher07').execute();
    const wrong = await t.app.inject({ method: 'POST', url: '/v1/login', payload: { username: 'teacher07', password: 'not-it' } });
    expect(wrong.json().code).toBe(700);
    expect(await stored('teacher07')).toBe(old);

    await login(t.app, 'teacher07');
    const upgraded = await stored('teacher07');
    expect(upgraded).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    // the new hash is the same password: the next login works and leaves it as it is
    await login(t.app, 'teacher07');
    expect(await stored('teacher07')).toBe(upgraded);
    expect((await t.app.inject({ method: 'POST', url: '/v1/login', payload: { username: 'teacher07', password: 'not-it' } })).json().code).toBe(700);
  });
});
