// @ts-check
import { Buffer } from 'node:buffer';
import { crc32, createInflateRaw } from 'node:zlib';
import { Refusal } from './refusal.mjs';
import { RowCounter } from './sheet-rows.mjs';
import { firstSheetPath } from './first-sheet.mjs';
import { zipMembers } from './zip-directory.mjs';

/** @typedef {import('./zip-directory.mjs').ZipMember} ZipMember */
/** @typedef {{ rows: number, unpackedBytes: number, members: number }} UnpackLimits */
/** @typedef {{ parts: Map<string, Buffer>, sheetName: string | null }} Unpacked */

const CHUNK = 64 * 1024;
/** Parts no reader of cell values opens: pictures, embedded files, printer settings. */
const NOT_READ = /^xl\/(media|embeddings|printerSettings)\//i;
const WORKSHEET = /(^|\/)worksheets\/[^/]+$/i;

/**
 * The parts of an .xlsx archive that the workbook reader needs, unpacked under the limits: every
 * byte that comes out of the inflater is counted against `unpackedBytes` (the sizes the archive
 * declares can lie), and the rows of the first sheet are counted as its XML comes out, so a
 * zip bomb stops at the limit, after a few megabytes, not when memory runs out. Other sheets are
 * not unpacked at all: the import reads only the one ./first-sheet.mjs chooses.
 * @param {Buffer} zip
 * @param {UnpackLimits} limits
 * @param {string} [preferred]  the sheet name to read if the workbook has it
 * @returns {Promise<Unpacked>} parts by their path in the archive, and the name of the sheet to read
 */
export async function unpackXlsx(zip, limits, preferred) {
  const members = zipMembers(zip, limits.members).filter((m) => !NOT_READ.test(m.name));
  let left = limits.unpackedBytes;
  /** @type {Map<string, Buffer>} */
  const parts = new Map();
  const take = async (/** @type {ZipMember} */ member, /** @type {RowCounter | null} */ rows) => {
    /** @type {Buffer[]} */
    const chunks = [];
    await unpack(zip, member, (chunk) => {
      left -= chunk.length;
      if (left < 0) throw new Refusal('unpacked');
      chunks.push(chunk);
      if (!rows) return;
      rows.feed(chunk);
      // the header row and the rows of data
      if (rows.rows > limits.rows + 1) throw new Refusal('rows');
    });
    if (rows) {
      rows.end();
      if (rows.rows > limits.rows + 1) throw new Refusal('rows');
    }
    parts.set(member.name, Buffer.concat(chunks));
  };

  const sheets = members.filter((m) => WORKSHEET.test(m.name));
  for (const member of members) if (!sheets.includes(member)) await take(member, null);
  const byPath = new Map([...parts].map(([name, data]) => [name.toLowerCase(), data]));
  const first = firstSheetPath((path) => byPath.get(path)?.toString('utf8'), preferred);
  for (const member of sheets) {
    if (first !== null && member.name.toLowerCase() !== first.path) continue;
    await take(member, member.name.toLowerCase().endsWith('.xml') ? new RowCounter() : null);
  }
  return { parts, sheetName: first?.name ?? null };
}

/**
 * Unpacks one member in chunks, handing each to `onChunk` as it comes out (which may throw to
 * stop). A damaged stream, or bytes whose CRC-32 is not the one the archive gives, are
 * `unreadable`: a damaged part is refused rather than read as whatever it decodes to.
 * @param {Buffer} zip
 * @param {ZipMember} member
 * @param {(chunk: Buffer) => void} onChunk
 */
async function unpack(zip, member, onChunk) {
  const stored = zip.subarray(member.dataStart, member.dataEnd);
  let crc = 0;
  const take = (/** @type {Buffer} */ chunk) => {
    crc = crc32(chunk, crc);
    onChunk(chunk);
  };
  if (member.method === 0) {
    for (let at = 0; at < stored.length; at += CHUNK) take(stored.subarray(at, at + CHUNK));
  } else {
    const inflater = createInflateRaw({ chunkSize: CHUNK });
    inflater.end(stored);
    try {
      for await (const chunk of inflater) take(chunk);
    } catch (error) {
      if (error instanceof Refusal) throw error;
      throw new Refusal('unreadable');
    } finally {
      inflater.destroy();
    }
  }
  if (crc >>> 0 !== member.crc) throw new Refusal('unreadable');
}
