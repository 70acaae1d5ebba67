import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { ERRORS } from '../../../src/shared/errors.js';
import { fieldLabel } from '../../../src/shared/master/labels.js';
import { fieldMessage } from '../../../src/shared/field-messages.js';
import { bearer, login, testApp, type TestApp } from '../harness.js';
import { caller, multipart } from './helpers.js';

/**
 * docs/product-rules.md#user-names: one reading of a user name (src/shared/usernames.ts) at the
 * import, when an account is added or edited, and at the login — ｆｕｌｌ１２３ is full123.
 */
describe('a user name typed in full-width characters', () => {
  let t: TestApp;
  let call: ReturnType<typeof caller>;
  const PASSWORD = 'abc12345';

  beforeAll(async () => {
    t = await testApp({ demo: true });
    call = caller(t.app, (await login(t.app, 'admin')).tk);
  });
  afterAll(async () => t?.close());

  const logIn = (username: string, password = PASSWORD) => t.app.inject({ method: 'POST', url: '/v1/login', payload: { username, password } });
  const stored = async (id: number) => (await t.db.selectFrom('users').select('username').where('id', '=', id).executeTakeFirstOrThrow()).username;
  const loggedInAs = async (username: string, id: number) => {
    const res = await logIn(username);
    expect(res.statusCode, `${username}: ${res.body}`).toBe(200);
    expect(res.json().data.userId).toBe(id);
  };

  async function importStudents(rows: unknown[][]) {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('students');
    sheet.addRow(['code', 'username', 'password', 'nameHk', 'nameEn'].map((f) => fieldLabel('student', f, 'en')));
    for (const row of rows) sheet.addRow(row);
    const { payload, headers } = multipart('students.xlsx', Buffer.from(await workbook.xlsx.writeBuffer()));
    const res = await t.app.inject({ method: 'POST', url: '/v1/students/import', payload, headers: { ...headers, ...bearer((await login(t.app, 'admin')).tk), 'accept-language': 'en' } });
    return res;
  }

  it('imported as ｆｕｌｌ１２３, is full123, and logs in typed either way', async () => {
    const res = await importStudents([['S9001', ' ｆｕｌｌ１２３\u3000', PASSWORD, '全寬', 'Full Width']]);
    expect(res.json(), res.body).toMatchObject({ code: 200, data: { added: 1 } });
    const { id } = await t.db.selectFrom('users').select('id').where('user_no', '=', 'S9001').executeTakeFirstOrThrow();
    expect(await stored(id)).toBe('full123');
    await loggedInAs('full123', id);
    await loggedInAs('ｆｕｌｌ１２３', id);
    await loggedInAs('\u3000ｆｕｌｌ１２３ ', id);
  });

  it('keeps the case as the import does: FULL123 is another name, ＦＵＬＬ１２３ is FULL123', async () => {
    const res = await importStudents([['S9002', 'ＦＵＬＬ１２３', PASSWORD, '大寫', 'Upper Case']]);
    expect(res.json(), res.body).toMatchObject({ code: 200, data: { added: 1 } });
    const { id } = await t.db.selectFrom('users').select('id').where('user_no', '=', 'S9002').executeTakeFirstOrThrow();
    expect(await stored(id)).toBe('FULL123');
    await loggedInAs('ＦＵＬＬ１２３', id);
    await loggedInAs('FULL123', id);
    // full123 is the other student's: the same password does not open this account
    expect((await logIn('full123')).json().data.userId).not.toBe(id);
    expect((await logIn('Full123')).json().code).toBe(ERRORS.LOGIN_FAILED.code);
  });

  it('refuses a full-width name in an import when its ordinary form is taken', async () => {
    const res = await importStudents([['S9003', 'ｆｕｌｌ１２３', PASSWORD, '重複', 'Again']]);
    expect(res.json().code).toBe(ERRORS.IMPORT_ERRORS.code);
    expect(res.json().data).toEqual([expect.stringContaining(fieldMessage('duplicate', 'en', { value: 'full123' }))]);
  });

  for (const [resource, code, extra] of [
    ['students', 'S9100', {}],
    ['teachers', 'T9100', {}],
    ['admins', 'A9100', {}],
  ] as const) {
    it(`added through /v1/${resource} as ｎｅｗ．${resource}, is new.${resource} and logs in typed either way; an edit reads it so too`, async () => {
      const add = await call('POST', `/v1/${resource}`, { code, username: `\u3000ｎｅｗ．${resource.toUpperCase()}_１ `, password: PASSWORD, nameHk: '新人', nameEn: 'Newcomer', ...extra });
      expect(add.json(), add.body).toMatchObject({ code: 201 });
      const id = add.json().data.id as number;
      expect(add.json().data.username).toBe(`new.${resource.toUpperCase()}_1`);
      expect(await stored(id)).toBe(`new.${resource.toUpperCase()}_1`);
      await loggedInAs(`ｎｅｗ．${resource.toUpperCase()}＿１`, id);
      await loggedInAs(`new.${resource.toUpperCase()}_1`, id);

      // the same name in full-width is the same name: refused as taken, on add and on edit
      const again = await call('POST', `/v1/${resource}`, { code: `${code}9`, username: `ｎｅｗ．${resource.toUpperCase()}＿１`, password: PASSWORD, nameHk: '再來', nameEn: 'Again' });
      expect(again.statusCode, again.body).toBe(422);
      expect(again.json().data).toMatchObject({ username: expect.any(String) });

      const edit = await call('PUT', `/v1/${resource}/${id}`, { username: `ｅｄｉｔｅｄ－${resource}` });
      expect(edit.statusCode, edit.body).toBe(200);
      expect(await stored(id)).toBe(`edited-${resource}`);
      await loggedInAs(`ｅｄｉｔｅｄ－${resource}`, id);
    });
  }

  it('still refuses a name that is not one once read (the pattern checks the ordinary form)', async () => {
    const res = await call('POST', '/v1/teachers', { code: 'T9200', username: '老師一號', password: PASSWORD, nameHk: '老師', nameEn: 'Teacher' });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().data).toMatchObject({ username: expect.any(String) });
  });
});

describe('the first super administrator made at /qe/init with a full-width name', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });
  afterAll(async () => t?.close());

  it('is kept as the ordinary name and logs in typed either way', async () => {
    const init = await t.app.inject({ method: 'POST', url: '/v1/init', payload: { schoolNameHk: '測試學校', schoolNameEn: 'Test School', username: 'ｓｕｐｅｒ．ａｄｍｉｎ', password: 'abc12345', nameHk: '校長', nameEn: 'Principal' } });
    expect(init.json(), init.body).toMatchObject({ code: 201 });
    for (const typed of ['super.admin', 'ｓｕｐｅｒ．ａｄｍｉｎ']) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/login', payload: { username: typed, password: 'abc12345' } });
      expect(res.json(), typed).toMatchObject({ code: 200 });
    }
  });
});
