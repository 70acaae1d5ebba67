// @ts-check
/**
 * The thread that reads one uploaded workbook (started by ./read.ts, one per file, with a memory
 * and a time limit): unpacks an .xlsx under the limits (./unpack.mjs), parses it with SheetJS,
 * and answers the first sheet as rows of cells — or why it was refused. Plain JavaScript that
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
 */

/**
 * @param {ReadRequest} request
 * @returns {Promise<unknown[][]>}
 */
async function read({ bytes, kind, limits }) {
  const file = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let data = file;
  if (kind === 'xlsx') {
    // the parser is given only what was unpacked and counted: the parts again, stored, so that
    // no size an archive declares reaches it
    const parts = await unpackXlsx(file, limits);
    const container = XLSX.CFB.utils.cfb_new();
    for (const [name, content] of parts) XLSX.CFB.utils.cfb_add(container, name, content, { unsafe: true });
    data = XLSX.CFB.write(container, { fileType: 'zip', type: 'buffer', compression: false });
  }
  /** @type {import('@e965/xlsx').WorkBook} */
  let workbook;
  try {
    // .xls is not compressed, so its rows are bounded while parsing: one more than allowed tells "too many"
    workbook = XLSX.read(data, { type: 'buffer', cellDates: true, dense: true, sheets: 0, ...(kind === 'xls' ? { sheetRows: limits.rows + 2 } : {}) });
  } catch {
    throw new Refusal('unreadable');
  }
  const sheet = workbook.Sheets[workbook.SheetNames[0]];
  if (!sheet) return [];
  const full = sheet['!fullref'];
  if (full && sheet['!ref'] && XLSX.utils.decode_range(full).e.r > XLSX.utils.decode_range(sheet['!ref']).e.r) throw new Refusal('rows');
  return XLSX.utils.sheet_to_json(sheet, { header: 1, raw: true, defval: null, blankrows: false });
}

try {
  parentPort?.postMessage({ rows: await read(workerData) });
} catch (error) {
  // anything the parser throws means the file cannot be read; the detail goes to the server's log
  parentPort?.postMessage(error instanceof Refusal ? { refused: error.reason } : { refused: 'unreadable', detail: String(error) });
}
