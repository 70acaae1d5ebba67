import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import type { Definition } from '../../../src/shared/questionnaire/definition.js';
import { fieldLabel } from '../../../src/shared/master/labels.js';
import { bearer, login, testApp, type TestApp } from '../harness.js';
import { caller, multipart } from '../master/helpers.js';
import { as, classId, classStudents } from '../questionnaires/helpers.js';
import { opened } from '../filling/helpers.js';
import { submitAs } from '../statistics/helpers.js';

/**
 * Every .xlsx QE writes is safe to open (OWASP "CSV injection"): text that begins
 * with = + - @ (or a tab or carriage return) is written with a quote in front, so no
 * spreadsheet takes it for a formula; numbers stay numbers; and the import takes the quote off
 * again, so an export imports back to the same values. Files are read back with ExcelJS.
 */

/** The cells of one sheet, as plain values, row by row. */
function cells(sheet: ExcelJS.Worksheet): unknown[][] {
  const rows: unknown[][] = [];
  sheet.eachRow((row) => rows.push(Array.from({ length: sheet.columnCount }, (_, i) => row.getCell(i + 1).value ?? null)));
  return rows;
}

async function load(body: Buffer): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ArrayBuffer);
  return workbook;
}

describe('exported cells are neutralised', () => {
  let t: TestApp;
  let admin: string;
  let call: ReturnType<typeof caller>;

  beforeAll(async () => {
    t = await testApp({ demo: true });
    admin = (await login(t.app, 'admin')).tk;
    call = caller(t.app, admin);
  });
  afterAll(async () => t?.close());

  const FIELDS = ['code', 'username', 'nameHk', 'nameEn', 'classId', 'studentNumber', 'email', 'status', 'leaveDate', 'schoolAccount'] as const;
  const pupils = (c1a: number, c1b: number) => [
    { code: 'S8601', username: '@at8601', password: 'Passw0rd', nameHk: '=1+2', nameEn: '+SUM(1,2)', classId: c1a, studentNumber: 960, email: null },
    { code: 'S8602', username: '-dash8602', password: 'Passw0rd', nameHk: "'=quoted already", nameEn: '-2', classId: c1b, studentNumber: 960, email: 'dash@school.edu.hk' },
    { code: 'S8603', username: 'plain8603', password: 'Passw0rd', nameHk: '陳大文', nameEn: 'Chan Tai Man', classId: c1a, studentNumber: 961, email: null },
  ];

  it('writes formula-like text of the student export with a quote in front, numbers as numbers — and imports it back to the same values', async () => {
    const c1a = await classId(t.db, '1A');
    const c1b = await classId(t.db, '1B');
    const sent = pupils(c1a, c1b);
    for (const p of sent) expect((await call('POST', '/v1/students', p)).json().code).toBe(201);
    const stored = async () => ((await call('GET', '/v1/students?q=S860&sort=code')).json().data.list as Record<string, unknown>[]).map((s) => Object.fromEntries(FIELDS.map((f) => [f, s[f]])));
    const before = await stored();
    expect(before.map((s) => s.nameHk)).toEqual(['=1+2', "'=quoted already", '陳大文']);

    const res = await t.app.inject({ method: 'GET', url: '/v1/students/export?q=S860&sort=code', headers: { ...bearer(admin), 'accept-language': 'en' } });
    expect(res.statusCode).toBe(200);
    const exported = await load(res.rawPayload);
    const [header, ...rows] = cells(exported.worksheets[0]);
    expect(header).toEqual(FIELDS.map((f) => fieldLabel('student', f, 'en')));
    expect(rows.map((r) => r.slice(0, 6))).toEqual([
      ['S8601', "'@at8601", "'=1+2", "'+SUM(1,2)", '1A', 960],
      ['S8602', "'-dash8602", "''=quoted already", "'-2", '1B', 960],
      ['S8603', 'plain8603', '陳大文', 'Chan Tai Man', '1A', 961],
    ]);
    // ExcelJS reads a formula cell as {formula}: none here, only text and numbers
    for (const row of rows) for (const value of row) expect(value === null || ['string', 'number'].includes(typeof value), JSON.stringify(value)).toBe(true);
    expect(rows.map((r) => typeof r[5])).toEqual(['number', 'number', 'number']);

    // the same pupils again from the unchanged export: gone first, then imported with a
    // password column added (the export never holds passwords, the import needs one)
    const ids = ((await call('GET', '/v1/students?q=S860')).json().data.list as { id: number }[]).map((s) => s.id);
    for (const id of ids) expect((await call('DELETE', `/v1/students/${id}`)).json().code).toBe(200);
    const sheet = exported.worksheets[0];
    sheet.getRow(1).getCell(FIELDS.length + 1).value = fieldLabel('student', 'password', 'en');
    for (let r = 2; r <= sheet.rowCount; r++) sheet.getRow(r).getCell(FIELDS.length + 1).value = 'Passw0rd';
    const { payload, headers } = multipart('students.xlsx', Buffer.from(await exported.xlsx.writeBuffer()));
    const imported = await t.app.inject({ method: 'POST', url: '/v1/students/import', payload, headers: { ...headers, ...bearer(admin), 'accept-language': 'en' } });
    expect(imported.json()).toEqual({ code: 200, msg: 'success', data: { imported: 3, added: 3, updated: 0, skipped: 0 } });
    expect(await stored()).toEqual(before);
    await login(t.app, '@at8601', 'Passw0rd');
  });

  it('writes the statistics export the same way: respondents\' answers and the title', async () => {
    const teacher = await as(t, 'teacher01');
    const definition: Definition = {
      version: 1,
      sections: [{
        id: 's1',
        questions: [
          { id: 'say', type: 'SHORT_TEXT', title: 'Say something', required: true },
          { id: 'mood', type: 'LINEAR_SCALE', title: 'Mood', required: true, scale: { min: 1, max: 5 } },
        ],
      }],
    };
    const q = await opened(teacher, [{ kind: 'CLASS', ids: [await classId(t.db, '5A')] }], { definition, title: '=HYPERLINK("http://evil.example","Click")' });
    const said = ['=1+2', '@SUM(A1:A9)', '-3', '+cmd|\' /C calc\'!A0', 'A fine day', '3'];
    const respondents = (await classStudents(t.db, '5A')).slice(0, said.length);
    await submitAs(t, q.id, respondents, (i) => ({ say: said[i], mood: (i % 5) + 1 }));

    const res = await teacher('GET', `/v1/statistics/${q.id}/export`);
    expect(res.statusCode).toBe(200);
    const [summary, answers] = (await load(res.rawPayload)).worksheets;
    expect(cells(summary)[0]).toEqual(expect.arrayContaining(["'=HYPERLINK(\"http://evil.example\",\"Click\")"]));
    const [head, ...rows] = cells(answers);
    const sayColumn = head.indexOf('1. Say something');
    const moodColumn = head.indexOf('2. Mood');
    expect(sayColumn).toBeGreaterThan(0);
    expect(rows.map((r) => r[sayColumn]).sort()).toEqual(["'+cmd|' /C calc'!A0", "'-3", "'=1+2", "'@SUM(A1:A9)", '3', 'A fine day'].sort());
    expect(rows.map((r) => typeof r[moodColumn])).toEqual(rows.map(() => 'number'));
    for (const row of rows) for (const value of row) expect(value === null || ['string', 'number'].includes(typeof value), JSON.stringify(value)).toBe(true);
  });
});
