import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import * as XLSX from '@e965/xlsx';
import { errorText } from '../../../src/shared/errors.js';
import { fieldMessage } from '../../../src/shared/field-messages.js';
import { fieldLabel } from '../../../src/shared/master/labels.js';
import { WORKBOOK_LIMITS } from '../../../src/server/master/workbook/limits.js';
import { login, testApp, type TestApp } from '../harness.js';
import { multipart } from '../master/helpers.js';
import { member, repeatedMember, rowXml, sheet, SHEET_HEAD, SHEET_TAIL, workbook, zipArchive } from './files-archives.js';

/**
 * Hostile workbooks sent to the import over real HTTP on loopback: zip bombs, honest
 * and lying, a sheet over the row limit, damaged archives. Each is refused with the 706 line
 * that says why — never a 500 — while the server keeps answering other requests, and a good
 * file imports afterwards. Every file is built here, in a few megabytes and milliseconds.
 */

const GiB = 2 ** 30;
const MiB = 2 ** 20;
const rowsLimit = WORKBOOK_LIMITS.rows.toLocaleString('en-US');
const LINE = {
  unpacked: fieldMessage('import.unpacked', 'en', { limit: (WORKBOOK_LIMITS.unpackedBytes / MiB).toLocaleString('en-US') }),
  rows: fieldMessage('import.rows', 'en', { limit: rowsLimit }),
  unreadable: fieldMessage('import.unreadable', 'en'),
  complex: fieldMessage('import.complex', 'en'),
};
const refused = (line: string) => ({ code: 706, msg: errorText('IMPORT_ERRORS', 'en'), data: [line] });

const STUDENT_FIELDS = ['code', 'username', 'password', 'nameHk', 'nameEn', 'classId', 'studentNumber'];
const header = (lang: 'en' | 'zh-hk' = 'en') => STUDENT_FIELDS.map((f) => fieldLabel('student', f, lang));

/** A sheet whose one cell holds `size` bytes of text: 1 GiB unpacks from about 2.5 MB. */
const bigCell = (size: number) => repeatedMember('xl/worksheets/sheet1.xml', `${SHEET_HEAD}<row><c t="inlineStr"><is><t>`, 'A'.repeat(MiB), size / MiB, `</t></is></c></row>${SHEET_TAIL}`);
/** A sheet of about `size` bytes of small rows with a value each (20 million rows in 1 GiB). */
const manyRows = (size: number) => {
  const block = rowXml(['x', 1]).repeat(20_000);
  return repeatedMember('xl/worksheets/sheet1.xml', SHEET_HEAD + rowXml(header()), block, Math.ceil(size / block.length), SHEET_TAIL);
};

describe('hostile workbooks', () => {
  let t: TestApp;
  let base: string;
  let admin: string;

  beforeAll(async () => {
    t = await testApp({ demo: true });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    admin = (await login(t.app, 'admin')).tk;
  });
  afterAll(async () => t?.close());

  /** Posts a file to the student import over HTTP; resolves when the body is sent, and again with the answer. */
  function post(file: Buffer, filename: string) {
    const { payload, headers } = multipart(filename, file);
    let sent!: () => void;
    const bodySent = new Promise<void>((resolve) => (sent = resolve));
    const answer = new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
      const req = request(`${base}/v1/students/import`, { method: 'POST', headers: { ...headers, 'content-length': String(payload.length), authorization: `Bearer ${admin}`, 'accept-language': 'en' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) }));
      });
      req.on('error', reject);
      req.on('finish', () => sent());
      req.end(payload);
    });
    return { bodySent, answer };
  }

  const lightGet = async () => {
    const res = await fetch(`${base}/v1/school-info`);
    expect(res.status).toBe(200);
    expect((await res.json()).code).toBe(200);
  };

  /**
   * Uploads a file and, from the moment its body is sent, asks for a light page again and again
   * until the import answers: answers how many of those were answered before the import was.
   */
  async function uploadWatched(file: Buffer, filename = 'students.xlsx') {
    const { bodySent, answer } = post(file, filename);
    let answered = false;
    const result = answer.then((a) => {
      answered = true;
      return a;
    });
    await bodySent;
    let before = 0;
    while (!answered) {
      await lightGet();
      if (!answered) before++;
    }
    return { ...(await result), before };
  }

  const students = async () => (await t.app.inject({ method: 'GET', url: '/v1/students?size=1', headers: { authorization: `Bearer ${admin}` } })).json().data.total as number;

  it.each([
    ['an honest zip bomb: a cell of 1 GiB in a 2.5 MB file', () => workbook([bigCell(GiB)]), LINE.unpacked],
    ['a zip bomb whose headers say the sheet unpacks to 1 KB', () => workbook([bigCell(GiB)], { 'xl/worksheets/sheet1.xml': { size: 1000 } }), LINE.unpacked],
    ['a zip bomb whose headers say the sheet unpacks to 4 GiB less a byte (so no reader trusts it)', () => workbook([bigCell(GiB)], { 'xl/worksheets/sheet1.xml': { size: 2 ** 32 - 1 } }), LINE.unpacked],
    ['a zip bomb of 20 million rows (1 GiB of sheet XML)', () => workbook([manyRows(GiB)]), LINE.rows],
    ['a zip bomb in the shared strings rather than the sheet', () => workbook([sheet(1, [header()]), repeatedMember('xl/sharedStrings.xml', '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">', '<si><t>x</t></si>'.repeat(50_000), 1_300, '</sst>')]), LINE.unpacked],
  ])('refuses %s with the 706 line, answering other requests meanwhile', async (_, build, line) => {
    const before = await students();
    const file = build();
    expect(file.length).toBeLessThan(10 * MiB);
    const { status, body, before: answeredMeanwhile } = await uploadWatched(file);
    expect(status).toBe(400);
    expect(body).toEqual(refused(line));
    // light requests sent after the upload were answered before it, one after another: the
    // server's event loop was free while the file was read (the old reader held it for seconds)
    expect(answeredMeanwhile).toBeGreaterThanOrEqual(2);
    expect(await students()).toBe(before);
  });

  it('says the same in zh-hk', async () => {
    const { payload, headers } = multipart('students.xlsx', workbook([bigCell(256 * MiB)]));
    const res = await t.app.inject({ method: 'POST', url: '/v1/students/import', payload, headers: { ...headers, authorization: `Bearer ${admin}`, 'accept-language': 'zh-HK' } });
    expect(res.json()).toEqual({ code: 706, msg: errorText('IMPORT_ERRORS', 'zh-hk'), data: [fieldMessage('import.unpacked', 'zh-hk', { limit: String(WORKBOOK_LIMITS.unpackedBytes / MiB) })] });
  });

  it('refuses three bombs sent at once, and still answers', async () => {
    const uploads = [workbook([bigCell(GiB)]), workbook([manyRows(GiB)]), workbook([bigCell(GiB)], { 'xl/worksheets/sheet1.xml': { size: 10 } })].map((f) => post(f, 'students.xlsx'));
    await Promise.all(uploads.map((u) => u.bodySent));
    await lightGet();
    const answers = await Promise.all(uploads.map((u) => u.answer));
    expect(answers.map((a) => a.body)).toEqual([refused(LINE.unpacked), refused(LINE.rows), refused(LINE.unpacked)]);
  });

  it(`reads a sheet of ${rowsLimit} rows of data under its header, and refuses one more`, async () => {
    // rows the template does not name: read whole, then refused for the missing columns
    const rows = (n: number) => [['Code'], ...Array.from({ length: n }, (_, i) => [`S${i}`])];
    const atLimit = await uploadWatched(workbook([sheet(1, rows(WORKBOOK_LIMITS.rows))]));
    expect(atLimit.body.data).toEqual([expect.stringMatching(/^Import template error: missing columns /)]);
    const over = await uploadWatched(workbook([sheet(1, rows(WORKBOOK_LIMITS.rows + 1))]));
    expect(over.body).toEqual(refused(LINE.rows));
    // rows Excel keeps for their formatting alone hold no data and are not counted
    const formatted = member('xl/worksheets/sheet1.xml', SHEET_HEAD + rows(3).map(rowXml).join('') + '<row s="1" customFormat="1"/>'.repeat(WORKBOOK_LIMITS.rows * 2) + SHEET_TAIL);
    expect((await uploadWatched(workbook([formatted]))).body.data).toEqual([expect.stringMatching(/^Import template error/)]);
  });

  it('refuses an ExcelJS workbook over the row limit, and an .xls one', async () => {
    const book = new ExcelJS.Workbook();
    const s = book.addWorksheet('students');
    s.addRow(header());
    for (let i = 0; i <= WORKBOOK_LIMITS.rows; i++) s.addRow([`S${i}`, `u${i}`, 'Passw0rd', '甲', 'A', '1A', 1]);
    expect((await uploadWatched(Buffer.from(await book.xlsx.writeBuffer()))).body).toEqual(refused(LINE.rows));

    const xls = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(xls, XLSX.utils.aoa_to_sheet([header(), ...Array.from({ length: WORKBOOK_LIMITS.rows + 1 }, (_, i) => [`S${i}`])]), 'students');
    expect((await uploadWatched(XLSX.write(xls, { bookType: 'biff8', type: 'buffer' }) as Buffer, 'students.xls')).body).toEqual(refused(LINE.rows));
  });

  it('reads only the first sheet: a large second sheet neither counts nor is unpacked', async () => {
    const rows = [header(), ['S7301', 'first7301', 'Passw0rd', '甲', 'First Sheet Pupil', '1A', 901]];
    const res = await uploadWatched(workbook([sheet(1, rows), manyRows(GiB)].map((m, i) => (i === 1 ? { ...m, name: 'xl/worksheets/sheet2.xml' } : m))));
    expect(res.body).toEqual({ code: 200, msg: 'success', data: { imported: 1, added: 1, updated: 0, skipped: 0 } });
  });

  it.each([
    ['cut short', (good: Buffer) => good.subarray(0, Math.floor(good.length / 2))],
    ['with its end record gone', (good: Buffer) => good.subarray(0, good.length - 22)],
    ['with the sheet damaged inside (its CRC no longer agrees)', (good: Buffer) => {
      // the sheet is the last part, just before the central directory
      const directory = good.readUInt32LE(good.length - 22 + 16);
      const damaged = Buffer.from(good);
      damaged.fill(0x55, directory - 12, directory - 4);
      return damaged;
    }],
    ['whose headers say a part is shorter than it is', () => workbook([sheet(1, [header(), ...Array.from({ length: 500 }, (_, i) => [`S${i}`])])], { 'xl/worksheets/sheet1.xml': { compressedSize: 40 } })],
    ['whose parts are stored by a method no workbook uses', () => zipArchive([{ ...member('[Content_Types].xml', '<Types/>'), method: 12 as 8 }])],
    ['that is a zip of something else', () => zipArchive([member('readme.txt', 'not a workbook')])],
  ])('refuses an archive %s as unreadable (706), never with a 500', async (_, damage) => {
    const good = workbook([sheet(1, [header(), ['S7401', 'dmg7401', 'Passw0rd', '甲', 'A', '1A', 902]])]);
    const { status, body } = await uploadWatched(damage(good));
    expect(status).toBe(400);
    expect(body).toEqual(refused(LINE.unreadable));
  });

  it('refuses an archive of more members than a workbook ever has', async () => {
    const members = [member('[Content_Types].xml', '<Types/>'), ...Array.from({ length: WORKBOOK_LIMITS.members }, (_, i) => member(`xl/x/${i}.xml`, ''))];
    expect((await uploadWatched(zipArchive(members))).body).toEqual(refused(LINE.complex));
  });

  it('keeps refusing what is not a workbook with 716', async () => {
    const { body } = await uploadWatched(Buffer.from('PK\x05\x06 not a zip at all'), 'students.xlsx');
    expect(body).toEqual({ code: 716, msg: errorText('FILE_TYPE_REFUSED', 'en'), data: null });
  });

  it('is still up afterwards, and imports a good file', async () => {
    const before = await students();
    const rows = [header(), ['S7501', 'after7501', 'Passw0rd', '甲', 'After The Bombs', '1A', 903], ['S7502', 'after7502', 'Passw0rd', '乙', 'After The Bombs Too', '1B', 903]];
    const { body } = await uploadWatched(workbook([sheet(1, rows)]));
    expect(body).toEqual({ code: 200, msg: 'success', data: { imported: 2, added: 2, updated: 0, skipped: 0 } });
    expect(await students()).toBe(before + 2);
    await login(t.app, 'after7501', 'Passw0rd');
  });
});
