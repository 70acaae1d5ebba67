import { createHmac } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { readToken, signToken } from '../../../src/server/auth/tokens.js';

/** The token check is QE's own (Node's HMAC, synchronous): what jose signs passes, nothing else does. */
describe('session tokens', () => {
  const secret = 'a-server-secret-of-some-length-0123456789';
  const later = Date.now() + 3600_000;
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const signed = (head: string, body: string, key = secret) => `${head}.${body}.${createHmac('sha256', key).update(`${head}.${body}`).digest('base64url')}`;
  const claims = { sid: 'session-1', iss: 'qe', sub: '42', jti: '42', iat: Math.floor(Date.now() / 1000), exp: Math.floor(later / 1000) };

  it('reads back what it signs', async () => {
    const token = await signToken(secret, { userId: 42, sessionId: 'session-1' }, later);
    expect(readToken(secret, token)).toEqual({ userId: 42, sessionId: 'session-1', expiresAt: Math.floor(later / 1000) * 1000 });
  });

  it('reads a token made by jose with the same claims (typ in the header too)', async () => {
    const token = await new SignJWT({ sid: 's2' }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuer('qe').setSubject('7').setJti('7').setIssuedAt().setExpirationTime(Math.floor(later / 1000)).sign(new TextEncoder().encode(secret));
    expect(readToken(secret, token)?.userId).toBe(7);
  });

  it('refuses another secret, a changed payload or signature, and a signature written another way', async () => {
    const token = await signToken(secret, { userId: 42, sessionId: 'session-1' }, later);
    expect(readToken('another-secret', token)).toBeNull();
    const [head, , sig] = token.split('.');
    expect(readToken(secret, `${head}.${b64({ ...claims, sub: '1', jti: '1' })}.${sig}`)).toBeNull();
    expect(readToken(secret, `${token.slice(0, -2)}${token.endsWith('AA') ? 'BA' : 'AA'}`)).toBeNull();
    // the same bytes with a last character whose unused bits differ: not the signature made
    const last = sig.at(-1)!;
    const sibling = 'AEIMQUYcgkosw048'.includes(last) ? String.fromCharCode(last.charCodeAt(0) + 1) : null;
    if (sibling) expect(readToken(secret, `${token.slice(0, -1)}${sibling}`)).toBeNull();
    expect(readToken(secret, `${token}=`)).toBeNull();
  });

  it('refuses other algorithms, none, extra header fields and malformed parts', () => {
    const body = b64(claims);
    expect(readToken(secret, signed(b64({ alg: 'HS256' }), body))?.userId).toBe(42);
    expect(readToken(secret, signed(b64({ alg: 'HS512' }), body))).toBeNull();
    expect(readToken(secret, `${b64({ alg: 'none' })}.${body}.`)).toBeNull();
    expect(readToken(secret, signed(b64({ alg: 'HS256', crit: ['exp'] }), body))).toBeNull();
    expect(readToken(secret, signed(b64({ alg: 'HS256', kid: 'x' }), body))).toBeNull();
    expect(readToken(secret, signed(b64(['HS256']), body))).toBeNull();
    expect(readToken(secret, signed('e30', body))).toBeNull();
    expect(readToken(secret, signed(b64({ alg: 'HS256' }), Buffer.from('not json').toString('base64url')))).toBeNull();
    expect(readToken(secret, signed(b64({ alg: 'HS256' }), 'a+b/'))).toBeNull();
    for (const bad of ['', '.', '..', 'a.b', 'a.b.c.d', `${body}.${body}`]) expect(readToken(secret, bad)).toBeNull();
  });

  it('refuses an expired token, another issuer, a subject that is not its id, and missing claims', () => {
    const head = b64({ alg: 'HS256' });
    const now = Math.floor(Date.now() / 1000);
    expect(readToken(secret, signed(head, b64({ ...claims, exp: now - 1 })))).toBeNull();
    expect(readToken(secret, signed(head, b64({ ...claims, exp: String(claims.exp) })))).toBeNull();
    expect(readToken(secret, signed(head, b64({ ...claims, iss: 'other' })))).toBeNull();
    expect(readToken(secret, signed(head, b64({ ...claims, sub: '43' })))).toBeNull();
    expect(readToken(secret, signed(head, b64({ ...claims, jti: '4.2', sub: '4.2' })))).toBeNull();
    const { sid: _sid, ...noSession } = claims;
    expect(readToken(secret, signed(head, b64(noSession)))).toBeNull();
    const { exp: _exp, ...noExpiry } = claims;
    expect(readToken(secret, signed(head, b64(noExpiry)))).toBeNull();
  });
});
