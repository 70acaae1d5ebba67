// @ts-check
/**
 * The thread that reads one uploaded workbook (started by ./read.ts, one per file, with a memory
 * and a time limit): unpacks an .xlsx under the limits (./unpack.mjs), parses it with SheetJS,
 * and answers the sheet to import (./first-sheet.mjs) as rows of cells — or why it was refused. Plain JavaScript that
 * imports only npm packages, node: modules and its neighbours, so it loads the same under tsx,
 * Vitest and compiled JavaScript.
 */
import { Buffer } from 'node:buffer';
import { parentPort, workerData } from 'node:worker_threads';
import * as XLSX from '@e965/xlsx';
import { Refusal } from './refusal.mjs';
import { unpackXlsx } from './unpack.mjs';

/**
 * @typedef {object} ReadRequest
 * @property {Uint8Array} bytes   the uploaded file
 * @property {'xlsx' | 'xls'} kind
 * @property {{ rows: number, unpackedBytes: number, members: number }} limits
 * @property {string} [sheetName]  the sheet to read if the workbook has it (QE's template names its own)
 */

/**
 * A number format that only pads or decorates a whole number — 0000000000, "S"0000, or text (@):
 * a school uses it to show a code's leading zeros, so the import reads the cell as it is shown.
 */
const CODE_FORMAT = /^(?:"[^"]*"|\\.|0|@)+$/;

/**
 * @param {ReadRequest} request
 * @returns {Promise<import('./read.js').SheetCells>}
 */
async function read({ bytes, kind, limits, sheetName }) {
  const file = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let data = file;
  /** @type {string | null} */
  let chosen = null;
  if (kind === 'xlsx') {
    // the parser is given only what was unpacked and counted: the parts again, stored, so that
    // no size an archive declares reaches it
    const unpacked = await unpackXlsx(file, limits, sheetName);
    chosen = unpacked.sheetName;
    const container = XLSX.CFB.utils.cfb_new();
    for (const [name, content] of unpacked.parts) XLSX.CFB.utils.cfb_add(container, name, content, { unsafe: true });
    data = XLSX.CFB.write(container, { fileType: 'zip', type: 'buffer', compression: false });
  }
  /** @type {import('@e965/xlsx').WorkBook} */
  let workbook;
  try {
    // .xls is not compressed, so its rows are bounded while parsing: one more than allowed tells "too many"
    const only = kind === 'xls' ? {} : { sheets: chosen ?? 0 };
    workbook = XLSX.read(data, { type: 'buffer', cellDates: true, cellNF: true, dense: true, ...only, ...(kind === 'xls' ? { sheetRows: limits.rows + 2 } : {}) });
  } catch {
    throw new Refusal('unreadable');
  }
  if (chosen === null) {
    // the sheet named as asked, else the first a school can see (an .xls, or an archive that did not say)
    const listed = workbook.Workbook?.Sheets ?? [];
    chosen =
      workbook.SheetNames.find((n) => n === sheetName) ??
      workbook.SheetNames.find((n, i) => workbook.Sheets[n] && !listed[i]?.Hidden) ??
      workbook.SheetNames.find((n) => workbook.Sheets[n]) ??
      null;
  }
  const sheet = chosen === null ? undefined : workbook.Sheets[chosen];
  if (!sheet || !sheet['!ref']) return { rows: [], rowNumbers: [], firstColumn: 1, merges: [] };
  const full = sheet['!fullref'];
  const range = XLSX.utils.decode_range(sheet['!ref']);
  if (full && XLSX.utils.decode_range(full).e.r > range.e.r) throw new Refusal('rows');
  // the rows that hold a value, each with its number in the spreadsheet (empty rows between do
  // not shift the numbers); a code shown with its leading zeros is read as shown, not as the
  // number under it
  /** @type {unknown[][]} */
  const rows = [];
  /** @type {number[]} */
  const rowNumbers = [];
  const dense = /** @type {any[][]} */ (sheet["!data"] ?? []);
  for (let r = range.s.r; r <= range.e.r; r++) {
    const row = dense[r];
    if (!row) continue;
    /** @type {unknown[]} */
    const cells = [];
    for (let c = range.s.c; c <= range.e.c && c < row.length; c++) {
      const cell = row[c];
      let value = cell && cell.t !== 'z' && cell.t !== 'e' ? cell.v : null;
      if (cell && cell.t === 'n' && typeof cell.z === 'string' && CODE_FORMAT.test(cell.z) && typeof cell.w === 'string') value = cell.w;
      if (value === undefined || value === '') value = null;
      if (value !== null) cells[c - range.s.c] = value;
    }
    if (!cells.length) continue;
    rows.push(Array.from(cells, (v) => v ?? null));
    rowNumbers.push(r + 1);
  }
  const merges = (sheet['!merges'] ?? []).map((m) => ({ from: { row: m.s.r + 1, column: m.s.c + 1 }, to: { row: m.e.r + 1, column: m.e.c + 1 } }));
  return { rows, rowNumbers, firstColumn: range.s.c + 1, merges };
}

try {
  parentPort?.postMessage({ sheet: await read(workerData) });
} catch (error) {
  // anything the parser throws means the file cannot be read; the detail goes to the server's log
  parentPort?.postMessage(error instanceof Refusal ? { refused: error.reason } : { refused: 'unreadable', detail: String(error) });
}
