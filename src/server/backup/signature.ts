import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Manifest } from './format.js';

/**
 * An archive's signature: HMAC-SHA-256 of its manifest (which holds every other entry's SHA-256)
 * under a key derived from the server's secret (QE_SECRET). An archive this QE made carries it; an
 * edited one, or one of another QE, does not — restoring it needs the school's name typed (765).
 * The key never leaves the server and is not the secret itself.
 */
function signatureKey(secret: string): Buffer {
  return createHmac('sha256', secret).update('qe-backup signature').digest();
}

export function signManifest(manifest: Omit<Manifest, 'signature'>, secret: string): string {
  return createHmac('sha256', signatureKey(secret)).update(JSON.stringify(manifest)).digest('hex');
}

/** Whether the manifest was signed by this QE (its key from `secret`). */
export function signedHere(manifest: Manifest, secret: string | undefined): boolean {
  const { signature, ...rest } = manifest;
  if (!secret || typeof signature !== 'string') return false;
  const expected = Buffer.from(signManifest(rest, secret), 'hex');
  const given = Buffer.from(signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
