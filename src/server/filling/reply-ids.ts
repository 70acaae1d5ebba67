import { randomUUID } from 'node:crypto';

/**
 * The id of a new reply. A named reply's is a UUID version 7 (RFC 9562: the millisecond first,
 * then random bits), so replies arriving together sit together at the end of the replies' and
 * their texts' keys: a group of 100 submissions changes a handful of pages, not one in a hundred
 * places each, and its commit writes that much less. An anonymous reply's stays random
 * (version 4): its id must say nothing of when it came (filling/mixing.ts).
 *
 * Both come from randomUUID, whose random bits Node draws from a kept buffer: a randomBytes call
 * per reply cost a tenth as much as the whole submission under a burst.
 */
export function newReplyId(anonymous: boolean, now = Date.now()): string {
  const random = randomUUID();
  if (anonymous) return random;
  // xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx: the time over the first 48 bits, the version 7 over the 4
  const time = now.toString(16).padStart(12, '0');
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${random.slice(15)}`;
}
