import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { SignJWT } from 'jose';

export interface TokenClaims {
  userId: number;
  sessionId: string;
}

const ISSUER = 'qe';

/** A signed JWT whose jti is the user id (the client compares them: docs/product-rules.md#calls-the-product-names) and whose sid names the server-side session. */
export async function signToken(secret: string, claims: TokenClaims, expiresAt: number): Promise<string> {
  return new SignJWT({ sid: claims.sessionId })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(ISSUER)
    .setSubject(String(claims.userId))
    .setJti(String(claims.userId))
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt / 1000))
    .sign(new TextEncoder().encode(secret));
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

function json(part: string): Record<string, unknown> | null {
  if (!BASE64URL.test(part)) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * The claims of a valid token with its expiry (epoch ms), or null when it is malformed, forged or
 * expired. Checked here with Node's HMAC, at once: jose's WebCrypto verification (a key imported
 * and a job queued for every token) was a twentieth of a pupil's first submission. Only what
 * signToken makes passes: HS256 with this secret, no other header fields, QE's issuer, not expired.
 */
export function readToken(secret: string, token: string): (TokenClaims & { expiresAt: number }) | null {
  const parts = token.split('.');
  if (parts.length !== 3 || !BASE64URL.test(parts[2])) return null;
  const [head, body, signature] = parts;
  const expected = createHmac('sha256', secret).update(`${head}.${body}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected) || given.toString('base64url') !== signature) return null;
  const header = json(head);
  if (!header || header.alg !== 'HS256' || Object.keys(header).some((k) => k !== 'alg' && k !== 'typ')) return null;
  const payload = json(body);
  if (!payload || payload.iss !== ISSUER || typeof payload.exp !== 'number' || typeof payload.sid !== 'string') return null;
  if (payload.exp * 1000 <= Date.now()) return null;
  const userId = Number(payload.jti);
  if (!Number.isInteger(userId) || payload.sub !== payload.jti) return null;
  return { userId, sessionId: payload.sid, expiresAt: payload.exp * 1000 };
}

export function newSessionId(): string {
  return randomBytes(24).toString('base64url');
}
