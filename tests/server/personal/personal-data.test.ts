import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { fieldLabel } from '../../../src/shared/master/labels.js';
import { seedPermissionModel } from '../../../src/server/developer/seed.js';
import { bearer, login, testApp, type TestApp } from '../harness.js';
import { caller, multipart } from '../master/helpers.js';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
const HKID = 'C668668(9)';
const HKID_PLAIN = 'c 668668 9';

/** Every text a test received, to check afterwards that no identity card number ever left the server. */
const seen: string[] = [];

describe('staff personal data: Personal / Apply / Approve', () => {
  let t: TestApp;
  let tokens: Record<string, string>;
  let ids: Record<string, number>;
  const as = (who: string) => {
    const call = caller(t.app, tokens[who]);
    return async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) => {
      const res = await call(method, url, payload);
      seen.push(res.body);
      return res;
    };
  };
  const upload = (who: string, name: string, content: Buffer) => {
    const { payload, headers } = multipart(name, content, 'image/png');
    return t.app.inject({ method: 'POST', url: '/v1/my/personal-data/avatar', payload, headers: { ...headers, ...bearer(tokens[who]) } });
  };

  beforeAll(async () => {
    t = await testApp({ demo: true });
    tokens = {};
    ids = {};
    for (const who of ['superadmin', 'admin', 'teacher01', 'teacher02', 'student001']) {
      const { tk, userId } = await login(t.app, who);
      tokens[who] = tk;
      ids[who] = userId;
    }
  });
  afterAll(async () => {
    // nothing answered, in any call of this file, holds the number in full
    for (const body of seen) {
      expect(body).not.toContain('668668');
      expect(body).not.toContain('K9876543');
    }
    await t?.close();
  });

  it('a teacher asks for a change: a request in WAITTING, the account unchanged until approved', async () => {
    const res = await as('teacher01')('POST', '/v1/my/personal-data', { tel: '+852 2123 4567', gender: 'F', birthday: '1985-04-02', identityCardType: 'HKID', identityCardNo: HKID });
    expect(res.json()).toMatchObject({ code: 201, data: { status: 'WAITTING' } });
    const mine = (await as('teacher01')('GET', '/v1/my/personal-data')).json().data;
    expect(mine.current).toMatchObject({ tel: null, birthday: null, identityCardId: null });
    expect(mine.request).toMatchObject({ status: 'WAITTING', values: { tel: '+852 2123 4567', gender: 'F', birthday: '1985-04-02', identityCardType: 'HKID', identityCardId: 'C668***(9)' }, reason: null });
    const info = (await as('teacher01')('GET', '/v1/my/user-info')).json().data;
    expect(info).toMatchObject({ tel: null, identityCardId: null, personalDataStatus: 'WAITTING' });
  });

  it('asking again while one waits replaces it; asking for nothing new is refused (730)', async () => {
    const again = await as('teacher01')('POST', '/v1/my/personal-data', { tel: '2123 4567', gender: 'F', birthday: '1985-04-02', identityCardType: 'HKID', identityCardNo: HKID_PLAIN });
    expect(again.json().code).toBe(201);
    // changed again without typing the number (the form never holds it): the waiting one's number stays
    const third = await as('teacher01')('POST', '/v1/my/personal-data', { tel: '2123 4567', gender: 'F', birthday: '1985-04-01', identityCardType: 'HKID' });
    expect(third.json().code).toBe(201);
    expect((await as('teacher01')('GET', '/v1/my/personal-data')).json().data.request.values).toMatchObject({ birthday: '1985-04-01', identityCardId: 'C668***(9)' });
    const queue = (await as('admin')('GET', '/v1/personal-data-requests')).json().data;
    expect(queue.list.filter((r: { userId: number }) => r.userId === ids.teacher01)).toHaveLength(1);
    const nothing = await as('teacher02')('POST', '/v1/my/personal-data', { tel: null });
    expect(nothing.json()).toMatchObject({ code: 730, msg: 'Nothing in the personal data has changed' });
  });

  it("the approver's queue shows the old and the new values, the card masked", async () => {
    const { list, total } = (await as('admin')('GET', '/v1/personal-data-requests')).json().data;
    expect(total).toBe(1);
    expect(list[0]).toMatchObject({
      status: 'WAITTING',
      userNo: 'T001',
      current: { tel: null, identityCardId: null },
      values: { tel: '2123 4567', gender: 'F', identityCardType: 'HKID', identityCardId: 'C668***(9)' },
    });
  });

  it('nobody approves their own request (732); a teacher without Approve is refused (405)', async () => {
    await as('admin')('POST', '/v1/my/personal-data', { tel: '3111 2222' });
    const own = (await as('admin')('GET', '/v1/personal-data-requests')).json().data.list.find((r: { userId: number }) => r.userId === ids.admin);
    const res = await as('admin')('POST', `/v1/personal-data-requests/${own.id}/confirm`);
    expect(res.json()).toMatchObject({ code: 732 });
    const rejectOwn = await as('admin')('POST', `/v1/personal-data-requests/${own.id}/reject`, { reason: 'no' });
    expect(rejectOwn.json().code).toBe(732);
    expect((await as('teacher02')('GET', '/v1/personal-data-requests')).json().code).toBe(405);
    expect((await as('teacher02')('POST', `/v1/personal-data-requests/${own.id}/confirm`)).json().code).toBe(405);
    // the super administrator may decide the administrator's request
    expect((await as('superadmin')('POST', `/v1/personal-data-requests/${own.id}/confirm`)).json()).toMatchObject({ code: 200, data: { status: 'CONFIRM' } });
  });

  it('confirming applies the values to the account, the number sealed at rest and masked in every answer', async () => {
    const [request] = (await as('admin')('GET', '/v1/personal-data-requests')).json().data.list;
    expect((await as('admin')('POST', `/v1/personal-data-requests/${request.id}/confirm`)).json()).toMatchObject({ code: 200, data: { status: 'CONFIRM' } });
    const info = (await as('teacher01')('GET', '/v1/my/user-info')).json().data;
    expect(info).toMatchObject({ tel: '2123 4567', gender: 'F', birthday: '1985-04-01', identityCardType: 'HKID', identityCardId: 'C668***(9)', personalDataStatus: 'CONFIRM' });
    const row = await t.db.selectFrom('users').selectAll().where('id', '=', ids.teacher01).executeTakeFirstOrThrow();
    expect(row.identity_card_no).toMatch(/^qe-sealed:v1:/);
    expect(row.identity_card_no).not.toContain('668668');
    const requests = await t.db.selectFrom('personal_data_requests').select('identity_card_no').execute();
    for (const r of requests) expect(r.identity_card_no ?? '').not.toContain('668668');
    // the database file holds no readable number either
    if (!process.env.DATABASE_URL) {
      for (const f of readdirSync(t.config.dataDir)) {
        const path = join(t.config.dataDir, f);
        if (statSync(path).isFile()) expect(readFileSync(path).includes(Buffer.from('C668668'))).toBe(false);
      }
    }
    // deciding it again is refused (731)
    expect((await as('superadmin')('POST', `/v1/personal-data-requests/${request.id}/confirm`)).json().code).toBe(731);
  });

  it('the teacher list, record and export show the number masked only', async () => {
    const list = (await as('admin')('GET', '/v1/teachers?q=T001')).json().data.list;
    expect(list[0]).toMatchObject({ code: 'T001', identityCardType: 'HKID', identityCardMasked: 'C668***(9)', tel: '2123 4567', gender: 'F' });
    expect(list[0]).not.toHaveProperty('identityCardNo');
    const one = (await as('admin')('GET', `/v1/teachers/${ids.teacher01}`)).json().data;
    expect(one.identityCardMasked).toBe('C668***(9)');
    const res = await t.app.inject({ method: 'GET', url: '/v1/teachers/export?q=T001', headers: { ...bearer(tokens.admin), 'accept-language': 'en' } });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const cells: string[] = [];
    workbook.worksheets[0].eachRow((r) => r.eachCell((c) => cells.push(String(c.value))));
    expect(cells).toContain('C668***(9)');
    expect(cells.join(' ')).not.toContain('668668');
    expect(cells).toContain(fieldLabel('teacher', 'identityCardMasked', 'en'));
  });

  it('rejecting records the reason and keeps the old values', async () => {
    await as('teacher01')('POST', '/v1/my/personal-data', { tel: '9999 0000' });
    const [request] = (await as('admin')('GET', '/v1/personal-data-requests')).json().data.list;
    const empty = await as('admin')('POST', `/v1/personal-data-requests/${request.id}/reject`, { reason: '' });
    expect(empty.statusCode).toBe(422);
    const res = await as('admin')('POST', `/v1/personal-data-requests/${request.id}/reject`, { reason: 'Please give your office number' });
    expect(res.json()).toMatchObject({ code: 200, data: { status: 'REJECT' } });
    const mine = (await as('teacher01')('GET', '/v1/my/personal-data')).json().data;
    expect(mine.current.tel).toBe('2123 4567');
    expect(mine.request).toMatchObject({ status: 'REJECT', reason: 'Please give your office number', values: { tel: '9999 0000' } });
    const rejected = (await as('admin')('GET', '/v1/personal-data-requests?status=REJECT')).json().data;
    expect(rejected.list[0]).toMatchObject({ status: 'REJECT', reason: 'Please give your office number' });
  });

  it('a request without a document type removes the document, its sealed number too', async () => {
    expect((await as('teacher01')('POST', '/v1/my/personal-data', { identityCardType: null })).json().code).toBe(201);
    const [request] = (await as('admin')('GET', '/v1/personal-data-requests')).json().data.list;
    expect(request.values).toMatchObject({ identityCardType: null, identityCardId: null });
    await as('admin')('POST', `/v1/personal-data-requests/${request.id}/confirm`);
    expect((await as('teacher01')('GET', '/v1/my/user-info')).json().data).toMatchObject({ identityCardType: null, identityCardId: null, tel: '2123 4567' });
    const row = await t.db.selectFrom('users').selectAll().where('id', '=', ids.teacher01).executeTakeFirstOrThrow();
    expect(row.identity_card_no).toBeNull();
  });

  it('refuses a wrong identity card number, a type without a number, and a birthday after today', async () => {
    const wrong = await as('teacher02')('POST', '/v1/my/personal-data', { identityCardType: 'HKID', identityCardNo: '12345' });
    expect(wrong.statusCode).toBe(422);
    expect(Object.keys(wrong.json().data)).toContain('identityCardNo');
    const noNumber = await as('teacher02')('POST', '/v1/my/personal-data', { identityCardType: 'PASSPORT' });
    expect(Object.keys(noNumber.json().data)).toContain('identityCardNo');
    const future = await as('teacher02')('POST', '/v1/my/personal-data', { birthday: '2999-01-01' });
    expect(Object.keys(future.json().data)).toContain('birthday');
  });

  it('an avatar is accepted by its bytes only, and must be one QE stored', async () => {
    const fake = await upload('teacher02', 'me.png', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'));
    expect(fake.json().code).toBe(716);
    const big = await upload('teacher02', 'big.png', Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]));
    expect(big.json().code).toBe(716);
    const good = await upload('teacher02', 'me.txt', PNG);
    const { path } = good.json().data;
    expect(path).toMatch(/^avatars\/[0-9a-f]{24}\.png$/);
    expect((await as('teacher02')('POST', '/v1/my/personal-data', { avatar: 'avatars/000000000000000000000000.png' })).json().code).toBe(734);
    expect((await as('teacher02')('POST', '/v1/my/personal-data', { avatar: '../secret.key' })).json().code).toBe(734);
    expect((await as('teacher02')('POST', '/v1/my/personal-data', { avatar: path })).json().code).toBe(201);
    const [request] = (await as('admin')('GET', '/v1/personal-data-requests')).json().data.list;
    await as('admin')('POST', `/v1/personal-data-requests/${request.id}/confirm`);
    expect((await as('teacher02')('GET', '/v1/my/user-info')).json().data.avatar).toBe(path);
    const served = await t.app.inject({ method: 'GET', url: `/qe/storage/${path}` });
    expect(served.statusCode).toBe(200);
  });

  it('students and callers without Personal or Apply are refused', async () => {
    expect((await as('student001')('GET', '/v1/my/personal-data')).json().code).toBe(405);
    expect((await as('student001')('POST', '/v1/my/personal-data', { tel: '1' })).json().code).toBe(405);
    expect((await as('student001')('GET', '/v1/my/user-info')).json().data).toMatchObject({ identityCardId: null, personalDataStatus: null });
    const anonymous = await t.app.inject({ method: 'GET', url: '/v1/my/personal-data' });
    expect(anonymous.json().code).toBe(401);
  });

  it('administrators set the fields directly and by import, the number sealed and masked', async () => {
    const call = as('admin');
    const created = await call('POST', '/v1/teachers', { code: 'T900', username: 'teacher900', password: 'Passw0rd!', nameHk: '陳老師', nameEn: 'Chan', tel: '2345 6789', gender: 'M', birthday: '1970-01-31', identityCardType: 'PASSPORT', identityCardNo: 'K9876543' });
    expect(created.json().code).toBe(201);
    const id = created.json().data.id ?? created.json().data;
    const record = (await call('GET', `/v1/teachers/${typeof id === 'object' ? id.id : id}`)).json().data;
    expect(record).toMatchObject({ tel: '2345 6789', gender: 'M', birthday: '1970-01-31', identityCardType: 'PASSPORT', identityCardMasked: 'K9***3' });
    const t900 = typeof id === 'object' ? id.id : id;
    // changing the type alone would leave the mask describing another document; removing it removes both
    expect((await call('PUT', `/v1/teachers/${t900}`, { identityCardType: 'HKID' })).statusCode).toBe(422);
    expect((await call('PUT', `/v1/teachers/${t900}`, { identityCardType: null })).json().code).toBe(200);
    expect((await call('GET', `/v1/teachers/${t900}`)).json().data).toMatchObject({ identityCardType: null, identityCardMasked: null });
    expect((await t.db.selectFrom('users').select('identity_card_no').where('id', '=', t900).executeTakeFirstOrThrow()).identity_card_no).toBeNull();
    const bad = await call('POST', '/v1/admins', { code: 'A900', username: 'admin900', password: 'Passw0rd!', nameHk: '管理', nameEn: 'Admin', identityCardType: 'HKID', identityCardNo: 'nope' });
    expect(bad.statusCode).toBe(422);

    const heads = ['code', 'username', 'password', 'nameHk', 'nameEn', 'gender', 'birthday', 'identityCardType', 'identityCardNo', 'tel'].map((f) => fieldLabel('teacher', f, 'en'));
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('teachers');
    sheet.addRow(heads);
    sheet.addRow(['T901', 'teacher901', 'Passw0rd!', '李老師', 'Lee', 'F', '1990-05-06', 'HKID', 'B654321(0)', '2999 8888']);
    const template = await t.app.inject({ method: 'GET', url: '/v1/teachers/import-template', headers: { ...bearer(tokens.admin), 'accept-language': 'en' } });
    const tpl = new ExcelJS.Workbook();
    await tpl.xlsx.load(template.rawPayload as unknown as ArrayBuffer);
    const tplHeads: string[] = [];
    tpl.worksheets[0].getRow(1).eachCell((c) => tplHeads.push(String(c.value)));
    for (const h of heads) expect(tplHeads).toContain(h);
    const { payload, headers } = multipart('teachers.xlsx', Buffer.from(await workbook.xlsx.writeBuffer()));
    const imported = await t.app.inject({ method: 'POST', url: '/v1/teachers/import', payload, headers: { ...headers, ...bearer(tokens.admin), 'accept-language': 'en' } });
    seen.push(imported.body);
    expect(imported.json().code).toBe(200);
    const row = await t.db.selectFrom('users').selectAll().where('user_no', '=', 'T901').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ gender: 'F', birthday: '1990-05-06', tel: '2999 8888', identity_card_type: 'HKID', identity_card_masked: 'B654***(0)' });
    expect(row.identity_card_no).toMatch(/^qe-sealed:v1:/);

    sheet.addRow(['T902', 'teacher902', 'Passw0rd!', '何老師', 'Ho', 'X', '1990-05-06', 'HKID', 'bad', '']);
    sheet.spliceRows(2, 1);
    const again = multipart('teachers.xlsx', Buffer.from(await workbook.xlsx.writeBuffer()));
    const refused = await t.app.inject({ method: 'POST', url: '/v1/teachers/import', payload: again.payload, headers: { ...again.headers, ...bearer(tokens.admin), 'accept-language': 'en' } });
    expect(refused.json().code).toBe(706);
    expect(refused.json().data.join('\n')).toContain(fieldLabel('teacher', 'identityCardNo', 'en'));
  });

  it('an existing install gets the new page with the default grants when QE starts again', async () => {
    const menu = await t.db.selectFrom('menus').select('id').where('code', '=', 'personal-data').executeTakeFirstOrThrow();
    await t.db.deleteFrom('role_actions').where('action_id', 'in', t.db.selectFrom('actions').select('id').where('menu_id', '=', menu.id)).execute();
    await t.db.deleteFrom('actions').where('menu_id', '=', menu.id).execute();
    await t.db.deleteFrom('menus').where('id', '=', menu.id).execute();
    // an install from before the page never seeded its codes (a seeded code that is deleted stays deleted)
    await t.db.deleteFrom('seeded_codes').where('code', 'like', 'personal-data%').execute();
    await seedPermissionModel(t.db);
    const { tk } = await login(t.app, 'teacher02');
    const codes = (await caller(t.app, tk)('GET', '/v1/my/action-list')).json().data as string[];
    expect(codes).toEqual(expect.arrayContaining(['personal-data.personal', 'personal-data.apply']));
    expect(codes).not.toContain('personal-data.approve');
    const { tk: adminTk } = await login(t.app, 'admin');
    expect((await caller(t.app, adminTk)('GET', '/v1/my/action-list')).json().data).toContain('personal-data.approve');
  });
});
