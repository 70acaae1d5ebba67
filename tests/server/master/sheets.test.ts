import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import * as XLSX from '@e965/xlsx';
import { type Lang, errorText } from '../../../src/shared/errors.js';
import { choiceLabel, fieldLabel } from '../../../src/shared/master/labels.js';
import { fieldMessage } from '../../../src/shared/field-messages.js';
import { bearer, login, testApp, type TestApp } from '../harness.js';
import { caller, multipart } from './helpers.js';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The student import's columns, in the template's order. */
const STUDENT_IMPORT = ['code', 'username', 'password', 'nameHk', 'nameEn', 'classId', 'studentNumber', 'email', 'status', 'leaveDate', 'schoolAccount'];

/** Column headers are the field labels of the message files, in the user's language. */
const heads = (entity: string, fields: string[], lang: Lang) => fields.map((f) => fieldLabel(entity, f, lang));
const STUDENT_HEADERS = { en: heads('student', STUDENT_IMPORT, 'en'), 'zh-hk': heads('student', STUDENT_IMPORT, 'zh-hk') };
const label = (field: string, lang: Lang = 'en') => fieldLabel('student', field, lang);

async function xlsxFile(rows: unknown[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('students');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

function xlsFile(rows: unknown[][]): Buffer {
  const workbook = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(workbook, XLSX.utils.aoa_to_sheet(rows), 'students');
  return XLSX.write(workbook, { bookType: 'biff8', type: 'buffer' }) as Buffer;
}

/** The rows of the first sheet of an .xlsx answer, as plain values. */
async function readSheet(body: Buffer): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  const sheet = workbook.worksheets[0];
  sheet.eachRow((row) => rows.push(Array.from({ length: sheet.columnCount }, (_, i) => row.getCell(i + 1).value ?? null)));
  return rows;
}

describe('master data Excel import and export', () => {
  let t: TestApp;
  let admin: string;
  let call: ReturnType<typeof caller>;
  let classes: { id: number; code: string }[];

  beforeAll(async () => {
    t = await testApp({ demo: true });
    admin = (await login(t.app, 'admin')).tk;
    call = caller(t.app, admin);
    classes = (await call('GET', '/v1/classes')).json().data.list;
  });
  afterAll(async () => t?.close());

  const upload = (resource: string, filename: string, content: Buffer, lang: 'en' | 'zh-hk' = 'en') => {
    const { payload, headers } = multipart(filename, content);
    return t.app.inject({ method: 'POST', url: `/v1/${resource}/import`, payload, headers: { ...headers, ...bearer(admin), 'accept-language': lang === 'en' ? 'en' : 'zh-HK' } });
  };
  const total = async (url: string) => (await call('GET', url)).json().data.total as number;
  const classId = (code: string) => classes.find((c) => c.code === code)!.id;

  describe('the import template', () => {
    it.each(['en', 'zh-hk'] as const)('heads the import columns in %s', async (lang) => {
      const res = await t.app.inject({ method: 'GET', url: '/v1/students/import-template', headers: { ...bearer(admin), 'accept-language': lang === 'en' ? 'en-GB,en;q=0.9' : 'zh-HK' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe(XLSX_TYPE);
      expect(res.headers['content-disposition']).toMatch(/attachment; filename=".+\.xlsx"/);
      expect(await readSheet(res.rawPayload)).toEqual([STUDENT_HEADERS[lang]]);
      // labels, not property names, and told apart by language
      STUDENT_HEADERS[lang].forEach((h, i) => expect(h).not.toBe(STUDENT_IMPORT[i]));
      if (lang === 'zh-hk') STUDENT_HEADERS[lang].forEach((h) => expect(h).toMatch(/[\u4e00-\u9fff]/));
      else expect(STUDENT_HEADERS.en.slice(0, 2)).toEqual(['Student code', 'Account']);
    });

    it('heads the teacher import columns too, with no read-only ones (the Google address is typed by the school: issue 12)', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/v1/teachers/import-template', headers: { ...bearer(admin), 'accept-language': 'en' } });
      const fields = ['code', 'username', 'password', 'nameHk', 'nameEn', 'abbr', 'status', 'positionId', 'email', 'seq', 'googleMail', 'tel', 'gender', 'birthday', 'identityCardType', 'identityCardNo', 'schoolAccount'];
      expect(await readSheet(res.rawPayload)).toEqual([heads('teacher', fields, 'en')]);
    });
  });

  describe('import', () => {
    it('imports a 3,000-row student file in one go (zh-hk headers), with classes and numbers', async () => {
      const codes = ['1A', '1B', '2A', '2B', '3A', '3B', '4A', '4B', '5A', '5B', '6A', '6B'];
      const rows: unknown[][] = [[...STUDENT_HEADERS['zh-hk']]];
      for (let i = 1; i <= 3000; i++) {
        const n = String(i).padStart(4, '0');
        rows.push([`S7${n}`, `imp${n}`, 'Imp0rt!!', '匯入學生', `Imported Pupil ${n}`, codes[i % 12], Math.floor(i / 12) + 20, i % 2 ? `imp${n}@school.edu.hk` : null, i % 3 ? null : choiceLabel('student', 'status', '1', 'zh-hk'), null]);
      }
      const before = await total('/v1/students');
      const res = await upload('students', 'students.xlsx', await xlsxFile(rows), 'zh-hk');
      expect(res.json(), res.body.slice(0, 500)).toEqual({ code: 200, msg: 'success', data: { imported: 3000, added: 3000, updated: 0, skipped: 0 } });
      expect(await total('/v1/students')).toBe(before + 3000);
      expect(await total('/v1/students?q=imported%20pupil')).toBe(3000);
      expect(await total(`/v1/students?classId=${classId('1A')}`)).toBe(17 + 250);

      const one = (await call('GET', '/v1/students?q=imp0013')).json().data;
      expect(one).toMatchObject({ total: 1, list: [{ code: 'S70013', username: 'imp0013', nameEn: 'Imported Pupil 0013', classId: classId('1B'), studentNumber: 21, email: 'imp0013@school.edu.hk', status: '1', leaveDate: null }] });
      const { tk } = await login(t.app, 'imp0013', 'Imp0rt!!');
      expect((await caller(t.app, tk)('GET', '/v1/my/user-info')).json().data.userType).toBe('STUDENT');
    });

    it('imports nothing from a file with three bad rows, and answers 706 listing exactly those rows', async () => {
      const rows = [
        [...STUDENT_HEADERS.en],
        ['S8001', 'bad8001', 'Passw0rd', '甲', 'Pupil A', '1A', 930, null, null, null],
        ['X8002', 'bad8002', 'Passw0rd', '乙', 'Pupil B', '1A', 931, null, null, null],
        ['S8003', 'bad8003', 'Passw0rd', '丙', 'Pupil C', '1B', 930, null, null, null],
        ['S8004', 'bad8001', 'Passw0rd', '丁', 'Pupil D', '1B', 931, null, null, null],
        ['S8005', 'bad8005', 'Passw0rd', '戊', 'Pupil E', '2A', 930, null, choiceLabel('student', 'status', '1', 'en'), null],
        ['S8006', 'bad8006', 'Passw0rd', '己', 'Pupil F', 'ZZ', 931, null, null, null],
      ];
      const before = await total('/v1/students');
      const res = await upload('students', 'bad.xlsx', await xlsxFile(rows));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        code: 706,
        msg: errorText('IMPORT_ERRORS', 'en'),
        data: [
          `Row 3, ${label('code')}: ${fieldMessage('studentCode', 'en')}`,
          `Row 5, ${label('username')}: ${fieldMessage('duplicate', 'en', { value: 'bad8001' })}`,
          `Row 7, ${label('classId')}: ${fieldMessage('reference', 'en', { value: 'ZZ' })}`,
        ],
      });
      expect(await total('/v1/students')).toBe(before);
      expect(await total('/v1/students?q=bad80')).toBe(0);

      const hk = await upload('students', 'bad.xlsx', await xlsxFile(rows), 'zh-hk');
      expect(hk.json().msg).toBe(errorText('IMPORT_ERRORS', 'zh-hk'));
      expect(hk.json().data.map((line: string) => line.match(/^第 (\d+) 行，([^：]+)：/)?.slice(1))).toEqual([['3', label('code', 'zh-hk')], ['5', label('username', 'zh-hk')], ['7', label('classId', 'zh-hk')]]);
    });

    it('reports by row: an account already stored, a short password, a missing leave date, half a placement', async () => {
      const rows = [
        [...STUDENT_HEADERS.en],
        ['S8101', 'student001', 'Passw0rd', '甲', 'Pupil A', null, null, null, null, null],
        ['S8102', 'ok8102', '12345', '乙', 'Pupil B', null, null, null, null, null],
        ['S8103', 'ok8103', 'Passw0rd', '丙', 'Pupil C', null, null, null, choiceLabel('student', 'status', '2', 'en'), null],
        ['S8104', 'ok8104', 'Passw0rd', '丁', 'Pupil D', null, null, 'not-an-email', null, null],
        // half a placement: a class without its number, a number without its class
        ['S8105', 'ok8105', 'Passw0rd', '戊', 'Pupil E', '1A', null, null, null, null],
        ['S8106', 'ok8106', 'Passw0rd', '己', 'Pupil F', null, 12, null, null, null],
        ['S8107', 'ok8107', 'Passw0rd', '庚', 'Pupil G', '1A', 'twelve', null, null, null],
      ];
      const res = await upload('students', 'more.xlsx', await xlsxFile(rows));
      expect(res.json().code).toBe(706);
      expect(res.json().data).toEqual([
        `Row 2, ${label('username')}: ${fieldMessage('duplicate', 'en', { value: 'student001' })}`,
        `Row 3, ${label('password')}: ${fieldMessage('password', 'en')}`,
        `Row 4, ${label('leaveDate')}: ${fieldMessage('leaveDate', 'en')}`,
        `Row 5, ${label('email')}: ${fieldMessage('email', 'en')}`,
        `Row 6, ${label('studentNumber')}: ${fieldMessage('required', 'en')}`,
        `Row 7, ${label('classId')}: ${fieldMessage('required', 'en')}`,
        `Row 8, ${label('studentNumber')}: ${fieldMessage('type', 'en')}`,
      ]);
      expect(await total('/v1/students?q=ok81')).toBe(0);
    });

    it('refuses a class number given twice in the file or already held, naming the rows (706); the same number in another class is fine', async () => {
      const row = (n: number, cls: string, number: number) => [`S83${n}`, `num83${n}`, 'Passw0rd', '甲', `Numbered ${n}`, cls, number, null, null, null];
      // the demo gives 1A the numbers 1 to 17
      const rows = [[...STUDENT_HEADERS.en], row(1, '1A', 940), row(2, '1A', 5), row(3, '1A', 940), row(4, '1B', 940), row(5, '2A', 941), row(6, '1a', 940)];
      const res = await upload('students', 'numbers.xlsx', await xlsxFile(rows));
      expect(res.json()).toEqual({
        code: 706,
        msg: errorText('IMPORT_ERRORS', 'en'),
        data: [
          `Row 2, ${label('studentNumber')}: ${fieldMessage('classNumberRepeated', 'en', { rows: '2, 4, 7' })}`,
          `Row 3, ${label('studentNumber')}: ${fieldMessage('classNumberTaken', 'en')}`,
          `Row 4, ${label('studentNumber')}: ${fieldMessage('classNumberRepeated', 'en', { rows: '2, 4, 7' })}`,
          `Row 7, ${label('studentNumber')}: ${fieldMessage('classNumberRepeated', 'en', { rows: '2, 4, 7' })}`,
        ],
      });
      const hk = await upload('students', 'numbers.xlsx', await xlsxFile(rows), 'zh-hk');
      expect(hk.json().data[1]).toBe(`第 3 行，${label('studentNumber', 'zh-hk')}：${fieldMessage('classNumberTaken', 'zh-hk')}`);
      expect(await total('/v1/students?q=num83')).toBe(0);

      // without the clashing rows: one number in three classes
      const good = await upload('students', 'numbers.xlsx', await xlsxFile([rows[0], rows[1], rows[4], rows[5]]));
      expect(good.json()).toEqual({ code: 200, msg: 'success', data: { imported: 3, added: 3, updated: 0, skipped: 0 } });
      // and now held: the same number in 1A again is refused
      const again = await upload('students', 'numbers.xlsx', await xlsxFile([rows[0], row(7, '1A', 940)]));
      expect(again.json().data).toEqual([`Row 2, ${label('studentNumber')}: ${fieldMessage('classNumberTaken', 'en')}`]);
    });

    it('refuses a file without a required column, naming it (the password is asked row by row: records that exist keep theirs)', async () => {
      const res = await upload('students', 'partial.xlsx', await xlsxFile([[label('code'), label('username')], ['S8201', 'x8201']]));
      expect(res.json().code).toBe(706);
      expect(res.json().data).toEqual([`Import template error: missing columns ${[label('nameHk'), label('nameEn')].join(', ')}`]);
    });

    it('imports an .xls (BIFF8) file', async () => {
      const rows = [
        heads('teacher', ['code', 'username', 'password', 'nameHk', 'nameEn', 'positionId', 'status'], 'en'),
        ['T801', 'xls801', 'Xls0file', '陳老師', 'XLS Teacher One', 'PH', choiceLabel('teacher', 'status', '1', 'en')],
        // a choice may be written by its stored value too
        ['T802', 'xls802', 'Xls0file', '李老師', 'XLS Teacher Two', 'T', '0'],
      ];
      const res = await upload('teachers', 'teachers.xls', xlsFile(rows));
      expect(res.json(), res.body).toEqual({ code: 200, msg: 'success', data: { imported: 2, added: 2, updated: 0, skipped: 0 } });
      const found = (await call('GET', '/v1/teachers?q=xls%20teacher&sort=code')).json().data;
      const positions = (await call('GET', '/v1/positions')).json().data.list as { id: number; code: string }[];
      expect(found.list.map((x: { code: string; positionId: number; status: string }) => [x.code, positions.find((p) => p.id === x.positionId)?.code, x.status])).toEqual([
        ['T801', 'PH', '1'],
        ['T802', 'T', '0'],
      ]);
      await login(t.app, 'xls801', 'Xls0file');
    });

    it.each([
      ['a .csv file', 'students.csv', () => Buffer.from('Student code,Account\nS1,a\n')],
      ['a text file renamed .xlsx', 'students.xlsx', () => Buffer.from('Student code\tAccount\nS1\ta\n')],
      ['an .xlsx workbook renamed .csv', 'students.csv', () => xlsxFile([[...STUDENT_HEADERS.en]])],
      ['an .xls workbook renamed .xlsx', 'students.xlsx', () => xlsFile([[...STUDENT_HEADERS.en]])],
    ])('refuses %s with 716', async (_, filename, content) => {
      const before = await total('/v1/students');
      const res = await upload('students', filename, await content());
      expect(res.json()).toEqual({ code: 716, msg: errorText('FILE_TYPE_REFUSED', 'en'), data: null });
      expect(await total('/v1/students')).toBe(before);
    });

    it('refuses a request without a file with 716', async () => {
      const res = await call('POST', '/v1/students/import', { file: 'x' });
      expect(res.json().code).toBe(716);
    });
  });

  describe('export', () => {
    it('answers an .xlsx of the filtered, sorted list, headed in English, without passwords', async () => {
      const query = `classId=${classId('2A')}&sort=nameEn&order=desc`;
      const list = (await call('GET', `/v1/students?${query}&size=1000`)).json().data.list as Record<string, unknown>[];
      expect(list.length).toBeGreaterThan(17);
      const res = await t.app.inject({ method: 'GET', url: `/v1/students/export?${query}`, headers: { ...bearer(admin), 'accept-language': 'en' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe(XLSX_TYPE);
      expect(res.headers['content-disposition']).toMatch(/attachment; filename="students-\d{4}-\d{2}-\d{2}\.xlsx"/);
      const [header, ...rows] = await readSheet(res.rawPayload);
      expect(header).toEqual(heads('student', ['code', 'username', 'nameHk', 'nameEn', 'classId', 'studentNumber', 'email', 'status', 'leaveDate', 'schoolAccount'], 'en'));
      expect(header.some((h) => /password|密碼/i.test(String(h)))).toBe(false);
      expect(rows).toEqual(list.map((s) => [s.code, s.username, s.nameHk, s.nameEn, '2A', s.studentNumber, s.email, choiceLabel('student', 'status', '1', 'en'), null, null]));
      expect(res.rawPayload.toString('latin1')).not.toMatch(/scrypt|argon2id|Imp0rt!!|Passw0rd/);
    });

    it('heads the columns in zh-hk and writes references by their code', async () => {
      const ph = (await call('GET', '/v1/positions?q=PH')).json().data.list[0].id as number;
      const list = (await call('GET', `/v1/teachers?positionId=${ph}&size=1000`)).json().data.list as Record<string, unknown>[];
      const res = await t.app.inject({ method: 'GET', url: `/v1/teachers/export?positionId=${ph}`, headers: { ...bearer(admin), 'accept-language': 'zh-HK' } });
      const [header, ...rows] = await readSheet(res.rawPayload);
      expect(header).toEqual(heads('teacher', ['code', 'username', 'nameHk', 'nameEn', 'abbr', 'status', 'positionId', 'email', 'seq', 'googleMail', 'tel', 'gender', 'birthday', 'identityCardType', 'schoolAccount', 'identityCardMasked'], 'zh-hk'));
      expect(header).not.toEqual(heads('teacher', ['code', 'username', 'nameHk', 'nameEn', 'abbr', 'status', 'positionId', 'email', 'seq', 'googleMail', 'tel', 'gender', 'birthday', 'identityCardType', 'schoolAccount', 'identityCardMasked'], 'en'));
      expect(rows.map((r) => r[0])).toEqual(list.map((x) => x.code));
      expect(new Set(rows.map((r) => r[6]))).toEqual(new Set(['PH']));
      expect(new Set(rows.map((r) => r[5]))).toEqual(new Set([choiceLabel('teacher', 'status', '1', 'zh-hk')]));
    });

    it('exports the lists without an import as well, searched', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/v1/positions/export?q=principal', headers: { ...bearer(admin), 'accept-language': 'en' } });
      expect(res.headers['content-type']).toBe(XLSX_TYPE);
      const rows = await readSheet(res.rawPayload);
      expect(rows).toEqual([
        heads('position', ['code', 'nameHk', 'nameEn', 'seq', 'teacherCount'], 'en'),
        ['P', '校長', 'Principal', 1, 1],
        ['VP', '副校長', 'Vice principal', 2, 1],
      ]);
    });
  });
});
