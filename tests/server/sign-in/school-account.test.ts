import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { fieldLabel } from '../../../src/shared/master/labels.js';
import { fieldMessage } from '../../../src/shared/field-messages.js';
import { login, testApp, type TestApp } from '../harness.js';
import { multipart } from '../master/helpers.js';
import { providerBody, startIssuer, type Issuer } from '../../support/oidc-issuer.js';
import { bearer, call, CALLBACK, data, signIn, signInConfig } from './helpers.js';

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
