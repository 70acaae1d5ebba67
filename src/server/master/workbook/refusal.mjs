// @ts-check
/**
 * Why a workbook is not read. The thread that reads it answers the reason; the import turns it
 * into a 706 line in the caller's language (src/server/master/sheets.ts).
 *   unpacked   — its parts unpack to more than the limit of bytes
 *   rows       — its sheet has more rows with data than the limit
 *   unreadable — it is damaged or incomplete, or not a workbook inside
 *   complex    — it needs more members, memory or time than a school's file ever does
 * @typedef {'unpacked' | 'rows' | 'unreadable' | 'complex'} RefusalReason
 */
export class Refusal extends Error {
  /** @param {RefusalReason} reason */
  constructor(reason) {
    super(`workbook refused: ${reason}`);
    this.reason = reason;
  }
}
