import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBackup } from '../../../src/server/backup/write.js';
import { openArchive } from '../../../src/server/backup/read.js';
import { IV_BYTES, KEY_CHECK_BYTES, SALT_BYTES, SEALED_MAGIC } from '../../../src/server/backup/format.js';
import { PASSPHRASE_GUESSES } from '../../../src/server/backup/passphrase-guesses.js';
import { ERRORS } from '../../../src/shared/errors.js';
import { fileStore } from '../../../src/server/storage/file-store.js';
import { bearer, login, testApp, type TestApp } from '../harness.js';
import { dumpTables } from '../backup/dump.js';
import { multipart } from '../master/helpers.js';
import { seededRandom } from '../../support/random.js';
import { isEnvelope } from './fuzz-support.js';
import { repeatedMember, zipArchive } from './files-archives.js';

const text = (b: Uint8Array) => new TextDecoder().decode(b);
const bytes = (s: string) => new TextEncoder().encode(s);

// An administrator tricked into restoring a prepared file. Every crafted archive is
// refused with a message that names the problem (never a 500), the live data untouched.
describe('hostile archives', () => {
  let t: TestApp;
  let tk: string;
  let own: string;
  let backups: string;
  let n = 0;
  const call = (method: 'GET' | 'POST', url: string, payload?: unknown) => t.app.inject({ method, url, payload: payload as never, headers: { ...bearer(tk), 'accept-language': 'en' } });

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    tk = (await login(t.app, 'superadmin')).tk;
    backups = join(t.config.dataDir, 'backups');
    mkdirSync(backups, { recursive: true });
    own = join(backups, 'qe-20261124-010203.qe.zip');
    await writeBackup(t.config, own);
  });
  afterAll(async () => t?.close());

  /** A file in the list under an archive's name (the backups' folder on SQLite, the database on PostgreSQL). */
  async function listed(content: Buffer | Uint8Array): Promise<string> {
    const name = `qe-20261125-0000${String(n++).padStart(2, '0')}.qe.zip`;
    await fileStore(t.db, t.config, 'backups').write(name, Buffer.from(content));
    return name;
  }

  /** This QE's archive unpacked, changed by `edit`, packed again with the manifest's checksums and counts made right (as an attacker would). */
  async function edited(edit: (entries: Record<string, Uint8Array>) => void): Promise<Uint8Array> {
    const { unzipSync, zipSync } = await import('fflate');
    const entries = unzipSync(new Uint8Array(readFileSync(own)));
    edit(entries);
    const manifest = JSON.parse(text(entries['manifest.json']));
    manifest.sha256 = {};
    for (const [name, data] of Object.entries(entries)) {
      if (name === 'manifest.json') continue;
      manifest.sha256[name] = createHash('sha256').update(data).digest('hex');
      const table = /^tables\/(.+)\.jsonl$/.exec(name)?.[1];
      if (table) manifest.tables[table] = text(data).split('\n').filter(Boolean).length;
    }
    entries['manifest.json'] = bytes(JSON.stringify(manifest));
    return zipSync(entries);
  }
  const editRows = (entries: Record<string, Uint8Array>, table: string, change: (row: Record<string, unknown>, i: number) => Record<string, unknown>) => {
    const rows = text(entries[`tables/${table}.jsonl`]).split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    entries[`tables/${table}.jsonl`] = bytes(rows.map((r, i) => `${JSON.stringify(change(r, i))}\n`).join(''));
  };
  const restore = (name: string, more: object = {}) => call('POST', `/v1/backups/${name}/restore`, { confirm: name, ...more });

  it('refuses an edited archive that makes a teacher super administrator (765 unless the school is typed; 766 where it breaks a rule), the data untouched', async () => {
    const before = await dumpTables(t.db);
    // every rule kept: only its signature tells it is not this QE's own
    const name = await listed(await edited((e) => editRows(e, 'users', (r) => (r.username === 'teacher01' ? { ...r, user_type: 'SUPER_ADMIN', user_no: 'SUPERADMIN-2' } : r))));
    const school = (await t.db.selectFrom('school').select('name_hk').executeTakeFirstOrThrow()).name_hk;
    const unsigned = await restore(name);
    expect(unsigned.json(), unsigned.body).toMatchObject({ code: ERRORS.BACKUP_SCHOOL_CONFIRM.code, data: { school } });
    const uncoded = await listed(await edited((e) => editRows(e, 'users', (r) => (r.username === 'teacher01' ? { ...r, user_type: 'SUPER_ADMIN', user_no: null } : r))));
    const res = await restore(uncoded, { school });
    expect(res.json(), res.body).toMatchObject({ code: ERRORS.BACKUP_CONTENT_REFUSED.code, msg: expect.stringContaining('users') });
    const promoted = await listed(await edited((e) => editRows(e, 'users', (r) => (r.username === 'teacher01' ? { ...r, user_type: 'OWNER' } : r))));
    expect((await restore(promoted, { school })).json()).toMatchObject({ code: ERRORS.BACKUP_CONTENT_REFUSED.code, msg: expect.stringContaining('user_type') });
    const odd = await listed(await edited((e) => editRows(e, 'roles', (r, i) => (i === 0 ? { ...r, user_type: 'GOD' } : r))));
    expect((await restore(odd)).json()).toMatchObject({ code: ERRORS.BACKUP_CONTENT_REFUSED.code, msg: expect.stringContaining('roles') });
    const dangling = await listed(await edited((e) => editRows(e, 'user_roles', (r, i) => (i === 0 ? { ...r, role_id: 987654 } : r))));
    expect((await restore(dangling)).json()).toMatchObject({ code: ERRORS.BACKUP_CONTENT_REFUSED.code, msg: expect.stringContaining('user_roles') });
    expect(await dumpTables(t.db)).toEqual(before);
  });

  it('refuses an unknown column, an object where a value belongs and a file and a folder of one name — never a 500', async () => {
    const before = await dumpTables(t.db);
    const column = await listed(await edited((e) => editRows(e, 'positions', (r, i) => (i === 0 ? { ...r, is_admin: 1 } : r))));
    expect((await restore(column)).json()).toMatchObject({ code: ERRORS.BACKUP_CONTENT_REFUSED.code, msg: expect.stringContaining('is_admin') });
    const object = await listed(await edited((e) => editRows(e, 'positions', (r, i) => (i === 0 ? { ...r, name_en: { $gt: '' } } : r))));
    expect((await restore(object)).json()).toMatchObject({ code: ERRORS.BACKUP_CONTENT_REFUSED.code, msg: expect.stringContaining('name_en') });
    const clash = await listed(await edited((e) => {
      e['files/images/a'] = bytes('a file');
      e['files/images/a/b.png'] = bytes('a file inside a folder of the same name');
    }));
    expect((await restore(clash)).json()).toMatchObject({ code: ERRORS.BACKUP_CORRUPT.code });
    expect(await dumpTables(t.db)).toEqual(before);
  });

  it('answers a seeded fuzz of crafted rows and names with a refusal, never a 500', { timeout: 120_000 }, async () => {
    const before = await dumpTables(t.db);
    const r = seededRandom(39);
    const strange: unknown[] = [null, -1, 0, 2 ** 53, 1.5, '', 'x'.repeat(300), '\u0000', '../../etc', { a: 1 }, [1], true, '1e309', 'SUPER_ADMIN', "'; drop table users; --"];
    const tables = ['users', 'roles', 'user_roles', 'role_actions', 'positions', 'school', 'classes', 'student_classes'];
    const started = Date.now();
    for (let i = 0; i < 24 && Date.now() - started < 60_000; i++) {
      const table = tables[r.int(0, tables.length - 1)];
      const value = strange[r.int(0, strange.length - 1)];
      const kind = r.int(0, 3);
      const name = await listed(await edited((e) => {
        if (kind === 3) {
          e[`files/${['a', 'a/b', '.x', 'a..b'][r.int(0, 3)]}`] = bytes('x');
          return;
        }
        editRows(e, table, (row, j) => {
          if (j !== 0) return row;
          const keys = Object.keys(row);
          const key = keys[r.int(0, keys.length - 1)];
          // a change that changes nothing would be this QE's own archive, rightly restored
          if (kind === 0 && JSON.stringify(row[key]) !== JSON.stringify(value)) return { ...row, [key]: value };
          if (kind === 0) return { ...row, xx: value };
          if (kind === 1) return { ...row, [`x${r.int(0, 9)}`]: value };
          const { [keys[r.int(0, keys.length - 1)]]: _gone, ...rest } = row;
          return rest;
        });
      }));
      const res = await restore(name);
      expect(res.statusCode, `${table} ${kind} ${JSON.stringify(value)}: ${res.body}`).toBeLessThan(500);
      expect(isEnvelope(res.body)).toBe(true);
      expect([ERRORS.BACKUP_CONTENT_REFUSED.code, ERRORS.BACKUP_CORRUPT.code, ERRORS.BACKUP_FOREIGN.code, ERRORS.BACKUP_SCHOOL_CONFIRM.code], `${table} ${kind} ${JSON.stringify(value)}: ${res.body}`).toContain(res.json().code);
    }
    expect(await dumpTables(t.db)).toEqual(before);
  });

  it("asks for the school's name to restore another QE's archive (765), and restores it once typed", async () => {
    const school = await t.db.selectFrom('school').select(['name_hk', 'name_en']).executeTakeFirstOrThrow();
    const file = join(t.config.dataDir, 'other.qe.zip');
    await writeBackup({ ...t.config, secret: 'another school server secret, long enough 0123456789' }, file);
    const name = await listed(readFileSync(file));
    const refused = await restore(name);
    expect(refused.json()).toMatchObject({ code: ERRORS.BACKUP_SCHOOL_CONFIRM.code, data: { school: school.name_hk } });
    expect(refused.json().msg).toContain(school.name_hk);
    expect((await restore(name, { school: 'Not the name' })).json().code).toBe(ERRORS.BACKUP_SCHOOL_CONFIRM.code);
    // this QE's own archive of this school needs no name
    expect((await restore(await listed(readFileSync(own)))).json()).toMatchObject({ code: 200 });
    tk = (await login(t.app, 'superadmin')).tk;
    expect((await restore(name, { school: ` ${school.name_en} ` })).json()).toMatchObject({ code: 200 });
    tk = (await login(t.app, 'superadmin')).tk;
  });

  it('refuses a 2 MiB archive that unpacks to 2 GiB within 5 s (767), the server answering meanwhile; one check at a time (769)', { timeout: 60_000 }, async () => {
    // 32768 blocks of 64 KiB of one byte: about 2 MiB packed
    const bomb = zipArchive([repeatedMember('files/images/big.png', '', 'A'.repeat(64 * 1024), 32 * 1024, '')]);
    expect(bomb.length).toBeLessThan(3 * 2 ** 20);
    const { payload, headers } = multipart('school.zip', bomb);
    const light: number[] = [];
    let checking = true;
    const pinger = (async () => {
      while (checking) {
        const at = performance.now();
        await t.app.inject({ method: 'GET', url: '/v1/school-info' });
        light.push(performance.now() - at);
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    const at = performance.now();
    const res = await t.app.inject({ method: 'POST', url: '/v1/backups/upload', payload, headers: { ...headers, ...bearer(tk), 'accept-language': 'en' } });
    const took = performance.now() - at;
    checking = false;
    await pinger;
    expect(res.json(), res.body).toMatchObject({ code: ERRORS.BACKUP_EXPANDS.code });
    expect(took).toBeLessThan(5_000);
    light.sort((a, b) => a - b);
    expect(light[Math.floor(light.length * 0.99)] ?? 0).toBeLessThanOrEqual(500);
    expect(readdirSync(t.config.dataDir).filter((f) => f.endsWith('.part'))).toEqual([]);

    // a second check while one runs is told to wait
    const path = join(t.config.dataDir, 'bomb.zip');
    writeFileSync(path, bomb);
    const first = openArchive(path).catch((e: unknown) => e);
    const second = await openArchive(path).catch((e: unknown) => e);
    expect(second).toMatchObject({ reason: 'checking' });
    expect(await first).toMatchObject({ reason: 'expands' });
  });

  it('tells a wrong passphrase by the key check before decrypting anything, still restores an archive sealed before the check, and limits guesses (768)', { timeout: 120_000 }, async () => {
    const sealedFile = join(t.config.dataDir, 'sealed.qe.zip');
    await writeBackup(t.config, sealedFile, { passphrase: 'the right one' });
    const name = await listed(readFileSync(sealedFile));
    const opened: string[] = [];
    // the archive is read where it lies (SQLite) or from a copy in the data folder (PostgreSQL)
    const watchers = [backups, t.config.dataDir].map((dir) =>
      watch(dir, (_event, file) => {
        if (file && String(file).endsWith('.open')) opened.push(String(file));
      }),
    );
    try {
      const wrong = await restore(name, { passphrase: 'a wrong guess' });
      expect(wrong.json().code).toBe(ERRORS.BACKUP_PASSPHRASE.code);
      await new Promise((r) => setTimeout(r, 100));
      expect(opened).toEqual([]);
    } finally {
      for (const watcher of watchers) watcher.close();
    }

    // sealed before the key check: the same ciphertext, without the check, under the former header
    const sealed = readFileSync(sealedFile);
    const head = SEALED_MAGIC.length + SALT_BYTES + IV_BYTES;
    const older = Buffer.concat([SEALED_MAGIC, sealed.subarray(SEALED_MAGIC.length, head), sealed.subarray(head + KEY_CHECK_BYTES)]);
    const olderName = await listed(older);
    expect((await restore(olderName, { passphrase: 'a wrong guess' })).json().code).toBe(ERRORS.BACKUP_PASSPHRASE.code);
    expect((await restore(olderName, { passphrase: 'the right one' })).json(), 'an archive sealed before the key check').toMatchObject({ code: 200 });
    tk = (await login(t.app, 'superadmin')).tk;

    // the right passphrase took the count back: now PASSPHRASE_GUESSES.perUser wrong ones, then refused
    for (let i = 0; i < PASSPHRASE_GUESSES.perUser; i++) expect((await restore(name, { passphrase: `wrong guess ${i}` })).json().code).toBe(ERRORS.BACKUP_PASSPHRASE.code);
    const limited = await restore(name, { passphrase: 'the right one' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: ERRORS.BACKUP_GUESSES_LIMITED.code });
    expect(limited.json().msg).toMatch(/\d+ minutes/);
    expect(await fileStore(t.db, t.config, 'backups').stat(name)).not.toBeNull();
  });
});
