import ExcelJS from 'exceljs';
import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { XlsxWriter } from '../../../src/server/statistics/xlsx-writer.js';

describe('the plain xlsx writer of the statistics export', () => {
  it('writes sheets a spreadsheet reads back: text, numbers, bold headings, a frozen header, every character', async () => {
    const writer = new XlsxWriter();
    await writer.startSheet({ name: 'Summary: a/b [1]', widths: [40, 12] });
    await writer.row(['Title', 'Lunch & <snacks> "2026"'], 'first');
    await writer.row(['Replies', 25000]);
    await writer.startSheet({ name: 'Answers', widths: [10, 30], frozenRows: 1 });
    await writer.row(['No.', 'Answer'], true);
    for (let i = 1; i <= 600; i++) await writer.row([i, i % 2 ? '𠝹𨋢 峯 邨 嘅 咗 😀' : `bell\u0007 and tab\tend ${i}`]);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.concat(await writer.finish()) as unknown as ArrayBuffer);

    const [summary, answers] = workbook.worksheets;
    expect(summary.name).toBe('Summary  a b  1 ');
    expect(summary.getCell('A1').value).toBe('Title');
    expect(summary.getCell('B1').value).toBe('Lunch & <snacks> "2026"');
    expect(summary.getCell('A1').font?.bold).toBe(true);
    expect(summary.getCell('B1').font?.bold).toBeFalsy();
    expect(summary.getCell('B2').value).toBe(25000);
    expect(summary.getColumn(1).width).toBe(40);

    expect(answers.name).toBe('Answers');
    expect(answers.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(answers.getCell('B1').font?.bold).toBe(true);
    expect(answers.rowCount).toBe(601);
    expect(answers.getCell('A601').value).toBe(600);
    expect(answers.getCell('B2').value).toBe('𠝹𨋢 峯 邨 嘅 咗 😀');
    // a character XML cannot hold is dropped, the rest kept
    expect(answers.getCell('B3').value).toBe('bell and tab\tend 2');
  });

  it('keeps each distinct string once, with its spaces and line breaks', async () => {
    const writer = new XlsxWriter();
    await writer.startSheet({ name: 'Answers', widths: [10, 30] });
    const values = ['Agree', 'Disagree', '  two spaces before', 'after ', 'line\nbreak', ''];
    for (let i = 0; i < 300; i++) await writer.row([i, values[i % values.length], 'Agree']);
    const file = Buffer.concat(await writer.finish());
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect([2, 3, 4, 5, 6].map((r) => sheet.getCell(`B${r}`).value)).toEqual(['Disagree', '  two spaces before', 'after ', 'line\nbreak', null]);
    expect(sheet.getCell('C300').value).toBe('Agree');
    const zip = XLSX.CFB.read(file, { type: 'buffer' });
    const table = Buffer.from(XLSX.CFB.find(zip, '/xl/sharedStrings.xml')!.content as Uint8Array).toString('utf8');
    expect(table).toContain('uniqueCount="5"');
    expect(table.match(/<si>/g)).toHaveLength(5);
  });
});
