import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../connect.js';
import { withId } from '../columns.js';
import { LOGIN_COLUMNS } from './0021_row_versions.js';
import { SIGN_IN_COLUMNS } from './0030_sign_in_stamps.js';

/**
 * Sign-in with the school's own accounts through OpenID Connect (docs/recipes/sign-in-with-school-accounts.md,
 * src/server/sign-in/).
 *
 * - `users.school_account`: the address of the user's account at the school's provider (Microsoft
 *   Entra ID, Google Workspace, …), kept in lower case and unique when set; a first sign-in finds
 *   the account by it.
 * - `identity_providers`: what the super administrator configured per provider — its kind, the
 *   button's names, tenant or issuer, the OAuth client, its secret (sealed with the server secret,
 *   or the name of an environment variable that holds it), the e-mail domains and user types it
 *   may sign in (JSON arrays), whether it is offered, and its place among the buttons.
 * - `sign_in_links`: a QE account's link to a provider's account (the ID token's `sub`), made at
 *   the first sign-in; what the provider asserted then, and when it was last used. One per provider
 *   account; gone with the provider or the user.
 * - `sign_in_flows`: a sign-in (or a provider's test) between its start and its completion, in the
 *   database so that any instance completes what another started: keyed by a hash of its `state`,
 *   with the nonce, the PKCE verifier, a hash of the browser's key, where to go afterwards, and its
 *   expiry (epoch ms, ten minutes). Completing deletes it; expired ones are cleared as new ones start.
 * - `sign_in_password_policy`: per user type, whether the password login stays allowed (a row with
 *   0 turns it off; no row: allowed). The super administrator's is never turned off.
 *
 * The new column is watched by the `rows:users` counter as 0021 watches every column a login does
 * not write (a list showing school accounts follows a change made in SQL): its update trigger is
 * made again over the columns users has now.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('school_account', 'text').execute();
  await db.schema.createIndex('users_school_account_idx').unique().on('users').column('school_account').execute();
  await watchUsersColumns(db);

  await withId(db, db.schema.createTable('identity_providers'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name_hk', 'text', (c) => c.notNull())
    .addColumn('name_en', 'text', (c) => c.notNull())
    .addColumn('tenant', 'text')
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('secret', 'text')
    .addColumn('secret_env', 'text')
    .addColumn('domains', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('roles', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('seq', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('sign_in_links'))
    .addColumn('provider_id', 'integer', (c) => c.notNull().references('identity_providers.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('linked_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema.createIndex('sign_in_links_subject_idx').unique().on('sign_in_links').columns(['provider_id', 'subject']).execute();
  await db.schema.createIndex('sign_in_links_user_idx').on('sign_in_links').column('user_id').execute();

  await db.schema
    .createTable('sign_in_flows')
    .addColumn('state_hash', 'text', (c) => c.primaryKey())
    .addColumn('provider_id', 'integer', (c) => c.notNull().references('identity_providers.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('browser_key_hash', 'text', (c) => c.notNull())
    .addColumn('return_to', 'text')
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('started_by', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sign_in_flows_expires_idx').on('sign_in_flows').column('expires_at').execute();
  await db.schema.createIndex('sign_in_flows_provider_idx').on('sign_in_flows').column('provider_id').execute();
  await db.schema.createIndex('sign_in_flows_started_by_idx').on('sign_in_flows').column('started_by').execute();

  await db.schema
    .createTable('sign_in_password_policy')
    .addColumn('user_type', 'text', (c) => c.primaryKey())
    .addColumn('allowed', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

/** 0021's update trigger of `rows:users` again, over every column of users now but a login's and a password change's. */
async function watchUsersColumns(db: Kysely<any>): Promise<void> {
  const skipped = [...LOGIN_COLUMNS, ...SIGN_IN_COLUMNS];
  const all = isPostgres(db)
    ? (await sql<{ name: string }>`select column_name as name from information_schema.columns where table_schema = current_schema() and table_name = 'users' order by ordinal_position`.execute(db)).rows
    : (await sql<{ name: string }>`select name from pragma_table_info('users')`.execute(db)).rows;
  const on = sql.raw(`update of ${all.map((c) => c.name).filter((c) => !skipped.includes(c)).map((c) => `"${c}"`).join(', ')}`);
  if (isPostgres(db)) {
    await sql`drop trigger if exists users_update_row_version on users`.execute(db);
    await sql`create trigger users_update_row_version after ${on} on users for each statement execute function qe_cache_changed('rows:users')`.execute(db);
  } else {
    await sql`drop trigger if exists users_update_row_version`.execute(db);
    await sql`create trigger users_update_row_version after ${on} on users begin update cache_versions set version = version + 1 where name = 'rows:users'; end`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sign_in_password_policy').execute();
  await db.schema.dropTable('sign_in_flows').execute();
  await db.schema.dropTable('sign_in_links').execute();
  await db.schema.dropTable('identity_providers').execute();
  await db.schema.dropIndex('users_school_account_idx').execute();
  // the trigger names the column: made again without it once it is gone
  await sql`drop trigger if exists users_update_row_version${isPostgres(db) ? sql` on users` : sql``}`.execute(db);
  await db.schema.alterTable('users').dropColumn('school_account').execute();
  await watchUsersColumns(db);
}
