import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import * as XLSX from '@e965/xlsx';
import type { Lang } from '../../../src/shared/errors.js';
import { choiceLabel, fieldLabel } from '../../../src/shared/master/labels.js';
import { fieldMessage } from '../../../src/shared/field-messages.js';
import { WORKBOOK_LIMITS } from '../../../src/server/master/workbook/limits.js';
import { bearer, login, testApp, type TestApp } from '../harness.js';
import { caller, multipart } from './helpers.js';

/**
 * Imports read what the school sees: files built the way schools build them in Excel —
 * codes formatted to show leading zeros, full-width letters typed with a Chinese input method,
 * empty rows between, merged headings, a hidden sheet in front, a leave date for a pupil still in
 * school, an export re-imported, a file too large or too long — and the answers (messages in both
 * languages, counts) and stored data a caller observes.
 */

const IMPORT = ['code', 'username', 'password', 'nameHk', 'nameEn', 'classId', 'studentNumber', 'email', 'status', 'leaveDate'];
const label = (field: string, lang: Lang = 'en') => fieldLabel('student', field, lang);
const heads = (lang: Lang = 'en') => IMPORT.map((f) => label(f, lang));
const rowLine = (lang: Lang, row: number, field: string, message: string) =>
  lang === 'en' ? `Row ${row}, ${label(field, lang)}: ${message}` : `第 ${row} 行，${label(field, lang)}：${message}`;

type Build = (workbook: ExcelJS.Workbook) => void;
async function book(build: Build): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  build(workbook);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
/** A workbook of one sheet named as the template names it, holding `rows` from row 1. */
const plain = (rows: unknown[][]) => book((w) => w.addWorksheet('students').addRows(rows));

describe('imports read what the school sees', () => {
  let t: TestApp;
  let admin: string;
  let call: ReturnType<typeof caller>;

  beforeAll(async () => {
    t = await testApp({ demo: true });
    admin = (await login(t.app, 'admin')).tk;
    call = caller(t.app, admin);
  });
  afterAll(async () => t?.close());

  const upload = (content: Buffer, lang: Lang = 'en', existing?: 'update' | 'skip' | 'refuse', resource = 'students') => {
    const { payload, headers } = multipart(`${resource}.xlsx`, content);
    const query = existing ? `?existing=${existing}` : '';
    return t.app.inject({ method: 'POST', url: `/v1/${resource}/import${query}`, payload, headers: { ...headers, ...bearer(admin), 'accept-language': lang === 'en' ? 'en' : 'zh-HK' } });
  };
  const student = async (q: string) => (await call('GET', `/v1/students?q=${encodeURIComponent(q)}`)).json().data.list as Record<string, unknown>[];

  it('reads a code as Excel shows it: a number formatted with leading zeros keeps them; text keeps its zeros too', async () => {
    const headers = ['code', 'username', 'password', 'nameHk', 'nameEn'].map((f) => fieldLabel('teacher', f, 'en'));
    const real = await book((w) => {
      const sheet = w.addWorksheet('teachers');
      sheet.addRow(headers);
      const row = sheet.addRow([97304152, 97304153, 'Passw0rd', '零老師', 'Zero Teacher']);
      row.getCell(1).numFmt = '0000000000';
      row.getCell(2).numFmt = '0000000000';
      sheet.addRow(['0097304154', '0097304155', 'Passw0rd', '零老師二', 'Zero Teacher Two']);
    });
    const res = await upload(real, 'en', undefined, 'teachers');
    expect(res.json(), res.body).toMatchObject({ code: 200, data: { added: 2 } });
    const found = (await call('GET', '/v1/teachers?q=Zero%20Teacher&sort=code')).json().data.list as Record<string, unknown>[];
    expect(found.map((f) => [f.code, f.username])).toEqual([['0097304152', '0097304153'], ['0097304154', '0097304155']]);
    await login(t.app, '0097304153', 'Passw0rd');
  });

  it('reads full-width letters and digits in codes, accounts, classes and numbers as the ordinary ones (NFKC); names as typed', async () => {
    const res = await upload(await plain([heads(), ['Ｓ０１２', 'ｆｕｌｌ０１２', 'Passw0rd', '全形', 'Ｆｕｌｌ Width', '１Ａ', '３３', 'ｆｕｌｌ＠school.edu.hk', 'In school', null]]));
    expect(res.json(), res.body).toMatchObject({ code: 200, data: { added: 1 } });
    expect(await student('S012')).toMatchObject([{ code: 'S012', username: 'full012', nameEn: 'Ｆｕｌｌ Width', studentNumber: 33, email: 'full@school.edu.hk', status: '1' }]);
  });

  it.each(['en', 'zh-hk'] as const)('names the spreadsheet\'s own rows, empty rows not shifting them (%s)', async (lang) => {
    const res = await upload(await plain([
      heads(lang),
      ['S9301', 'rows9301', 'Passw0rd', '甲', 'Row Two', '1A', 301],
      [],
      [],
      ['S9302', 'rows9302', 'short', '乙', 'Row Five', '1A', 302],
      [null, null, null, null, null],
      ['X9303', 'rows9303', 'Passw0rd', '丙', 'Row Seven', '1A', 303],
    ]), lang);
    expect(res.json().code).toBe(706);
    expect(res.json().data).toEqual([
      rowLine(lang, 5, 'password', fieldMessage('password', lang)),
      rowLine(lang, 7, 'code', fieldMessage('studentCode', lang)),
    ]);
    expect(await student('rows93')).toEqual([]);
  });

  it.each(['en', 'zh-hk'] as const)('refuses merged headings and a column of data without a heading, naming them (%s)', async (lang) => {
    const file = await book((w) => {
      const sheet = w.addWorksheet('students');
      const h = heads(lang);
      // the names' heading merged over two columns, as a school centres a title
      sheet.addRow([...h.slice(0, 4), null, ...h.slice(5), null]);
      sheet.mergeCells('D1:E1');
      sheet.addRow(['S9401', 'merge9401', 'Passw0rd', '甲', 'Merged', '1A', 401, null, 'In school', null, 'a note']);
    });
    const res = await upload(file, lang);
    expect(res.json().code).toBe(706);
    expect(res.json().data).toEqual([
      fieldMessage('import.mergedHeading', lang, { cells: 'D1:E1', text: label('nameHk', lang) }),
      fieldMessage('import.blankHeading', lang, { column: 'K' }),
      // English name is under the merged cell: its heading is missing
      lang === 'en' ? `Import template error: missing columns ${label('nameEn', lang)}` : `匯入範本錯誤：缺少欄位 ${label('nameEn', lang)}`,
    ]);
    expect(await student('merge9401')).toEqual([]);
  });

  it('reads the first visible sheet, not a hidden one in front', async () => {
    const file = await book((w) => {
      w.addWorksheet('old list', { state: 'hidden' }).addRows([heads(), ['S9501', 'hidden9501', 'Passw0rd', '隱', 'Hidden Pupil', '1A', 501]]);
      w.addWorksheet('Sheet1').addRows([heads(), ['S9502', 'shown9502', 'Passw0rd', '見', 'Shown Pupil', '1A', 502]]);
    });
    expect((await upload(file)).json()).toMatchObject({ code: 200, data: { added: 1 } });
    expect(await student('hidden9501')).toEqual([]);
    expect(await student('shown9502')).toMatchObject([{ code: 'S9502' }]);
  });

  it('reads the first visible sheet of an .xls (BIFF8) too', async () => {
    const workbook = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(workbook, XLSX.utils.aoa_to_sheet([heads(), ['S9511', 'hiddenxls9511', 'Passw0rd', '隱', 'Hidden Xls', '1A', 511]]), 'old list');
    XLSX.utils.book_append_sheet(workbook, XLSX.utils.aoa_to_sheet([heads(), ['S9512', 'shownxls9512', 'Passw0rd', '見', 'Shown Xls', '1A', 512]]), 'Sheet1');
    workbook.Workbook = { Sheets: [{ Hidden: 1 }, { Hidden: 0 }] };
    const { payload, headers } = multipart('students.xls', XLSX.write(workbook, { bookType: 'biff8', type: 'buffer' }) as Buffer);
    const res = await t.app.inject({ method: 'POST', url: '/v1/students/import', payload, headers: { ...headers, ...bearer(admin), 'accept-language': 'en' } });
    expect(res.json(), res.body).toMatchObject({ code: 200, data: { added: 1 } });
    expect(await student('hiddenxls9511')).toEqual([]);
    expect(await student('shownxls9512')).toMatchObject([{ code: 'S9512' }]);
  });

  it('reads the sheet named as the template names it, wherever it is', async () => {
    const file = await book((w) => {
      w.addWorksheet('notes').addRows([['Fill in the next sheet'], ['S9601']]);
      w.addWorksheet('students').addRows([heads(), ['S9602', 'named9602', 'Passw0rd', '名', 'Named Sheet Pupil', '1A', 602]]);
    });
    expect((await upload(file)).json()).toMatchObject({ code: 200, data: { added: 1 } });
    expect(await student('named9602')).toMatchObject([{ code: 'S9602' }]);
  });

  it.each(['en', 'zh-hk'] as const)('refuses a leave date for a pupil still in school rather than dropping it (%s)', async (lang) => {
    const file = await book((w) => {
      const sheet = w.addWorksheet('students');
      sheet.addRow(heads(lang));
      sheet.addRow(['S9701', `leave9701${lang}`, 'Passw0rd', '留', 'Still Here', '1A', 701, null, choiceLabel('student', 'status', '1', lang), new Date(Date.UTC(2026, 8, 1))]);
    });
    const res = await upload(file, lang);
    expect(res.json().code).toBe(706);
    expect(res.json().data).toEqual([rowLine(lang, 2, 'leaveDate', fieldMessage('leaveDateInSchool', lang))]);
    expect(fieldMessage('leaveDateInSchool', lang)).not.toBe(fieldMessage('format', lang));
  });

  it('re-imports an export: refused as existing unless asked, then updated or skipped by code, counting each; the password only for new records', async () => {
    const c1a = (await call('GET', '/v1/classes')).json().data.list.find((c: { code: string }) => c.code === '1A').id;
    for (const [code, n] of [['S9801', 801], ['S9802', 802]] as const) {
      expect((await call('POST', '/v1/students', { code, username: `again${code}`, password: 'Passw0rd', nameHk: '再', nameEn: `Again ${code}`, classId: c1a, studentNumber: n })).json().code).toBe(201);
    }
    const res = await t.app.inject({ method: 'GET', url: '/v1/students/export?q=again&sort=code', headers: { ...bearer(admin), 'accept-language': 'en' } });
    const exported = res.rawPayload;

    // unchanged, without a choice: each existing record named, not "missing columns Password"
    for (const lang of ['en', 'zh-hk'] as const) {
      const refused = await upload(exported, lang);
      expect(refused.json().code).toBe(706);
      expect(refused.json().data).toEqual([
        rowLine(lang, 2, 'code', fieldMessage('import.exists', lang, { value: 'S9801' })),
        rowLine(lang, 3, 'code', fieldMessage('import.exists', lang, { value: 'S9802' })),
      ]);
    }

    // changed: a name corrected, a new pupil added — who needs a password, row by row
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(exported as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    sheet.getRow(2).getCell(4).value = 'Again Corrected';
    sheet.addRow(['S9803', 'againS9803', '新', 'Again New', '1A', 803, null, 'In school', null]);
    const changed = Buffer.from(await workbook.xlsx.writeBuffer());
    const noPassword = await upload(changed, 'en', 'update');
    expect(noPassword.json().data).toEqual([rowLine('en', 4, 'password', fieldMessage('required', 'en'))]);

    sheet.getRow(1).getCell(10).value = label('password');
    sheet.getRow(4).getCell(10).value = 'Passw0rd';
    const withPassword = Buffer.from(await workbook.xlsx.writeBuffer());
    const skipped = await upload(withPassword, 'en', 'skip');
    expect(skipped.json()).toEqual({ code: 200, msg: 'success', data: { imported: 1, added: 1, updated: 0, skipped: 2 } });
    expect((await student('S9801'))[0].nameEn).toBe('Again S9801');

    const updated = await upload(withPassword, 'en', 'update');
    expect(updated.json()).toEqual({ code: 200, msg: 'success', data: { imported: 3, added: 0, updated: 3, skipped: 0 } });
    expect(await student('S9801')).toMatchObject([{ nameEn: 'Again Corrected', classId: c1a, studentNumber: 801, status: '1' }]);
    expect(await student('S9802')).toMatchObject([{ nameEn: 'Again S9802', studentNumber: 802 }]);
    // the existing records kept their passwords; the new one has the sheet's
    await login(t.app, 'againS9801', 'Passw0rd');
    await login(t.app, 'againS9803', 'Passw0rd');
    expect((await call('GET', '/v1/students?q=again')).json().data.total).toBe(3);
  });

  it("imports next year's classes and numbers into the year chosen, leaving this year's as they are; exports a year's", async () => {
    const classes = (await call('GET', '/v1/classes')).json().data.list as { id: number; code: string }[];
    const [c2a, c3a] = ['2A', '3A'].map((code) => classes.find((c) => c.code === code)!.id);
    const year = (await call('POST', '/v1/school-years', { name: '2031-2032', beginDate: '2031-09-01', endDate: '2032-08-31' })).json().data;
    expect((await call('POST', '/v1/students', { code: 'S9901', username: 'yearS9901', password: 'Passw0rd', nameHk: '年', nameEn: 'Year One', classId: c2a, studentNumber: 901 })).json().code).toBe(201);
    const yearUpload = (content: Buffer, query: string) => {
      const { payload, headers } = multipart('students.xlsx', content);
      return t.app.inject({ method: 'POST', url: `/v1/students/import?${query}`, payload, headers: { ...headers, ...bearer(admin), 'accept-language': 'en' } });
    };
    // an existing pupil moves up next year; a new pupil joins next year only
    const file = await plain([heads(), ['S9901', 'yearS9901', null, '年', 'Year One', '3A', 95, null, null, null], ['S9902', 'yearS9902', 'Passw0rd', '新', 'Year Two', '3A', 96, null, null, null]]);
    const res = await yearUpload(file, `existing=update&schoolYearId=${year.id}`);
    expect(res.json()).toEqual({ code: 200, msg: 'success', data: { imported: 2, added: 1, updated: 1, skipped: 0 } });
    const [one] = await student('S9901');
    const [two] = await student('S9902');
    expect(one).toMatchObject({ classId: c2a, studentNumber: 901 });
    expect(two).toMatchObject({ classId: null, studentNumber: null });
    const next = (await call('GET', `/v1/students?schoolYearId=${year.id}&classId=${c3a}&sort=studentNumber`)).json().data.list as { code: string; studentNumber: number }[];
    expect(next.map((s) => [s.code, s.studentNumber])).toEqual([['S9901', 95], ['S9902', 96]]);
    // next year's places are taken now: a second file giving the same number is refused, naming the row
    const clash = await plain([heads(), ['S9903', 'yearS9903', 'Passw0rd', '三', 'Year Three', '3A', 96, null, null, null]]);
    expect((await yearUpload(clash, `schoolYearId=${year.id}`)).json()).toMatchObject({ code: 706, data: [rowLine('en', 2, 'studentNumber', fieldMessage('classNumberTaken', 'en'))] });
    // this year the same number in 3A is free
    expect((await yearUpload(clash, '')).json()).toMatchObject({ code: 200, data: { added: 1 } });
    // a year that does not exist: nothing imported
    const ghost = await plain([heads(), ['S9904', 'yearS9904', 'Passw0rd', '四', 'Year Four', '3A', 97, null, null, null]]);
    expect((await yearUpload(ghost, 'schoolYearId=999999')).json().code).toBe(404);
    expect(await student('S9904')).toEqual([]);
    // the export of next year carries next year's classes
    const exported = await t.app.inject({ method: 'GET', url: `/v1/students/export?q=yearS99&sort=code&schoolYearId=${year.id}`, headers: { ...bearer(admin), 'accept-language': 'en' } });
    const read = XLSX.read(exported.rawPayload);
    const rows = XLSX.utils.sheet_to_json<unknown[]>(read.Sheets[read.SheetNames[0]], { header: 1 });
    const [head, ...body] = rows as unknown[][];
    const at = (name: string) => head.indexOf(label(name));
    expect(body.map((r) => [r[at('code')], r[at('classId')], r[at('studentNumber')]])).toEqual([['S9901', '3A', 95], ['S9902', '3A', 96], ['S9903', undefined, undefined]]);
    await call('DELETE', `/v1/school-years/${year.id}?cascade=1`);
  });

  it.each(['en', 'zh-hk'] as const)('names the file-size limit with its number for a 20 MB file (%s)', async (lang) => {
    // a zip's first bytes, then 20 MB: refused while it arrives, before anything reads it
    const big = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(20 * 2 ** 20, 0x41)]);
    const res = await upload(big, lang);
    expect(res.json()).toMatchObject({ code: 706, data: [fieldMessage('import.fileSize', lang, { limit: String(WORKBOOK_LIMITS.fileBytes / 2 ** 20) })] });
    expect(res.json().data[0]).toMatch(lang === 'en' ? /larger than 10 MB/ : /大於 10 MB/);
  });

  it('names the row limit with its number for 10,001 rows, in both languages', async () => {
    const rows = Array.from({ length: WORKBOOK_LIMITS.rows + 1 }, (_, i) => [`S${500000 + i}`, `many${i}`, 'Passw0rd', '多', 'Many', null, null]);
    const file = await plain([heads(), ...rows]);
    const en = await upload(file, 'en');
    expect(en.json().code).toBe(706);
    expect(en.json().data).toEqual([fieldMessage('import.rows', 'en', { limit: '10,000' })]);
    expect(en.json().data[0]).toContain('at most 10,000 rows');
    const zh = await upload(file, 'zh-hk');
    expect(zh.json().data).toEqual([fieldMessage('import.rows', 'zh-hk', { limit: '10,000' })]);
    expect(await student('many1')).toEqual([]);
  });
});
