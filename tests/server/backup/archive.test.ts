import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBackup } from '../../../src/server/backup/write.js';
import { restoreArchive } from '../../../src/server/backup/restore.js';
import { ArchiveRefused, openArchive } from '../../../src/server/backup/read.js';
import { sql } from 'kysely';
import { ARCHIVED_TABLES, CORE_TABLES, DERIVED_TABLES, INSTANCE_TABLES, MASTER_TABLES, masterTablesBeyond, STORE_TABLES, TRANSIENT_TABLES } from '../../../src/server/backup/format.js';
import { masterEntities } from '../../../src/shared/generated/master-entities.js';
import type { EntitySchema, MasterEntity } from '../../../src/shared/master/entity.js';
import { isPostgres } from '../../../src/server/db/connect.js';
import { testApp, login, type TestApp } from '../harness.js';
import { testConfig } from '../../support/config.js';
import { dumpTables } from './dump.js';
import { uploads } from '../../../src/server/storage/file-store.js';

/** A 1×1 PNG (a restore takes back only images QE stores), with bytes of its own after it. */
const LOGO = Buffer.concat([Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64'), Buffer.from('the logo')]);
const read = async (t: TestApp, path: string) => {
  const stream = await uploads(t.db, t.config).open(path);
  return stream && Buffer.concat(await stream.toArray());
};


describe('backup archive', () => {
  let t: TestApp;
  let archive: string;
  beforeAll(async () => {
    t = await testApp({ demo: true });
    // the file store: the storage folder on SQLite, the database on PostgreSQL
    await uploads(t.db, t.config).write('images/logo.png', LOGO);
    mkdirSync(join(t.config.dataDir, 'backups'), { recursive: true });
    archive = join(t.config.dataDir, 'backups', 'qe-20261124-010203.qe.zip');
  });
  afterAll(async () => t?.close());

  it('knows every table of the database: archived, transient or derived (a new table cannot be left out unnoticed)', async () => {
    const { rows } = isPostgres(t.db)
      ? await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(t.db)
      : await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(t.db);
    const known = new Set<string>([...ARCHIVED_TABLES, ...TRANSIENT_TABLES, ...DERIVED_TABLES, ...STORE_TABLES, ...INSTANCE_TABLES]);
    expect(rows.map((r) => r.name).filter((name) => !name.startsWith('kysely_migration') && !known.has(name))).toEqual([]);
  });

  it('round-trips the demo school: every table and file back as it was, sessions ended', async () => {
    const before = await dumpTables(t.db);
    const manifest = await writeBackup(t.config, archive);
    expect(manifest.tables.users).toBe(before.users.length);
    expect(manifest.files).toBe(1);
    const { tk } = await login(t.app, 'teacher01');
    // changes after the backup: undone by the restore
    await t.db.updateTable('users').set({ name_en: 'Changed' }).where('username', '=', 'teacher02').execute();
    await uploads(t.db, t.config).write('images/new.png', LOGO);
    const result = await restoreArchive(t.db, t.config, archive);
    expect(result.rows).toBe(Object.values(manifest.tables).reduce((a, b) => a + b, 0));
    expect(await dumpTables(t.db)).toEqual(before);
    expect(await read(t, 'images/logo.png')).toEqual(LOGO);
    expect(await read(t, 'images/new.png')).toBeNull();
    const res = await t.app.inject({ method: 'GET', url: '/v1/my/user-info', headers: { authorization: `Bearer ${tk}` } });
    expect(res.json().code).not.toBe(200);
    await login(t.app, 'teacher01');
  });

  it('refuses a changed byte, a cut-short file and a foreign file, leaving the data as it was', async () => {
    const before = await dumpTables(t.db);
    const bytes = readFileSync(archive);
    const cut = join(t.config.dataDir, 'cut.zip');
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    const foreign = join(t.config.dataDir, 'foreign.zip');
    writeFileSync(foreign, 'hello, not an archive');
    for (const [file, reason] of [[cut, 'corrupt'], [foreign, 'foreign']] as const) {
      const error = await restoreArchive(t.db, t.config, file).catch((e) => e);
      expect(error, file).toBeInstanceOf(ArchiveRefused);
      expect((error as ArchiveRefused).reason, file).toBe(reason);
    }
    expect(await dumpTables(t.db)).toEqual(before);
  });

  it('encrypts with a passphrase: refused without it or with another, restored with it', async () => {
    const sealed = join(t.config.dataDir, 'backups', 'qe-20261124-010204.qe.zip');
    await writeBackup(t.config, sealed, { passphrase: 'correct horse battery' });
    expect(readFileSync(sealed).subarray(0, 8).toString()).toBe('QEBACKUP');
    await expect(openArchive(sealed)).rejects.toMatchObject({ reason: 'passphraseNeeded' });
    await expect(openArchive(sealed, 'wrong horse battery')).rejects.toMatchObject({ reason: 'passphrase' });
    const opened = await openArchive(sealed, 'correct horse battery');
    expect(opened.encrypted).toBe(true);
    opened.close();
  });
});

describe('anonymity in the archive', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp({ demo: true });
  });
  afterAll(async () => t?.close());

  it('writes replies and their answer rows in the order of their random ids, which says nothing of when they came', async () => {
    const { seedDemoQuestionnaires } = await import('../../../src/server/demo/questionnaires.js');
    await seedDemoQuestionnaires(t.db, t.config.anonymousMinGroup);
    const { unzipSync } = await import('fflate');
    const byId = (await t.db.selectFrom('replies').select('id').orderBy('id').execute()).map((r) => r.id);
    expect(byId.length).toBeGreaterThan(20);
    // v4 UUIDs: 122 random bits, nothing of the time they were given
    for (const id of byId) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const orders: string[][] = [];
    for (const n of [1, 2]) {
      const file = join(t.config.dataDir, `qe-20261124-01020${n}.qe.zip`);
      await writeBackup(t.config, file);
      const entries = unzipSync(new Uint8Array(readFileSync(file)));
      orders.push(new TextDecoder().decode(entries['tables/replies.jsonl']).trim().split('\n').map((l) => (JSON.parse(l) as { id: string }).id));
      const answerReplies = new TextDecoder().decode(entries['tables/reply_answers.jsonl']).trim().split('\n').map((l) => (JSON.parse(l) as { reply_id: string }).reply_id);
      // answer rows follow the same random ids, a reply's rows together
      expect([...new Set(answerReplies)]).toEqual(byId.filter((id) => answerReplies.includes(id)));
    }
    expect(orders[0]).toEqual(byId);
    expect(orders[1]).toEqual(orders[0]);
  });
});

describe('archives of another level, or changed inside', () => {
  let t: TestApp;
  let archive: string;
  beforeAll(async () => {
    t = await testApp({ demo: true });
    archive = join(t.config.dataDir, 'qe-20261124-030303.qe.zip');
    await writeBackup(t.config, archive);
  });
  afterAll(async () => t?.close());

  /** The archive unpacked, changed by `edit`, packed again (valid zip, CRCs right): only the manifest's checksums can tell. */
  async function repacked(edit: (entries: Record<string, Uint8Array>) => void): Promise<string> {
    const { unzipSync, zipSync } = await import('fflate');
    const entries = unzipSync(new Uint8Array(readFileSync(archive)));
    edit(entries);
    const out = join(t.config.dataDir, `changed-${Math.random().toString(16).slice(2)}.zip`);
    writeFileSync(out, zipSync(entries));
    return out;
  }
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  const bytes = (s: string) => new TextEncoder().encode(s);

  it('refuses a table changed inside a valid zip (the checksum), and a row added (the count)', async () => {
    const before = await dumpTables(t.db);
    const renamed = await repacked((e) => {
      e['tables/users.jsonl'] = bytes(text(e['tables/users.jsonl']).replace('"teacher01"', '"intruder"'));
    });
    await expect(restoreArchive(t.db, t.config, renamed)).rejects.toMatchObject({ reason: 'tampered', detail: expect.stringContaining('tables/users.jsonl') });
    const added = await repacked((e) => {
      const manifest = JSON.parse(text(e['manifest.json']));
      e['tables/positions.jsonl'] = bytes(`${text(e['tables/positions.jsonl'])}{"id":999,"code":"X","name_hk":"X","name_en":"X","seq":9}\n`);
      manifest.sha256['tables/positions.jsonl'] = createHash('sha256').update(e['tables/positions.jsonl']).digest('hex');
      e['manifest.json'] = bytes(JSON.stringify(manifest));
    });
    await expect(restoreArchive(t.db, t.config, added)).rejects.toMatchObject({ reason: 'tampered', detail: expect.stringContaining('positions') });
    const stray = await repacked((e) => {
      e['../../outside.txt'] = bytes('x');
    });
    await expect(restoreArchive(t.db, t.config, stray)).rejects.toMatchObject({ reason: 'foreign' });
    expect(await dumpTables(t.db)).toEqual(before);
  });

  it('refuses an archive of a newer QE (a migration it does not know), the data untouched', async () => {
    const before = await dumpTables(t.db);
    const newer = await repacked((e) => {
      const manifest = JSON.parse(text(e['manifest.json']));
      manifest.migrations.push('0999_from_the_future');
      e['manifest.json'] = bytes(JSON.stringify(manifest));
    });
    await expect(restoreArchive(t.db, t.config, newer)).rejects.toMatchObject({ reason: 'newer', detail: '0999_from_the_future' });
    expect(await dumpTables(t.db)).toEqual(before);
  });

  it('restores an archive of an older level, migrated forward', async () => {
    const { createTestDatabase } = await import('../../support/database.js');
    const { createDb } = await import('../../../src/server/db/connect.js');
    const { migrateTo } = await import('../../../src/server/db/migrate.js');
    const older = await createTestDatabase();
    const config = testConfig(older);
    const db = createDb(config);
    try {
      await migrateTo(db, '0014_defaults_that_stick');
      await db.insertInto('school').values({ name_hk: '舊校', name_en: 'Old School', languages: '[]', created_at: '2026-01-01T00:00:00.000Z' } as never).execute();
      await db.insertInto('positions').values({ code: 'OLD', name_hk: '舊職位', name_en: 'Old position', seq: 1 } as never).execute();
      await db.destroy();
      const file = join(older.dataDir, 'old.qe.zip');
      const manifest = await writeBackup(config, file);
      expect(manifest.migrations).not.toContain('0015_backups');
      await restoreArchive(t.db, t.config, file);
      expect(await t.db.selectFrom('school').select(['name_en', 'backup_every_hours', 'backup_keep']).execute()).toEqual([{ name_en: 'Old School', backup_every_hours: 0, backup_keep: 7 }]);
      expect((await t.db.selectFrom('positions').select('code').execute()).map((p) => p.code)).toEqual(['OLD']);
    } finally {
      await db.destroy().catch(() => undefined);
      await older.drop();
    }
  });
});

describe('the tables of an added master-data entity', () => {
  const roomSchema = JSON.parse(readFileSync(join(process.cwd(), 'tests/fixtures/schemas/room.json'), 'utf8')) as EntitySchema;
  const entity = (key: string, schema: EntitySchema): MasterEntity => ({ key, schema, create: schema, update: schema, meta: schema['x-qe']! });

  it('every table of the schemas in schemas/ is archived: the core list names them all today', () => {
    expect(MASTER_TABLES).toEqual([]);
    for (const e of Object.values(masterEntities)) expect(ARCHIVED_TABLES).toContain(e.meta.table);
  });

  it('an entity the core list does not name is archived from its schema, after the core tables, its own table before the rows that hang on it', () => {
    const room = entity('room', roomSchema);
    const wing: EntitySchema = {
      ...roomSchema,
      properties: {
        ...roomSchema.properties,
        doors: { type: 'array', 'x-qe': { children: { table: 'wing_doors', foreignKey: 'wing_id', orderBy: 'seq' } } },
        keyHolders: { type: 'array', 'x-qe': { links: { table: 'wing_key_holders', ownerColumn: 'wing_id', valueColumn: 'user_id', resource: 'teachers', label: 'nameHk' } } },
        cleaner: { type: 'integer', 'x-qe': { yearly: { table: 'wing_cleaners', ownerColumn: 'wing_id', yearColumn: 'school_year_id', column: 'user_id' } } },
      },
      'x-qe': { ...roomSchema['x-qe']!, table: 'wings' },
    };
    const tables = masterTablesBeyond(CORE_TABLES, [...Object.values(masterEntities), room, entity('wing', wing)]);
    expect(tables).toEqual(['rooms', 'wings', 'wing_doors', 'wing_key_holders', 'wing_cleaners']);
  });
});
