import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, errorText } from '../../../src/shared/errors.js';
import { BackupService } from '../../../src/server/backup/service.js';
import { bearer, login, testApp, type TestApp } from '../harness.js';
import { multipart } from '../master/helpers.js';

/**
 * Backup and restore through the API as the super administrator's screen uses it: a backup
 * made while QE serves, its progress, the list, download, upload, the strong confirmation, the
 * restore (sessions ended, the data of the archive back), refusals that name the problem and
 * leave the data alone, and the schedule claimed by exactly one of two instances.
 */
describe('backups through the API', () => {
  let t: TestApp;
  let tk: string;
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, token = tk) => t.app.inject({ method, url, payload: payload as never, headers: { ...bearer(token), 'accept-language': 'en' } });
  const teacherName = async () => (await t.db.selectFrom('users').select('name_en').where('username', '=', 'teacher03').executeTakeFirstOrThrow()).name_en;

  async function backup(body: object = {}): Promise<string> {
    const started = await call('POST', '/v1/backups', body);
    expect(started.statusCode, started.body).toBe(202);
    const job = started.json().data;
    expect(job).toMatchObject({ kind: 'backup', state: 'running' });
    for (;;) {
      const now = (await call('GET', '/v1/backups/job')).json().data;
      if (now.state !== 'running') {
        expect(now).toMatchObject({ id: job.id, state: 'done', name: job.name, error: null });
        expect(now.done).toBe(now.total);
        return now.name;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  beforeAll(async () => {
    t = await testApp({ demo: true });
    tk = (await login(t.app, 'superadmin')).tk;
  });
  afterAll(async () => t?.close());

  it('makes a backup while serving, lists it with who made it, downloads and deletes it', async () => {
    const name = await backup();
    const list = (await call('GET', '/v1/backups')).json().data;
    expect(list.list[0]).toMatchObject({ name, scheduled: false, uploaded: false, encrypted: false, createdBy: { name: expect.any(String) } });
    expect(list.list[0].size).toBeGreaterThan(1000);
    expect(list.schedule).toEqual({ everyHours: 0, keep: 7 });
    const file = await call('GET', `/v1/backups/${name}/download`);
    expect(file.headers['content-type']).toBe('application/zip');
    expect(file.headers['content-disposition']).toBe(`attachment; filename="${name}"`);
    expect(file.rawPayload.subarray(0, 2).toString()).toBe('PK');
    expect((await call('DELETE', `/v1/backups/${name}`)).json().code).toBe(200);
    expect((await call('GET', `/v1/backups/${name}/download`)).json().code).toBe(ERRORS.BACKUP_NOT_FOUND.code);
  });

  it('names no path: anything but an archive name is refused before the disk is touched', async () => {
    for (const name of ['..%2F..%2Fqe.sqlite', 'qe.sqlite', '%2Fetc%2Fpasswd', 'qe-20260101-000000.qe.zip%00.txt']) {
      const res = await call('GET', `/v1/backups/${name}/download`);
      expect([400, 404, 422], name).toContain(res.statusCode);
      expect(res.headers['content-type'], name).toMatch(/json/);
    }
  });

  it('restores an uploaded archive after the strong confirmation: the data of the archive back, every session ended', async () => {
    const before = await teacherName();
    const name = await backup();
    const archive = (await call('GET', `/v1/backups/${name}/download`)).rawPayload;
    await t.db.updateTable('users').set({ name_en: 'Renamed after the backup' }).where('username', '=', 'teacher03').execute();
    const teacher = (await login(t.app, 'teacher03')).tk;

    const { payload, headers } = multipart('school.zip', archive);
    const up = await t.app.inject({ method: 'POST', url: '/v1/backups/upload', payload, headers: { ...headers, ...bearer(tk) } });
    expect(up.statusCode, up.body).toBe(201);
    const uploaded = up.json().data;
    expect(uploaded).toMatchObject({ uploaded: true, encrypted: false });

    const unconfirmed = await call('POST', `/v1/backups/${uploaded.name}/restore`, { confirm: 'yes' });
    expect(unconfirmed.json()).toMatchObject({ code: ERRORS.BACKUP_CONFIRM.code, msg: errorText('BACKUP_CONFIRM', 'en') });
    expect(await teacherName()).toBe('Renamed after the backup');

    const restored = await call('POST', `/v1/backups/${uploaded.name}/restore`, { confirm: uploaded.name });
    expect(restored.json()).toMatchObject({ code: 200, data: { rows: expect.any(Number) } });
    expect(await teacherName()).toBe(before);
    for (const token of [tk, teacher]) expect([401, 444]).toContain((await call('GET', '/v1/my/user-info', undefined, token)).json().code);
    tk = (await login(t.app, 'superadmin')).tk;
  });

  it('refuses a foreign or cut-short upload with a message that names the problem, and an encrypted archive without its passphrase', async () => {
    const foreign = multipart('notes.zip', Buffer.from('PK\u0003\u0004 but nothing else'));
    const f = await t.app.inject({ method: 'POST', url: '/v1/backups/upload', payload: foreign.payload, headers: { ...foreign.headers, ...bearer(tk), 'accept-language': 'en' } });
    expect([ERRORS.BACKUP_CORRUPT.code, ERRORS.BACKUP_FOREIGN.code]).toContain(f.json().code);
    const text = multipart('notes.zip', Buffer.from('just text'));
    expect((await t.app.inject({ method: 'POST', url: '/v1/backups/upload', payload: text.payload, headers: { ...text.headers, ...bearer(tk), 'accept-language': 'en' } })).json()).toMatchObject({ code: ERRORS.BACKUP_FOREIGN.code, msg: errorText('BACKUP_FOREIGN', 'en') });

    const name = await backup();
    const whole = (await call('GET', `/v1/backups/${name}/download`)).rawPayload;
    const cut = multipart('cut.zip', whole.subarray(0, Math.floor(whole.length / 2)));
    const c = await t.app.inject({ method: 'POST', url: '/v1/backups/upload', payload: cut.payload, headers: { ...cut.headers, ...bearer(tk), 'accept-language': 'en' } });
    expect(c.json().code).toBe(ERRORS.BACKUP_CORRUPT.code);
    expect(c.json().msg).toMatch(/damaged or incomplete \(.+\); the current data is unchanged/);

    const sealed = await backup({ passphrase: 'a long school passphrase' });
    expect((await call('GET', '/v1/backups')).json().data.list.find((b: { name: string }) => b.name === sealed).encrypted).toBe(true);
    expect((await call('POST', `/v1/backups/${sealed}/restore`, { confirm: sealed })).json().code).toBe(ERRORS.BACKUP_PASSPHRASE_NEEDED.code);
    expect((await call('POST', `/v1/backups/${sealed}/restore`, { confirm: sealed, passphrase: 'not the passphrase' })).json().code).toBe(ERRORS.BACKUP_PASSPHRASE.code);
    expect((await call('POST', '/v1/backups', { passphrase: 'short' })).statusCode).toBe(422);
  });

  it('runs a due scheduled backup on exactly one of two instances, and keeps the newest few', async () => {
    expect((await call('PUT', '/v1/backups/schedule', { everyHours: 1, keep: 2 })).json().data).toEqual({ everyHours: 1, keep: 2 });
    const a = new BackupService(t.db, t.config);
    const b = new BackupService(t.db, t.config);
    const made = await Promise.all([a.runDue(), b.runDue()]);
    expect(made.filter(Boolean)).toHaveLength(1);
    // not due again within the hour
    expect(await a.runDue()).toBe(false);
    const later = (hours: number) => new Date(Date.now() + hours * 3_600_000);
    expect(await a.runDue(later(1.5))).toBe(true);
    expect(await b.runDue(later(3))).toBe(true);
    const scheduled = (await a.list()).filter((x) => x.scheduled);
    expect(scheduled).toHaveLength(2);
  });
});
