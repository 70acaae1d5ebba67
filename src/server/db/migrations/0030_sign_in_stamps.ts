import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../connect.js';

/**
 * A sign-in stamp per account (`users.sign_in_stamp`): a reminder mail's sign-in link carries its
 * account's stamp and is refused once the stamp has moved (src/server/filling/quick.ts). The stamp
 * is random, never a counter: a restore puts an archive's accounts back and must not bring an
 * older value — and with it the links made under it — back to life (src/server/auth/sign-in-stamp.ts).
 *
 * Moved by a password changed (by its owner, an administrator or an import: application code,
 * beside the sessions it ends), by a restore, and here by a trigger whenever an account stops
 * being one that may log in (disabled, a teacher or pupil who left), whoever makes the change: the
 * link stays dead when the account is enabled again. A new account gets a fresh one (on SQLite
 * by a trigger: a column added to a table cannot default to a random value there).
 */
/** written with a password change: lists need not count again for it (0021's rows:users leaves it out) */
export const SIGN_IN_COLUMNS = ['sign_in_stamp'];

const mayLogIn = (row: 'old' | 'new') =>
  sql.raw(`(${row}.active = 1 and (${row}.user_type not in ('TEACHER', 'STUDENT') or ${row}.status = '1'))`);
const leaves = sql`${mayLogIn('old')} and not ${mayLogIn('new')}`;

export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await db.schema.alterTable('users').addColumn('sign_in_stamp', 'text', (c) => c.notNull().defaultTo(sql`gen_random_uuid()::text`)).execute();
    await sql`create function qe_sign_in_stamp_renewed() returns trigger language plpgsql as $$
      begin
        new.sign_in_stamp := gen_random_uuid()::text;
        return new;
      end $$`.execute(db);
    await sql`create trigger users_sign_in_stamp_leaves before update of active, status, user_type on users for each row when (${leaves}) execute function qe_sign_in_stamp_renewed()`.execute(db);
  } else {
    await db.schema.alterTable('users').addColumn('sign_in_stamp', 'text', (c) => c.notNull().defaultTo('')).execute();
    await sql`update users set sign_in_stamp = lower(hex(randomblob(16)))`.execute(db);
    await sql`create trigger users_sign_in_stamp_insert after insert on users begin update users set sign_in_stamp = lower(hex(randomblob(16))) where id = new.id; end`.execute(db);
    await sql`create trigger users_sign_in_stamp_leaves after update of active, status, user_type on users when ${leaves} begin update users set sign_in_stamp = lower(hex(randomblob(16))) where id = new.id; end`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop trigger if exists users_sign_in_stamp_leaves on users`.execute(db);
    await sql`drop function if exists qe_sign_in_stamp_renewed()`.execute(db);
  } else {
    await sql`drop trigger if exists users_sign_in_stamp_insert`.execute(db);
    await sql`drop trigger if exists users_sign_in_stamp_leaves`.execute(db);
  }
  await db.schema.alterTable('users').dropColumn('sign_in_stamp').execute();
}
