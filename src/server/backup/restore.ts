import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { createPool } from '../db/pool.js';
import type { Config } from '../config.js';
import { createDb, isPostgres, type DB } from '../db/connect.js';
import { renewSignInStamps } from '../auth/sign-in-stamp.js';
import { knownMigrations, migrateTo, migrateToLatest } from '../db/migrate.js';
import type { Database } from '../db/schema.js';
import { ARCHIVED_TABLES, MASTER_TABLES, SERIAL_ID_TABLES, TRANSIENT_TABLES } from './format.js';
import { recountAnswers } from '../statistics/answerRows.js';
import { ArchiveRefused, openArchive } from './read.js';
import { stagedFileWriter } from './restore-files.js';
import { uploads } from '../storage/file-store.js';
import { checkContent, checkRow, refusedByDatabase } from './content-rules.js';
import { signedHere } from './signature.js';
import type { Manifest } from './format.js';

/**
 * An archive another QE made (not signed with this one's secret: an edited file, or another
 * school's server), or of a school whose name differs from the live one's, restores only with that
 * school's name typed as confirmation (765 says the name).
 */
async function checkSchool(live: DB, staging: DB, manifest: Manifest, secret: string | undefined, confirm: string | undefined): Promise<void> {
  const theirs = await staging.selectFrom('school').select(['name_hk', 'name_en']).orderBy('id').executeTakeFirst();
  const ours = await live.selectFrom('school').select(['name_hk', 'name_en']).orderBy('id').executeTakeFirst();
  const name = theirs?.name_hk || theirs?.name_en || '—';
  const same = Boolean(theirs && ours && theirs.name_hk === ours.name_hk && theirs.name_en === ours.name_en);
  if (same && signedHere(manifest, secret)) return;
  const typed = confirm?.trim().normalize('NFC');
  if (typed && theirs && (typed === theirs.name_hk.trim().normalize('NFC') || typed === theirs.name_en.trim().normalize('NFC'))) return;
  throw new ArchiveRefused('school', name);
}

export interface RestoreOptions {
  passphrase?: string;
  onProgress?: (progress: { done: number; total: number }) => void;
  /** holds the app's writes back for the swap (plugins/write-gate.ts) and answers how to let them go again */
  holdWrites?: () => Promise<() => Promise<void> | void>;
  /**
   * The screen's restore: an archive not signed by this QE, or of a school whose name differs from
   * the live one's, is refused (765) unless `confirm` is that school's name. Unset: the operator's
   * command line, which trusts the file it is given.
   */
  school?: { confirm?: string };
  /** names the PostgreSQL staging schema's owner, so a start after a crash knows whose it is (leftovers.ts) */
  instanceId?: string;
}

/** A PostgreSQL staging schema's name begins so, then its instance's id (restore-hold.ts), `_`, a random tag. */
export const STAGING_SCHEMA_PREFIX = 'qe_restore_';

/** Rows inserted per statement (well under both databases' limits on bound values). */
const BATCH = 400;

interface Staging {
  db: DB;
  /** PostgreSQL: the copy's schema, where its migrations keep their bookkeeping too */
  schema?: string;
  /** how the live database names the staging copy's table */
  table(name: string): ReturnType<typeof sql.table>;
  beforeSwap?: (conn: Kysely<Database>) => Promise<void>;
  afterSwap?: (conn: Kysely<Database>) => Promise<void>;
  drop(): Promise<void>;
}

/** A fresh, empty database beside the live one: a new SQLite file, or a new PostgreSQL schema. */
async function createStaging(live: DB, config: Pick<Config, 'databaseUrl' | 'dataDir'>, owner = 'none'): Promise<Staging> {
  const tag = randomBytes(6).toString('hex');
  if (config.databaseUrl) {
    // named by its instance: a start after a crash removes it unless that instance still lives (leftovers.ts)
    const schema = `${STAGING_SCHEMA_PREFIX}${owner}_${tag}`;
    await sql`create schema ${sql.id(schema)}`.execute(live);
    const pool = createPool({ connectionString: config.databaseUrl, max: 4, options: `-c search_path=${schema}` });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      schema,
      table: (name) => sql.table(`${schema}.${name}`),
      drop: async () => {
        await db.destroy().catch(() => undefined);
        await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(live);
      },
    };
  }
  const dir = join(config.dataDir, `restore-${tag}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const db = createDb({ dataDir: dir, databaseUrl: undefined });
  const file = join(dir, 'qe.sqlite');
  return {
    db,
    table: (name) => sql.table(`staging.${name}`),
    // SQLite attaches the copy to the live connection outside a transaction, then copies inside one
    beforeSwap: async (conn) => {
      await db.destroy();
      await sql`attach database ${file} as staging`.execute(conn);
    },
    afterSwap: async (conn) => {
      await sql`detach database staging`.execute(conn);
    },
    drop: async () => {
      await db.destroy().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The live table's columns, in order. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the live database or a transaction of it, read by name
async function columnsOf(db: Kysely<any>, table: string): Promise<string[]> {
  if (isPostgres(db)) {
    const { rows } = await sql<{ column_name: string }>`select column_name from information_schema.columns where table_schema = current_schema() and table_name = ${table} order by ordinal_position`.execute(db);
    return rows.map((r) => r.column_name);
  }
  const { rows } = await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db);
  return rows.map((r) => r.name);
}

/**
 * Restores an archive. Everything is checked first (read.ts: what it is, the passphrase, every
 * checksum and row count; here: its migrations are ones this QE knows — an older archive is
 * migrated forward, a newer one refused). Then its rows are loaded into a fresh database beside
 * the live one, migrated to the latest level, and copied over the live tables in one
 * transaction, sessions cleared and sign-in stamps renewed in the same transaction: every user
 * logs in again, and no reminder's sign-in link works any more. Any failure
 * before that commit leaves the current data as it was. Uploaded files are replaced after it.
 */
export async function restoreArchive(live: DB, config: Pick<Config, 'databaseUrl' | 'dataDir' | 'storageDir'> & Partial<Pick<Config, 'secret'>>, path: string, options: RestoreOptions = {}): Promise<{ tables: number; rows: number }> {
  const archive = await openArchive(path, options.passphrase);
  let staging: Staging | null = null;
  // the archive's uploaded files, staged in the file store until the swap
  const staged = await uploads(live, config).stage();
  try {
    const { manifest } = archive;
    const known = knownMigrations();
    const unknown = manifest.migrations.filter((m) => !known.includes(m));
    if (unknown.length) throw new ArchiveRefused('newer', unknown.join(', '));
    if (!manifest.migrations.length) throw new ArchiveRefused('foreign', 'no migrations');
    const level = [...manifest.migrations].sort().at(-1)!;
    const total = Object.values(manifest.tables).reduce((a, b) => a + b, 0);
    let done = 0;

    staging = await createStaging(live, config, options.instanceId);
    await migrateTo(staging.db, level, staging.schema);
    const stagingDb = staging.db;
    // every file must be an image QE stores (by its bytes), or nothing is restored
    const file = stagedFileWriter(staged);
    const columns = new Map<string, Set<string>>();
    const seen: Record<string, number> = {};
    await archive.read({
      rows: async (table, rows) => {
        let known = columns.get(table);
        if (!known) columns.set(table, (known = new Set(await columnsOf(stagingDb, table))));
        rows.forEach((row, i) => checkRow(table, row, (seen[table] ?? 0) + i + 1, known));
        seen[table] = (seen[table] ?? 0) + rows.length;
        for (let i = 0; i < rows.length; i += BATCH) {
          try {
            await stagingDb.insertInto(table as keyof Database).values(rows.slice(i, i + BATCH) as never).execute();
          } catch (error) {
            throw refusedByDatabase(table, error);
          }
        }
        done += rows.length;
        options.onProgress?.({ done, total });
      },
      file,
    });
    try {
      await migrateToLatest(staging.db, staging.schema);
    } catch (error) {
      throw refusedByDatabase('migrations', error);
    }
    // the rules the screens keep (content-rules.ts), then whose archive it is
    await checkContent(staging.db);
    if (options.school) await checkSchool(live, staging.db, manifest, config.secret, options.school.confirm);

    // the swap: every live table emptied and refilled from the copy in one transaction
    const s = staging;
    const release = (await options.holdWrites?.()) ?? (() => undefined);
    try {
      await live.connection().execute(async (conn) => {
        await s.beforeSwap?.(conn);
        try {
          await conn.transaction().execute(async (trx) => {
            for (const table of [...ARCHIVED_TABLES].reverse()) await sql`delete from ${sql.table(table)}`.execute(trx);
            for (const table of TRANSIENT_TABLES) await sql`delete from ${sql.table(table)}`.execute(trx);
            for (const table of ARCHIVED_TABLES) {
              const cols = (await columnsOf(trx, table)).map((c) => sql.id(c));
              await sql`insert into ${sql.table(table)} (${sql.join(cols)}) select ${sql.join(cols)} from ${s.table(table)}`.execute(trx);
            }
            // every reminder's sign-in link dies with the sessions: the archive's stamps are the ones
            // its links were made under (auth/sign-in-stamp.ts)
            await renewSignInStamps(trx);
            // derived from the rows just copied: counted again rather than archived
            await recountAnswers(trx);
            // PostgreSQL: the uploaded files (the file store's rows) change in this same commit
            await staged.inSwap(trx);
            if (isPostgres(trx)) {
              // an added entity's tables: those with an id (setval of no sequence is null, not an error)
              const added = [];
              for (const table of MASTER_TABLES) if ((await columnsOf(trx, table)).includes('id')) added.push(table);
              for (const table of [...SERIAL_ID_TABLES, ...added]) {
                await sql`select setval(pg_get_serial_sequence(${table}, 'id'), coalesce((select max(id) from ${sql.table(table)}), 0) + 1, false)`.execute(trx);
              }
            }
          });
        } finally {
          await s.afterSwap?.(conn);
        }
      });

      // the uploaded files: the archive's in place of the current ones (file store: a folder swap or one transaction)
      await staged.commit();
    } finally {
      await release();
    }
    return { tables: Object.keys(manifest.tables).length, rows: total };
  } finally {
    archive.close();
    await staged.discard().catch(() => undefined);
    await staging?.drop();
  }
}
