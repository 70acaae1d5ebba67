import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { fieldLabel } from '../../../src/shared/master/labels.js';
import { fieldMessage } from '../../../src/shared/field-messages.js';
import { login, testApp, type TestApp } from '../harness.js';
import { multipart } from '../master/helpers.js';
import { providerBody, startIssuer, type Issuer } from '../../support/oidc-issuer.js';
import { bearer, call, CALLBACK, data, refused, signIn, signInConfig } from './helpers.js';

const STUDENT_COLUMNS = ['code', 'username', 'password', 'nameHk', 'nameEn', 'classId', 'studentNumber', 'email', 'status', 'leaveDate', 'schoolAccount'];

async function workbook(rows: unknown[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('students');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer());
}

/**
 * The school account of administrators, teachers and pupils: typed or imported in any case, kept
 * in lower case, one account's only; the sign-in finds an account by it.
 */
describe('the school account of an account', () => {
  let t: TestApp;
  let idp: Issuer;
  let admin: Record<string, string>;

  beforeAll(async () => {
    idp = await startIssuer({ redirectUris: [CALLBACK], accounts: { imported: { email: 'Imported.Pupil@School.edu.hk', email_verified: true } } });
    t = await testApp({ demo: true, config: signInConfig() });
    admin = bearer((await login(t.app, 'admin')).tk);
  });
  afterAll(async () => {
    await t?.close();
    await idp?.close();
  });

  it('keeps it in lower case and refuses one another account holds, whatever its type or case (422)', async () => {
    const teacher = data<{ id: number; schoolAccount: string }>(
      await call(t.app, 'POST', '/v1/teachers', { code: 'T900', username: 'sa900', password: 'Passw0rd!', nameHk: '甲', nameEn: 'Teacher 900', schoolAccount: 'Mixed.Case@School.EDU.hk' }, admin),
    );
    expect(teacher.schoolAccount).toBe('mixed.case@school.edu.hk');
    expect((await t.db.selectFrom('users').select('school_account').where('id', '=', teacher.id).executeTakeFirstOrThrow()).school_account).toBe('mixed.case@school.edu.hk');
    const clash = await call(t.app, 'POST', '/v1/students', { code: 'S900', username: 'sa901', password: 'Passw0rd!', nameHk: '乙', nameEn: 'Pupil 901', schoolAccount: 'MIXED.CASE@school.edu.hk' }, admin);
    expect(clash.statusCode).toBe(422);
    expect(clash.json().data).toEqual({ schoolAccount: fieldMessage('duplicate', 'en', { value: 'mixed.case@school.edu.hk' }) });
    const bad = await call(t.app, 'PUT', `/v1/teachers/${teacher.id}`, { schoolAccount: 'not an address' }, admin);
    expect(bad.json().data).toEqual({ schoolAccount: fieldMessage('email', 'en') });
    // its own, edited in another case, stays its own
    expect(data<{ schoolAccount: string }>(await call(t.app, 'PUT', `/v1/teachers/${teacher.id}`, { schoolAccount: 'MIXED.case@school.edu.hk' }, admin)).schoolAccount).toBe('mixed.case@school.edu.hk');
    expect(data<{ schoolAccount: null }>(await call(t.app, 'PUT', `/v1/teachers/${teacher.id}`, { schoolAccount: '' }, admin)).schoolAccount).toBeNull();
  });

  it('imports it from its column in lower case, refusing one taken; the imported pupil then signs in with it', async () => {
    const headers = STUDENT_COLUMNS.map((f) => fieldLabel('student', f, 'en'));
    const row = (n: number, account: string | null) => [`S95${n}`, `imp95${n}`, 'Passw0rd!', '丙', `Imported ${n}`, null, null, null, null, null, account];
    await t.db.updateTable('users').set({ school_account: 'taken@school.edu.hk' }).where('username', '=', 'teacher01').execute();
    const upload = async (rows: unknown[][]) => {
      const { payload, headers: h } = multipart('students.xlsx', await workbook(rows));
      return t.app.inject({ method: 'POST', url: '/v1/students/import', payload, headers: { ...h, ...admin, 'accept-language': 'en' } });
    };
    const refused = await upload([headers, row(1, 'Taken@School.edu.hk'), row(2, 'twice@school.edu.hk'), row(3, 'TWICE@school.edu.hk')]);
    expect(refused.json().code).toBe(706);
    expect(refused.json().data.join('\n')).toContain(fieldMessage('duplicate', 'en', { value: 'taken@school.edu.hk' }));
    expect(refused.json().data.join('\n')).toContain('twice@school.edu.hk');

    expect((await upload([headers, row(4, 'Imported.Pupil@SCHOOL.edu.hk')])).json().code).toBe(200);
    const pupil = await t.db.selectFrom('users').select(['id', 'school_account']).where('username', '=', 'imp954').executeTakeFirstOrThrow();
    expect(pupil.school_account).toBe('imported.pupil@school.edu.hk');
    const su = bearer((await login(t.app, 'superadmin')).tk);
    const p = data<{ id: number }>(await call(t.app, 'POST', '/v1/identity-providers', providerBody(idp), su));
    expect(data<{ userId: number }>(await signIn(t.app, idp, p.id, 'imported')).userId).toBe(pupil.id);
  });
});

/**
 * A link beats the address at sign-in: when an administrator corrects an account's school account
 * (on its screen or by an import), the links made under the old address go with it, so the real
 * owner of a mistyped address does not stay signed in as the account.
 */
describe('a changed school account ends the account’s sign-in links', () => {
  let t: TestApp;
  let idp: Issuer;
  let admin: Record<string, string>;
  let providerId: number;
  const links = (userId: number) => t.db.selectFrom('sign_in_links').select('id').where('user_id', '=', userId).execute();
  const pupil = async (code: string, username: string, schoolAccount: string) =>
    data<{ id: number }>(await call(t.app, 'POST', '/v1/students', { code, username, password: 'Passw0rd!', nameHk: '丁', nameEn: `Pupil ${code}`, schoolAccount }, admin)).id;

  beforeAll(async () => {
    const account = (email: string) => ({ email, email_verified: true });
    idp = await startIssuer({ redirectUris: [CALLBACK], accounts: { a1: account('a1@school.edu.hk'), a2: account('a2@school.edu.hk'), a3: account('a3@school.edu.hk') } });
    t = await testApp({ demo: true, config: signInConfig() });
    admin = bearer((await login(t.app, 'admin')).tk);
    const su = bearer((await login(t.app, 'superadmin')).tk);
    providerId = data<{ id: number }>(await call(t.app, 'POST', '/v1/identity-providers', providerBody(idp), su)).id;
  });
  afterAll(async () => {
    await t?.close();
    await idp?.close();
  });

  it('through the record’s screen: changed or cleared, the links go and the old address’s owner is refused (776); unchanged, they stay', async () => {
    const x = await pupil('S960', 'link960', 'a1@school.edu.hk');
    expect(data<{ userId: number }>(await signIn(t.app, idp, providerId, 'a1')).userId).toBe(x);
    expect(await links(x)).toHaveLength(1);
    // another field edited, the school account sent as it is (in another case too): the link stays
    data(await call(t.app, 'PUT', `/v1/students/${x}`, { nameEn: 'Pupil 960 renamed', schoolAccount: 'A1@school.edu.hk' }, admin));
    data(await call(t.app, 'PUT', `/v1/students/${x}`, { nameEn: 'Pupil 960' }, admin));
    expect(await links(x)).toHaveLength(1);
    expect(data<{ userId: number }>(await signIn(t.app, idp, providerId, 'a1')).userId).toBe(x);

    data(await call(t.app, 'PUT', `/v1/students/${x}`, { schoolAccount: 'b1@school.edu.hk' }, admin));
    expect(await links(x)).toEqual([]);
    refused(await signIn(t.app, idp, providerId, 'a1'), 'SIGN_IN_NO_ACCOUNT');
    expect(await links(x)).toEqual([]);

    const y = await pupil('S962', 'link962', 'a3@school.edu.hk');
    expect(data<{ userId: number }>(await signIn(t.app, idp, providerId, 'a3')).userId).toBe(y);
    data(await call(t.app, 'PUT', `/v1/students/${y}`, { schoolAccount: '' }, admin));
    expect(await links(y)).toEqual([]);
    refused(await signIn(t.app, idp, providerId, 'a3'), 'SIGN_IN_NO_ACCOUNT');
  });

  it('through an import that updates the record: changed, the links go; unchanged, they stay', async () => {
    const x = await pupil('S961', 'link961', 'a2@school.edu.hk');
    expect(data<{ userId: number }>(await signIn(t.app, idp, providerId, 'a2')).userId).toBe(x);
    const headers = STUDENT_COLUMNS.map((f) => fieldLabel('student', f, 'en'));
    const upload = async (nameEn: string, account: string) => {
      const { payload, headers: h } = multipart('students.xlsx', await workbook([headers, ['S961', 'link961', null, '丁', nameEn, null, null, null, null, null, account]]));
      const res = await t.app.inject({ method: 'POST', url: '/v1/students/import?existing=update', payload, headers: { ...h, ...admin, 'accept-language': 'en' } });
      expect(res.json().code, res.body.slice(0, 600)).toBe(200);
    };
    await upload('Pupil 961 renamed', 'A2@School.edu.hk');
    expect(await links(x)).toHaveLength(1);
    expect((await t.db.selectFrom('users').select('name_en').where('id', '=', x).executeTakeFirstOrThrow()).name_en).toBe('Pupil 961 renamed');

    await upload('Pupil 961', 'b2@school.edu.hk');
    expect((await t.db.selectFrom('users').select('school_account').where('id', '=', x).executeTakeFirstOrThrow()).school_account).toBe('b2@school.edu.hk');
    expect(await links(x)).toEqual([]);
    refused(await signIn(t.app, idp, providerId, 'a2'), 'SIGN_IN_NO_ACCOUNT');
    expect(await links(x)).toEqual([]);
  });
});
