/**
 * How much of an uploaded workbook QE reads, in one place. Each is far beyond a school's real
 * file (10,000 pupils with a dozen columns unpack to about 10 MB) and far below what would hurt
 * the server; a file over a limit is refused with a 706 line that names the limit.
 */
export const WORKBOOK_LIMITS = {
  /** bytes of the uploaded file itself (the multipart limit of every upload, src/server/app.ts) */
  fileBytes: 10 * 2 ** 20,
  /** rows with data under the header row (the import's own limit since it was written) */
  rows: 10_000,
  /** bytes the archive's parts may unpack to in all (pictures and other sheets are not unpacked) */
  unpackedBytes: 32 * 2 ** 20,
  /** members of the archive (a workbook has a few dozen; thousands are only there to slow the reader) */
  members: 2_000,
  /** heap of the thread that parses one file (V8 old generation, MB); over it the thread is ended */
  heapMb: 384,
  /** time one file may take to unpack and parse; after it the thread is ended */
  milliseconds: 30_000,
  /** files parsed at once (each a thread with its own heap); the rest wait their turn */
  parallel: 2,
  /** files waiting for a turn; more are refused as "try later" rather than queued without end */
  waiting: 8,
} as const;

export type WorkbookLimits = { readonly [K in keyof typeof WORKBOOK_LIMITS]: number };
