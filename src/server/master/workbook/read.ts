import { Worker } from 'node:worker_threads';
import { WORKBOOK_LIMITS, type WorkbookLimits } from './limits.js';
import { Turns } from './turns.js';

/** Why a workbook was not read (see ./refusal.mjs), or `busy`: too many files are being read. */
export type WorkbookRefusal = 'unpacked' | 'rows' | 'unreadable' | 'complex' | 'busy';

export class WorkbookRefused extends Error {
  constructor(
    readonly reason: WorkbookRefusal,
    readonly detail?: string,
  ) {
    super(`workbook refused: ${reason}${detail ? ` (${detail})` : ''}`);
  }
}

/** Cells merged into one, by their row and column numbers in the spreadsheet (from 1). */
export type Merge = { from: { row: number; column: number }; to: { row: number; column: number } };

/**
 * The sheet an import reads: its rows that hold a value, each row's number in the spreadsheet
 * (`rowNumbers`, in the same order), its cells from column `firstColumn` on, and its merged cells.
 */
export type SheetCells = { rows: unknown[][]; rowNumbers: number[]; firstColumn: number; merges: Merge[] };

type Answer = { sheet: SheetCells } | { refused: Exclude<WorkbookRefusal, 'busy'>; detail?: string };

const WORKER = new URL('./read-workbook.worker.mjs', import.meta.url);

// Process-wide on purpose: the threads, their heaps and the two cores belong to the process,
// whichever app instance (or test) asks for them.
const turns = new Turns(WORKBOOK_LIMITS.parallel, WORKBOOK_LIMITS.waiting);

/**
 * The sheet to import of an uploaded .xlsx or .xls — the one named `sheetName` if there is one,
 * else the first visible one — as rows of cells (dates as Date, codes as shown), read in a
 * thread of its own with a memory and a time limit, so that no file — a zip bomb included —
 * holds this thread's event loop or takes the process's memory. Throws WorkbookRefused.
 * `limits` other than the defaults are for tests of the limits themselves.
 */
export async function readWorkbook(file: Uint8Array, kind: 'xlsx' | 'xls', limits: Omit<WorkbookLimits, 'parallel' | 'waiting'> = WORKBOOK_LIMITS, sheetName?: string): Promise<SheetCells> {
  if (!(await turns.take())) throw new WorkbookRefused('busy');
  try {
    return await inThread(file, kind, limits, sheetName);
  } finally {
    turns.give();
  }
}

function inThread(file: Uint8Array, kind: 'xlsx' | 'xls', limits: Omit<WorkbookLimits, 'parallel' | 'waiting'>, sheetName?: string): Promise<SheetCells> {
  // a copy that owns its memory, handed over to the thread rather than copied again
  const bytes = new Uint8Array(file);
  const { rows, unpackedBytes, members, heapMb, milliseconds } = limits;
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, {
      workerData: { bytes, kind, limits: { rows, unpackedBytes, members }, sheetName },
      transferList: [bytes.buffer],
      resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 32 },
    });
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
      void worker.terminate();
    };
    const timer = setTimeout(() => settle(() => reject(new WorkbookRefused('complex', `over ${milliseconds} ms`))), milliseconds);
    worker.once('message', (answer: Answer) => settle(() => ('sheet' in answer ? resolve(answer.sheet) : reject(new WorkbookRefused(answer.refused, answer.detail)))));
    worker.once('error', (error: Error & { code?: string }) => {
      // over its heap: the file needs more than any school's file; anything else is QE's own fault
      settle(() => reject(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new WorkbookRefused('complex', error.message) : error));
    });
    worker.once('exit', (code) => settle(() => reject(new WorkbookRefused('complex', `the reading thread ended (${code})`))));
  });
}
