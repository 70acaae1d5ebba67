import { existsSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, errorText } from '../../src/shared/errors.js';
import { fieldMessage } from '../../src/shared/field-messages.js';
import { fieldLabel } from '../../src/shared/master/labels.js';
import { seedPermissionModel } from '../../src/server/developer/seed.js';
import { bearer, login, testApp, type TestApp } from './harness.js';
import { caller, multipart } from './master/helpers.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const BOTH = [{ code: 'zh-hk', required: '1' }, { code: 'en', required: '1' }];
const CHINESE_ONLY = [{ code: 'zh-hk', required: '1' }, { code: 'en', required: '0' }];

async function xlsx(rows: unknown[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('teachers');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe('school settings', () => {
  let t: TestApp;
  let admin: ReturnType<typeof caller>;
  let adminTk: string;

  beforeAll(async () => {
    t = await testApp({ demo: true });
    adminTk = (await login(t.app, 'admin')).tk;
    admin = caller(t.app, adminTk);
  });
  afterAll(async () => t?.close());

  const settings = async () => (await admin('GET', '/v1/school')).json().data;
  const save = async (change: Record<string, unknown>, call = admin) => {
    const s = await settings();
    return call('PUT', '/v1/school', { nameHk: s.nameHk, nameEn: s.nameEn, languageList: s.languageList, ...change });
  };
  const expectError = (res: { statusCode: number; json(): { code: number; msg: string } }, key: keyof typeof ERRORS, lang: 'en' | 'zh-hk' = 'en') => {
    expect(res.statusCode).toBe(ERRORS[key].http);
    expect(res.json()).toMatchObject({ code: ERRORS[key].code, msg: errorText(key, lang) });
  };

  it('lets the administrator read and change every field; the public school info shows the change at once', async () => {
    const before = await settings();
    expect(before).toMatchObject({ googleRequired: false, googleConfigured: false, languageList: BOTH });
    expect(before.grades.map((g: { code: string }) => g.code)).toContain('S6');
    const res = await save({ nameHk: '新名中學', nameEn: 'New Name College', addressHk: '九龍某街 1 號', addressEn: '1 Some Street, Kowloon', tel: '+852 2345 6789', fax: '2345 6780', email: 'office@new.school', graduateGrade: 'S6' });
    expect(res.json()).toMatchObject({ code: 200, data: { nameHk: '新名中學', nameEn: 'New Name College', addressHk: '九龍某街 1 號', addressEn: '1 Some Street, Kowloon', tel: '+852 2345 6789', fax: '2345 6780', email: 'office@new.school', graduate_grade: 'S6' } });
    const info = (await t.app.inject({ method: 'GET', url: '/v1/school-info' })).json().data;
    expect(info).toMatchObject({ nameHk: '新名中學', nameEn: 'New Name College', graduate_grade: 'S6', googleConfigured: false, googleRequired: false });
    // a cleared field is no longer given
    expect((await save({ fax: '' })).json().data.fax).toBeNull();
  });

  it('is its own permission: a teacher can neither read nor change it; the default administrator roles hold it', async () => {
    const teacher = caller(t.app, (await login(t.app, 'teacher01')).tk);
    expectError(await teacher('GET', '/v1/school'), 'PERMISSION_DENIED');
    expectError(await teacher('PUT', '/v1/school', { nameHk: 'x', nameEn: 'x', languageList: BOTH }), 'PERMISSION_DENIED');
    const info = (await admin('GET', '/v1/my/user-info')).json().data;
    expect(JSON.stringify(info)).toContain('school');
  });

  it('refuses bad values field by field, and a list without a required language (720) in both languages', async () => {
    const bad = await save({ email: 'not-an-address', tel: 'call me', nameEn: '' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().data).toMatchObject({ email: fieldMessage('email', 'en'), tel: fieldMessage('pattern', 'en'), nameEn: fieldMessage('minLength', 'en', { limit: 1 }) });
    const none = [{ code: 'zh-hk', required: '0' }, { code: 'en', required: '0' }];
    expectError(await save({ languageList: none }), 'LANGUAGE_REQUIRED');
    expectError(await save({ languageList: none }, caller(t.app, adminTk, 'zh-hk')), 'LANGUAGE_REQUIRED', 'zh-hk');
    expect((await save({ languageList: [{ code: 'en', required: '1' }, { code: 'en', required: '0' }] })).statusCode).toBe(422);
    expectError(await save({ graduateGrade: 'Z9' }), 'GRADUATE_GRADE_UNKNOWN');
    expect((await settings()).languageList).toEqual(BOTH);
  });

  it('refuses to require a Google account while Google sign-in is not configured (721)', async () => {
    expectError(await save({ googleRequired: true }), 'GOOGLE_NOT_CONFIGURED');
    expectError(await save({ googleRequired: true }, caller(t.app, adminTk, 'zh-hk')), 'GOOGLE_NOT_CONFIGURED', 'zh-hk');
    expect((await settings()).googleRequired).toBe(false);
    // and with the setting off, a teacher without a Google account creates questionnaires
    const teacher11 = caller(t.app, (await login(t.app, 'teacher11')).tk);
    expect((await teacher11('POST', '/v1/questionnaires', { title: 'No Google here' })).json().code).toBe(201);
  });

  it('stores a logo checked by its content, serves it, replaces it and removes it', async () => {
    const upload = (content: Buffer, name = 'logo.png') => {
      const body = multipart(name, content, 'image/png');
      return t.app.inject({ method: 'POST', url: '/v1/school/logo', headers: { ...body.headers, ...bearer(adminTk), 'accept-language': 'en' }, payload: body.payload });
    };
    expectError(await upload(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')), 'IMAGE_REFUSED');
    expectError(await upload(Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024, 0)])), 'IMAGE_REFUSED');
    const first = (await upload(PNG)).json().data.schoolLogo as string;
    expect(first).toMatch(/^school\/logo-[0-9a-f]+\.png$/);
    const served = await t.app.inject({ method: 'GET', url: `/qe/storage/${first}` });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(PNG)).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: '/v1/school-info' })).json().data.schoolLogo).toBe(first);
    const second = (await upload(PNG)).json().data.schoolLogo as string;
    expect(second).not.toBe(first);
    expect(existsSync(join(t.config.storageDir, first))).toBe(false);
    const removed = await admin('DELETE', '/v1/school/logo');
    expect(removed.json().data.schoolLogo).toBeNull();
    expect(existsSync(join(t.config.storageDir, second))).toBe(false);
    const teacher = await login(t.app, 'teacher01');
    const body = multipart('logo.png', PNG, 'image/png');
    expectError(await t.app.inject({ method: 'POST', url: '/v1/school/logo', headers: { ...body.headers, ...bearer(teacher.tk), 'accept-language': 'en' }, payload: body.payload }), 'PERMISSION_DENIED');
  });

  it('is granted to the administrator roles of an install made before it existed, at the next start', async () => {
    const menu = await t.db.selectFrom('menus').select('id').where('code', '=', 'school').executeTakeFirstOrThrow();
    const actions = await t.db.selectFrom('actions').select('id').where('menu_id', '=', menu.id).execute();
    await t.db.deleteFrom('role_actions').where('action_id', 'in', actions.map((a) => a.id)).execute();
    await t.db.deleteFrom('actions').where('menu_id', '=', menu.id).execute();
    await t.db.deleteFrom('menus').where('id', '=', menu.id).execute();
    // an install made before the page existed never seeded its codes (a seeded code that is deleted stays deleted)
    await t.db.deleteFrom('seeded_codes').where('code', 'like', 'school%').execute();
    expectError(await admin('GET', '/v1/school'), 'PERMISSION_DENIED');
    await seedPermissionModel(t.db);
    expect((await admin('GET', '/v1/school')).json().code).toBe(200);
    const teacher = caller(t.app, (await login(t.app, 'teacher01')).tk);
    expectError(await teacher('GET', '/v1/school'), 'PERMISSION_DENIED');
  });

  describe('the language flags drive master data', () => {
    const position = { code: 'LIB', nameHk: '圖書館主任' };

    it('requires both names while both languages are required', async () => {
      const res = await admin('POST', '/v1/positions', { ...position, nameEn: '' });
      expect(res.statusCode).toBe(422);
      expect(res.json().data).toEqual({ nameEn: fieldMessage('required', 'en') });
      // listed with what the schema refuses, in one answer
      const both = await admin('POST', '/v1/positions', { ...position, code: 'x'.repeat(200) });
      expect(Object.keys(both.json().data).sort()).toEqual(['code', 'nameEn']);
      expect(both.json().data.nameEn).toBe(fieldMessage('required', 'en'));
    });

    it('accepts a record and an import without the English name once English is optional, still requiring Chinese', async () => {
      expect((await save({ languageList: CHINESE_ONLY })).json().code).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: '/v1/school-info' })).json().data).toMatchObject({ requiredChinese: true, requiredEnglish: false });
      const created = await admin('POST', '/v1/positions', position);
      expect(created.json()).toMatchObject({ code: 201, data: { code: 'LIB', nameHk: '圖書館主任', nameEn: '' } });
      const noChinese = await admin('POST', '/v1/positions', { code: 'LAB', nameEn: 'Lab technician' });
      expect(noChinese.json().data).toEqual({ nameHk: fieldMessage('required', 'en') });
      // an edit that leaves the English name empty is fine too
      expect((await admin('PUT', `/v1/positions/${created.json().data.id}`, { nameEn: '' })).json().code).toBe(200);

      // a teacher import without the English column, and one with a row that lacks the Chinese name
      const head = ['code', 'username', 'password', 'nameHk'].map((f) => fieldLabel('teacher', f, 'en'));
      const importFile = async (rows: unknown[][]) => {
        const { payload, headers } = multipart('teachers.xlsx', await xlsx(rows));
        return t.app.inject({ method: 'POST', url: '/v1/teachers/import', payload, headers: { ...headers, ...bearer(adminTk), 'accept-language': 'en' } });
      };
      const good = await importFile([head, ['TIMP1', 'timp1', 'Passw0rd!', '匯入老師']]);
      expect(good.json().code).toBe(200);
      const list = (await admin('GET', '/v1/teachers?q=timp1')).json().data.list;
      expect(list).toMatchObject([{ code: 'TIMP1', nameHk: '匯入老師', nameEn: '' }]);
      const bad = await importFile([head, ['TIMP2', 'timp2', 'Passw0rd!', '']]);
      expect(bad.json().code).toBe(706);
      expect(JSON.stringify(bad.json().data)).toContain(fieldLabel('teacher', 'nameHk', 'en'));
    });

    it('requires the English name again as soon as the school says so', async () => {
      expect((await save({ languageList: BOTH })).json().code).toBe(200);
      const res = await admin('POST', '/v1/positions', { code: 'LIB2', nameHk: '副圖書館主任' });
      expect(res.json().data).toEqual({ nameEn: fieldMessage('required', 'en') });
    });
  });

  describe('a staff member\'s Google address', () => {
    it('is typed by the administrator, checked as an e-mail address and unique', async () => {
      const teachers = (await admin('GET', '/v1/teachers?q=teacher12')).json().data.list;
      const id = teachers[0].id;
      const set = await admin('PUT', `/v1/teachers/${id}`, { googleMail: 'teacher12@gmail.example.com' });
      expect(set.json()).toMatchObject({ code: 200, data: { googleMail: 'teacher12@gmail.example.com' } });
      const wrong = await admin('PUT', `/v1/teachers/${id}`, { googleMail: 'not mail' });
      expect(wrong.json().data).toEqual({ googleMail: fieldMessage('email', 'en') });
      const taken = await admin('PUT', `/v1/teachers/${id}`, { googleMail: 'teacher01@demo-qe-school.example' });
      expect(taken.json().data).toEqual({ googleMail: fieldMessage('duplicate', 'en', { value: 'teacher01@demo-qe-school.example' }) });
      expect((await admin('PUT', `/v1/teachers/${id}`, { googleMail: '' })).json().data.googleMail).toBeNull();
    });

    it('is an import column, checked as an e-mail address', async () => {
      const head = ['code', 'username', 'password', 'nameHk', 'nameEn', 'googleMail'].map((f) => fieldLabel('teacher', f, 'en'));
      const importFile = async (rows: unknown[][]) => {
        const { payload, headers } = multipart('teachers.xlsx', await xlsx(rows));
        return t.app.inject({ method: 'POST', url: '/v1/teachers/import', payload, headers: { ...headers, ...bearer(adminTk), 'accept-language': 'en' } });
      };
      const bad = await importFile([head, ['TG1', 'tg1', 'Passw0rd!', '甲老師', 'Teacher A', 'no address']]);
      expect(bad.json().code).toBe(706);
      expect(JSON.stringify(bad.json().data)).toContain(fieldMessage('email', 'en'));
      expect((await importFile([head, ['TG1', 'tg1', 'Passw0rd!', '甲老師', 'Teacher A', 'tg1@gmail.example.com']])).json().code).toBe(200);
      expect((await admin('GET', '/v1/teachers?q=tg1')).json().data.list).toMatchObject([{ code: 'TG1', googleMail: 'tg1@gmail.example.com' }]);
    });
  });
});
