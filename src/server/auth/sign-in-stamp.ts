import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../db/connect.js';
import type { Database } from '../db/schema.js';

/**
 * An account's sign-in stamp (migration 0030): a reminder's sign-in link carries it and is
 * refused once it moved. Stored in the database, so every instance sharing it refuses the link
 * at once. Random, so that no later write — a restore above all — can bring an old one back.
 */
const fresh = (db: Kysely<Database>) => (isPostgres(db) ? sql<string>`gen_random_uuid()::text` : sql<string>`lower(hex(randomblob(16)))`);

/** A new stamp for one account, or for every account (a restore); each row its own. */
export async function renewSignInStamps(db: Kysely<Database>, userId?: number): Promise<void> {
  let q = db.updateTable('users').set({ sign_in_stamp: fresh(db) });
  if (userId !== undefined) q = q.where('id', '=', userId);
  await q.execute();
}

/** The stamp a new link for this account carries (undefined: no such account). */
export async function signInStamp(db: Kysely<Database>, userId: number): Promise<string | undefined> {
  return (await db.selectFrom('users').select('sign_in_stamp').where('id', '=', userId).executeTakeFirst())?.sign_in_stamp;
}
