import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.js';
import { isPostgres } from '../../../src/server/db/connect.js';
import { writeBackup } from '../../../src/server/backup/write.js';
import { testApp, type TestApp } from '../harness.js';
import { dumpTables } from '../backup/dump.js';

/** Runs a restore in a process of its own, frozen at `stopAt`, and kills it (-9, the whole group) there. */
async function killedRestore(t: TestApp, archive: string, stopAt: 'load' | 'hold' | 'backup'): Promise<void> {
  const child = spawn('node_modules/.bin/tsx', ['tests/server/attack/restore-kill-child.ts'], {
    env: { ...process.env, QE_CHILD_CONFIG: JSON.stringify(t.config), QE_STOP_AT: stopAt, QE_ARCHIVE: archive, QE_PASSPHRASE: 'correct horse battery' },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the restore did not stop at ${stopAt}: ${output}`)), 60_000);
    const seen = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('STOPPED')) {
        clearTimeout(timer);
        resolve();
      }
      if (output.includes('FINISHED')) reject(new Error(`the restore finished: ${output}`));
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
    child.once('exit', () => reject(new Error(`the restore ended: ${output}`)));
  });
  process.kill(-child.pid!, 'SIGKILL');
  await exited;
}

/** What a killed restore, upload or backup may leave: files by name, PostgreSQL schemas. */
async function leftovers(t: TestApp): Promise<string[]> {
  const found: string[] = [];
  found.push(...readdirSync(t.config.dataDir).filter((n) => /^restore-|^upload-.*\.part$|^\.local-|^\.backup-|\.open$/.test(n)));
  const backups = join(t.config.dataDir, 'backups');
  if (existsSync(backups)) found.push(...readdirSync(backups).filter((n) => /\.partial$|\.open$/.test(n)));
  const base = basename(t.config.storageDir);
  found.push(...readdirSync(dirname(t.config.storageDir)).filter((n) => n.startsWith(`${base}.restore-`) || n.startsWith(`${base}.old-`)));
  if (isPostgres(t.db)) {
    const { rows } = await sql<{ name: string }>`select nspname as name from pg_namespace where nspname like 'qe_restore_%'`.execute(t.db);
    found.push(...rows.map((r) => r.name));
    // files a restore staged in the file store (the database on PostgreSQL)
    const staged = await t.db.selectFrom('stored_files').select('area').where('area', 'like', '%.restore-%').execute();
    found.push(...staged.map((r) => `stored_files:${r.area}`));
  }
  return found;
}

/** A start of QE on the same data folder and database, as after the kill. */
async function restart(t: TestApp): Promise<() => Promise<void>> {
  const { app } = await buildApp(t.config, { logger: false });
  await app.ready();
  return () => app.close();
}

// kill -9 during a restore must not leave its copies for good — a staging copy (on PostgreSQL a
// schema inside the live database, with every password hash), the storage folder's copies, a
// decrypted archive. The next start removes them all, and the data is as before the restore.
describe('a restore killed midway', () => {
  let t: TestApp;
  let archive: string;
  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    mkdirSync(join(t.config.dataDir, 'backups'), { recursive: true });
    // read by the restore where it lies: outside the backups' folder, which a start on PostgreSQL takes into the database
    archive = join(t.config.dataDir, 'qe-20261124-010203.qe.zip');
    await writeBackup(t.config, archive, { passphrase: 'correct horse battery' });
    mkdirSync(t.config.storageDir, { recursive: true });
    writeFileSync(join(t.config.storageDir, 'kept.txt'), 'live file');
  });
  afterAll(async () => t?.close());

  for (const stopAt of ['load', 'hold'] as const) {
    it(`leaves nothing behind at the next start (killed ${stopAt === 'load' ? 'while loading the copy' : 'while holding writes for the swap'})`, { timeout: 120_000 }, async () => {
      const before = await dumpTables(t.db);
      await killedRestore(t, archive, stopAt);
      // what else a kill leaves: an upload and a backup cut short, the storage folder's old copy
      writeFileSync(join(t.config.dataDir, 'upload-0123456789abcdef.part'), 'half an upload');
      writeFileSync(join(t.config.dataDir, 'backups', 'qe-20261124-020304.qe.zip.partial'), 'half a backup');
      mkdirSync(`${t.config.storageDir}.old-0badcafe`);
      const left = await leftovers(t);
      expect(left.some((n) => n.endsWith('.open')), left.join()).toBe(true);
      expect(left.some((n) => n.startsWith(isPostgres(t.db) ? 'qe_restore_' : 'restore-')), left.join()).toBe(true);
      if (isPostgres(t.db)) {
        // the killed instance's heartbeat, as it stands once STALE_MS has passed
        await t.db.updateTable('instances').set({ seen_at: sql`seen_at - 60000` }).execute();
      }
      const stop = await restart(t);
      try {
        expect(await leftovers(t)).toEqual([]);
        // the live uploads as they were (on PostgreSQL the store's files are in the database, compared with the tables)
        if (!isPostgres(t.db)) expect(readdirSync(t.config.storageDir)).toContain('kept.txt');
        if (isPostgres(t.db)) expect(await t.db.selectFrom('restore_holds').selectAll().execute()).toEqual([]);
        expect(await dumpTables(t.db)).toEqual(before);
      } finally {
        await stop();
      }
    });
  }

  it('leaves no backup cut short behind at the next start (killed while writing it)', { timeout: 120_000 }, async () => {
    await killedRestore(t, archive, 'backup');
    expect((await leftovers(t)).some((n) => n.endsWith('.partial')), readdirSync(join(t.config.dataDir, 'backups')).join()).toBe(true);
    const stop = await restart(t);
    try {
      expect(await leftovers(t)).toEqual([]);
    } finally {
      await stop();
    }
  });

  it.skipIf(!process.env.DATABASE_URL)('keeps the schema of a restore another living instance is running (PostgreSQL)', async () => {
    // the test app's own instance, beating its heart
    let me: { id: string } | undefined;
    while (!(me = await t.db.selectFrom('instances').select('id').where('seen_at', '>', Date.now() - 3_000).executeTakeFirst())) await new Promise((r) => setTimeout(r, 100));
    const schema = `qe_restore_${me.id}_0123456789ab`;
    await sql`create schema ${sql.id(schema)}`.execute(t.db);
    const stop = await restart(t);
    try {
      expect(await leftovers(t)).toEqual([schema]);
    } finally {
      await stop();
      await sql`drop schema ${sql.id(schema)}`.execute(t.db);
    }
  });
});
