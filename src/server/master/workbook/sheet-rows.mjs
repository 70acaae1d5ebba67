// @ts-check
import { Buffer } from 'node:buffer';

/** A row's start and a cell's value (`<v>`, or `<is>` for an inline string), with any namespace prefix. */
const TAGS = /<(?:[A-Za-z_][\w.-]{0,31}:)?(row|v|is)(?=[\s/>])/g;
/** Longer than any tag name TAGS looks for: what is kept back from a chunk until the next one. */
const OVERLAP = 48;

/**
 * Counts the rows of a worksheet's XML that hold a value, fed in chunks as the part unpacks, so
 * that reading stops at the limit rather than after parsing. Rows Excel keeps only for their
 * formatting hold no value and are not counted (nor read as data by the import).
 */
export class RowCounter {
  rows = 0;
  #inRow = false;
  #counted = false;
  #carry = '';

  /** @param {Buffer} chunk */
  feed(chunk) {
    // the tags are ASCII, so one byte per character keeps a split multi-byte character harmless
    const text = this.#carry + chunk.toString('latin1');
    const cut = Math.max(0, text.length - OVERLAP);
    for (const match of text.matchAll(TAGS)) {
      if ((match.index ?? 0) >= cut) break; // seen again, whole, with the next chunk
      if (match[1] === 'row') {
        this.#inRow = true;
        this.#counted = false;
      } else if (this.#inRow && !this.#counted) {
        this.rows++;
        this.#counted = true;
      }
    }
    this.#carry = text.slice(cut);
  }

  /** The last bytes, kept back from the last chunk. */
  end() {
    this.feed(Buffer.alloc(OVERLAP, 0x20));
  }
}
