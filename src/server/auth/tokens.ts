import { randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

export interface TokenClaims {
  userId: number;
  sessionId: string;
}

const ISSUER = 'qe';

/** A signed JWT whose jti is the user id (the client compares them, spec §7) and whose sid names the server-side session. */
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

/** The claims of a valid token with its expiry (epoch ms), or null when it is malformed, forged or expired. */
export async function readToken(secret: string, token: string): Promise<(TokenClaims & { expiresAt: number }) | null> {
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), { issuer: ISSUER, algorithms: ['HS256'] });
    const userId = Number(payload.jti);
    if (!Number.isInteger(userId) || payload.sub !== payload.jti || typeof payload.sid !== 'string' || typeof payload.exp !== 'number') return null;
    return { userId, sessionId: payload.sid, expiresAt: payload.exp * 1000 };
  } catch {
    return null;
  }
}

export function newSessionId(): string {
  return randomBytes(24).toString('base64url');
}
