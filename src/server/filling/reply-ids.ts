import { randomBytes, randomUUID } from 'node:crypto';

/**
 * The id of a new reply. A named reply's is a UUID version 7 (RFC 9562: the millisecond first,
 * then random bits), so replies arriving together sit together at the end of the replies' and
 * their texts' keys: a group of 100 submissions changes a handful of pages, not one in a hundred
 * places each, and its commit writes that much less. An anonymous reply's stays random
 * (version 4): its id must say nothing of when it came (filling/mixing.ts).
 */
export function newReplyId(anonymous: boolean, now = Date.now()): string {
  if (anonymous) return randomUUID();
  const b = randomBytes(16);
  b.writeUIntBE(now, 0, 6);
  b[6] = (b[6] & 0x0f) | 0x70;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
