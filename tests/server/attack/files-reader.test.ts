import { describe, expect, it } from 'vitest';
import { WORKBOOK_LIMITS } from '../../../src/server/master/workbook/limits.js';
import { readWorkbook, WorkbookRefused } from '../../../src/server/master/workbook/read.js';
import { Turns } from '../../../src/server/master/workbook/turns.js';
import { repeatedMember, rowXml, sheet, SHEET_HEAD, SHEET_TAIL, workbook } from './files-archives.js';

/**
 * The workbook reader's own limits, below the import (which tests/server/attack/files-upload
 * drives over HTTP): a thread that runs out of its heap or its time is ended and the file
 * refused as too complex, the process going on; files wait their turn, and too many are refused.
 */
const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(WorkbookRefused);
  return (error as WorkbookRefused).reason;
};

describe('the workbook reader', () => {
  const good = workbook([sheet(1, [['Code', 'Name'], ['S1', 'Chan'], [1, 2]])]);

  it('answers the first sheet as rows of cells', async () => {
    expect((await readWorkbook(good, 'xlsx')).rows).toEqual([['Code', 'Name'], ['S1', 'Chan'], [1, 2]]);
  });

  it('counts rows that straddle the chunks the archive unpacks in', async () => {
    // rows of odd lengths, so that their tags fall across every position of a 64 KiB chunk
    const rows = Array.from({ length: WORKBOOK_LIMITS.rows + 1 }, (_, i) => [`${'x'.repeat(i % 97)}`, i]);
    expect((await readWorkbook(workbook([sheet(1, rows)]), 'xlsx')).rows).toHaveLength(WORKBOOK_LIMITS.rows + 1);
    expect(await refusal(readWorkbook(workbook([sheet(1, [...rows, ['one more', 0]])]), 'xlsx'))).toBe('rows');
  });

  it('ends a thread that runs out of its heap, and refuses the file as too complex', async () => {
    // 10,000 rows of 150 numbers: well inside the unpacked limit, far beyond a 16 MB heap
    const wide = workbook([repeatedMember('xl/worksheets/sheet1.xml', SHEET_HEAD, `<row>${'<c><v>1</v></c>'.repeat(150)}</row>`, 10_000, SHEET_TAIL)]);
    expect(await refusal(readWorkbook(wide, 'xlsx', { ...WORKBOOK_LIMITS, heapMb: 16 }))).toBe('complex');
    expect((await readWorkbook(good, 'xlsx')).rows).toHaveLength(3);
  });

  it('ends a thread that runs out of its time, and refuses the file as too complex', async () => {
    expect(await refusal(readWorkbook(good, 'xlsx', { ...WORKBOOK_LIMITS, milliseconds: 0 }))).toBe('complex');
    expect((await readWorkbook(good, 'xlsx')).rows).toHaveLength(3);
  });

  it('gives turns in order, and refuses beyond the waiting places', async () => {
    const turns = new Turns(1, 1);
    const order: string[] = [];
    expect(await turns.take()).toBe(true);
    const second = turns.take().then((ok) => order.push(`second ${ok}`));
    expect(await turns.take()).toBe(false);
    order.push('first done');
    turns.give();
    await second;
    turns.give();
    expect(order).toEqual(['first done', 'second true']);
    expect(await turns.take()).toBe(true);
  });

  it('keeps rows of formatting alone out of the count', async () => {
    const formatted = repeatedMember('xl/worksheets/sheet1.xml', SHEET_HEAD + rowXml(['Code']), '<row s="1" customFormat="1"><c r="A1" s="2"/></row>', WORKBOOK_LIMITS.rows * 3, SHEET_TAIL);
    expect((await readWorkbook(workbook([formatted]), 'xlsx')).rows).toEqual([['Code']]);
  });
});
