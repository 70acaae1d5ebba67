import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateTo, migrateToLatest } from '../../../src/server/db/migrate.js';
import { errorText } from '../../../src/shared/errors.js';
import { bearer, login, testApp, type TestApp } from '../harness.js';
import { caller, multipart } from '../master/helpers.js';

// The super administrator made at first run (/qe/init) is a record of the administrators' list,
// edited there like the others; an administrator may see it but not change it, and a database
// set up before that gets the record when QE is upgraded.

const FIRST = {
  schoolNameHk: '測試中學',
  schoolNameEn: 'Test Secondary School',
  username: 'principal',
  password: 'Fir5tPass',
  nameHk: '陳校長',
  nameEn: 'Principal Chan',
  email: 'principal@test.school',
};

type Admin = { id: number; code: string; username: string; nameHk: string; nameEn: string; email: string | null; googleMail: string | null };

async function codesOfExport(body: Buffer): Promise<unknown[]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ArrayBuffer);
  const codes: unknown[] = [];
  workbook.worksheets[0].eachRow((row, n) => n > 1 && codes.push(row.getCell(1).value));
  return codes;
}

describe('the super administrator made at first run', () => {
  let t: TestApp;
  let superId: number;
  let asSuper: ReturnType<typeof caller>;

  beforeAll(async () => {
    t = await testApp();
    expect((await t.app.inject({ method: 'POST', url: '/v1/init', payload: FIRST })).json().code).toBe(201);
    const session = await login(t.app, FIRST.username, FIRST.password);
    superId = session.userId;
    asSuper = caller(t.app, session.tk);
  });
  afterAll(async () => t?.close());

  const admins = async (call = asSuper) => ((await call('GET', '/v1/admins')).json().data as { list: Admin[]; total: number });

  it('is in the administrators list, with a code and the names and e-mail given at first run', async () => {
    const { list, total } = await admins();
    expect(total).toBe(1);
    expect(list).toEqual([expect.objectContaining({ id: superId, code: 'SUPERADMIN', username: 'principal', nameHk: '陳校長', nameEn: 'Principal Chan', email: 'principal@test.school', googleMail: null })]);
    expect((await asSuper('GET', `/v1/admins/${superId}`)).json().data).toMatchObject({ id: superId, code: 'SUPERADMIN' });
  });

  it('is edited there (PUT /v1/admins/<id>): a Google address and a name; still a super administrator who logs in', async () => {
    const res = await asSuper('PUT', `/v1/admins/${superId}`, { googleMail: 'principal@test-school.example', nameEn: 'Dr Chan' });
    expect(res.json()).toMatchObject({ code: 200, data: { id: superId, googleMail: 'principal@test-school.example', nameEn: 'Dr Chan', code: 'SUPERADMIN' } });
    expect((await admins()).list[0]).toMatchObject({ googleMail: 'principal@test-school.example', nameEn: 'Dr Chan' });
    const again = await login(t.app, FIRST.username, FIRST.password);
    const info = (await caller(t.app, again.tk)('GET', '/v1/my/user-info')).json().data;
    expect(info).toMatchObject({ userType: 'SUPER_ADMIN', googleMail: 'principal@test-school.example', nameEn: 'Dr Chan' });
  });

  it('lets an administrator see the record but not change, reset or delete it (405); the administrator edits their own', async () => {
    const added = await asSuper('POST', '/v1/admins', { code: 'A001', username: 'office', password: 'Off1ce99', nameHk: '文員', nameEn: 'Office' });
    expect(added.json()).toMatchObject({ code: 201, data: { code: 'A001' } });
    const adminId = added.json().data.id as number;
    const type = await t.db.selectFrom('users').select('user_type').where('id', '=', adminId).executeTakeFirstOrThrow();
    expect(type.user_type).toBe('ADMIN');

    const asAdmin = caller(t.app, (await login(t.app, 'office', 'Off1ce99')).tk);
    expect((await admins(asAdmin)).list.map((a) => a.code)).toEqual(['A001', 'SUPERADMIN']);
    expect((await asAdmin('GET', `/v1/admins/${superId}`)).json().data.username).toBe('principal');

    const denied = { code: 405, msg: errorText('PERMISSION_DENIED', 'en'), data: null };
    for (const [method, url, body] of [
      ['PUT', `/v1/admins/${superId}`, { username: 'taken-over' }],
      ['PUT', `/v1/admins/${superId}/password`, { password: 'Tak3nOver' }],
      ['DELETE', `/v1/admins/${superId}`, undefined],
    ] as const) {
      const res = await asAdmin(method, url, body);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(denied);
    }
    // nothing changed: the super administrator logs in as before
    expect((await admins()).list.find((a) => a.id === superId)).toMatchObject({ username: 'principal', code: 'SUPERADMIN' });
    await login(t.app, FIRST.username, FIRST.password);

    expect((await asAdmin('PUT', `/v1/admins/${adminId}`, { googleMail: 'office@test-school.example' })).json()).toMatchObject({ code: 200, data: { googleMail: 'office@test-school.example' } });
    // and the super administrator edits the administrator
    expect((await asSuper('PUT', `/v1/admins/${adminId}`, { nameEn: 'School office' })).json()).toMatchObject({ code: 200, data: { nameEn: 'School office' } });
  });

  it('cannot be overwritten by an administrator’s import that names their code (a duplicate code, nothing written)', async () => {
    const { tk } = await login(t.app, 'office', 'Off1ce99');
    const template = await t.app.inject({ method: 'GET', url: '/v1/admins/import-template', headers: { ...bearer(tk), 'accept-language': 'en' } });
    const read = new ExcelJS.Workbook();
    await read.xlsx.load(template.rawPayload as unknown as ArrayBuffer);
    const header = (read.worksheets[0].getRow(1).values as unknown[]).slice(1).map(String);
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('admins');
    sheet.addRow(header);
    const row: Record<string, string> = { 'Staff code': 'SUPERADMIN', Account: 'taken-over', Password: 'Tak3nOver', 'Chinese name': '奪取', 'English name': 'Taken' };
    sheet.addRow(header.map((h) => row[h] ?? null));
    const { payload, headers } = multipart('admins.xlsx', Buffer.from(await workbook.xlsx.writeBuffer()));
    const res = await t.app.inject({ method: 'POST', url: '/v1/admins/import?existing=update', payload, headers: { ...headers, ...bearer(tk), 'accept-language': 'en' } });
    expect(res.json()).toMatchObject({ code: 706 });
    // the row is a new administrator whose code is taken, not an update of the super administrator
    expect(res.json().data).toEqual([expect.stringMatching(/^Row 2, .*"SUPERADMIN" is already in use/)]);
    expect((await admins()).list.find((a) => a.id === superId)).toMatchObject({ username: 'principal', code: 'SUPERADMIN' });
    await login(t.app, FIRST.username, FIRST.password);
  });

  it('is never deleted: not by themselves, and nobody else may (the last super administrator stays)', async () => {
    const res = await asSuper('DELETE', `/v1/admins/${superId}`);
    expect(res.json()).toMatchObject({ code: 405 });
    expect((await admins()).list.some((a) => a.id === superId)).toBe(true);
  });

  it('is left out of the Excel export (a sheet carries the administrators an import writes)', async () => {
    const res = await asSuper('GET', '/v1/admins/export');
    expect(res.statusCode).toBe(200);
    expect(await codesOfExport(res.rawPayload)).toEqual(['A001']);
  });
});

describe('a database set up at first run before the super administrator was a record', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await testApp();
    expect((await t.app.inject({ method: 'POST', url: '/v1/init', payload: FIRST })).json().code).toBe(201);
  });
  afterAll(async () => t?.close());

  it('gives the super administrator a free code when migrated, and the record is listed and editable', async () => {
    const asSuper = caller(t.app, (await login(t.app, FIRST.username, FIRST.password)).tk);
    const added = await asSuper('POST', '/v1/admins', { code: 'A001', username: 'office', password: 'Off1ce99', nameHk: '文員', nameEn: 'Office' });
    const adminId = added.json().data.id as number;

    // as the earlier QE left it: no code (and here an administrator holds the one it would get)
    await migrateTo(t.db, '0028_waiting_replies');
    const superAdmin = await t.db.selectFrom('users').select('id').where('user_type', '=', 'SUPER_ADMIN').executeTakeFirstOrThrow();
    await t.db.updateTable('users').set({ user_no: null }).where('id', '=', superAdmin.id).execute();
    await t.db.updateTable('users').set({ user_no: 'SUPERADMIN' }).where('id', '=', adminId).execute();

    expect(await migrateToLatest(t.db)).toContain('0029_super_admin_records');
    const { list } = (await asSuper('GET', '/v1/admins')).json().data as { list: Admin[] };
    expect(list.map((a) => [a.id, a.code])).toEqual([
      [adminId, 'SUPERADMIN'],
      [superAdmin.id, 'SUPERADMIN-2'],
    ]);
    const saved = await asSuper('PUT', `/v1/admins/${superAdmin.id}`, { code: 'P001', googleMail: 'principal@test-school.example' });
    expect(saved.json()).toMatchObject({ code: 200, data: { code: 'P001', googleMail: 'principal@test-school.example' } });
  });
});
