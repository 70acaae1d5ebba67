import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../support/config.js';
import { buildApp } from '../../../src/server/app.js';
import { seedDemoSchool } from '../../../src/server/demo/seed.js';
import { seedDemoQuestionnaires } from '../../../src/server/demo/questionnaires.js';
import { createDb, type DB } from '../../../src/server/db/connect.js';
import { createTestDatabase } from '../../support/database.js';
import { dumpTables } from './dump.js';
import { uploads } from '../../../src/server/storage/file-store.js';

/** A 1×1 PNG with bytes of its own after it: a restore takes back only the images QE stores. */
const LOGO = Buffer.concat([Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64'), Buffer.from('a logo')]);

const run = promisify(execFile);
const CLI = resolve('src/server/backup/cli.ts');

/** The operator's command, as a process of its own, on the database the environment names. */
async function cli(args: string[], env: { DATABASE_URL?: string; DATA_DIR: string }) {
  const { DATABASE_URL: _drop, ...rest } = process.env;
  return run(process.execPath, ['--import', 'tsx', CLI, ...args], { env: { ...rest, ...env, LOG_LEVEL: 'silent' }, timeout: 120_000 });
}


// a school moves from the embedded database to PostgreSQL and back with the two commands
describe.runIf(Boolean(process.env.DATABASE_URL))('an archive made on one database restores into the other', () => {
  const sqliteDir = mkdtempSync(join(tmpdir(), 'qe-move-'));
  const backSqliteDir = mkdtempSync(join(tmpdir(), 'qe-move-back-'));
  let pgDb: Awaited<ReturnType<typeof createTestDatabase>>;
  let source: DB;
  beforeAll(async () => {
    const config = testConfig({ dataDir: sqliteDir });
    const { app, db } = await buildApp(config, { logger: false });
    await seedDemoSchool(db);
    await seedDemoQuestionnaires(db, config.anonymousMinGroup);
    mkdirSync(join(config.storageDir, 'logo'), { recursive: true });
    writeFileSync(join(config.storageDir, 'logo', 'school.png'), LOGO);
    await app.close();
    source = createDb({ dataDir: sqliteDir, databaseUrl: undefined });
    pgDb = await createTestDatabase();
  }, 120_000);
  afterAll(async () => {
    await source?.destroy();
    await pgDb?.drop();
    rmSync(sqliteDir, { recursive: true, force: true });
    rmSync(backSqliteDir, { recursive: true, force: true });
  });

  it('SQLite → PostgreSQL → SQLite: every row and file the same', async () => {
    const expected = await dumpTables(source, { roundFloats: true });
    expect(expected.replies.length).toBeGreaterThan(0);
    expect(expected.reply_answers.length).toBeGreaterThan(0);
    const archive = join(sqliteDir, 'move.qe.zip');
    const made = await cli(['backup', '--out', archive], { DATA_DIR: sqliteDir });
    expect(made.stdout).toMatch(/backup of SQLite .* written to/);

    const refused = await cli(['restore', archive], { DATABASE_URL: pgDb.databaseUrl, DATA_DIR: pgDb.dataDir }).catch((e: { code: number; stderr: string }) => e);
    expect(refused).toMatchObject({ code: 2, stderr: expect.stringContaining('--yes') });
    const restored = await cli(['restore', archive, '--yes'], { DATABASE_URL: pgDb.databaseUrl, DATA_DIR: pgDb.dataDir });
    expect(restored.stdout).toMatch(/restored \d+ rows of \d+ tables into PostgreSQL/);
    const onPostgres = createDb({ dataDir: pgDb.dataDir, databaseUrl: pgDb.databaseUrl });
    try {
      expect(await dumpTables(onPostgres, { roundFloats: true })).toEqual(expected);
      // a new row gets an id after the restored ones (the sequences were moved on)
      const { id } = await onPostgres.insertInto('positions').values({ code: 'NEW', name_hk: '新', name_en: 'New', seq: 99 }).returning('id').executeTakeFirstOrThrow();
      expect(id).toBeGreaterThan(Math.max(...expected.positions.map((p) => JSON.parse(p).id)));
      await onPostgres.deleteFrom('positions').where('id', '=', id).execute();
      // on PostgreSQL the files are in the database's file store
      const logo = await uploads(onPostgres, { storageDir: join(pgDb.dataDir, 'storage'), dataDir: pgDb.dataDir }).open('logo/school.png');
      expect(logo && Buffer.concat(await logo.toArray())).toEqual(LOGO);
    } finally {
      await onPostgres.destroy();
    }

    const back = join(pgDb.dataDir, 'back.qe.zip');
    // a passphrase variable that is not set is refused, not taken as "no passphrase"
    const unset = await cli(['backup', '--out', back, '--passphrase-env', 'QE_TEST_PASSPHRASE'], { DATABASE_URL: pgDb.databaseUrl, DATA_DIR: pgDb.dataDir }).catch((e: { code: number; stderr: string }) => e);
    expect(unset).toMatchObject({ code: 1, stderr: expect.stringContaining('QE_TEST_PASSPHRASE') });
    await cli(['backup', '--out', back], { DATABASE_URL: pgDb.databaseUrl, DATA_DIR: pgDb.dataDir });
    await cli(['restore', back, '--yes'], { DATA_DIR: backSqliteDir });
    const again = createDb({ dataDir: backSqliteDir, databaseUrl: undefined });
    try {
      expect(await dumpTables(again, { roundFloats: true })).toEqual(expected);
      expect(readFileSync(join(backSqliteDir, 'storage', 'logo', 'school.png'))).toEqual(LOGO);
    } finally {
      await again.destroy();
    }
  }, 300_000);
});
