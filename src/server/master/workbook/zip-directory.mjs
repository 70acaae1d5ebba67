// @ts-check
import { Refusal } from './refusal.mjs';

/**
 * @typedef {object} ZipMember
 * @property {string} name        the member's path in the archive
 * @property {number} method      0 stored, 8 deflated (nothing else is read)
 * @property {number} crc         the CRC-32 its unpacked bytes must have
 * @property {number} dataStart   where its stored bytes begin
 * @property {number} dataEnd     where they end, as the central directory says (never past the archive)
 */

const END_OF_DIRECTORY = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_END = 0x06064b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const MAX32 = 0xffffffff;

/**
 * The members of a zip archive, read from its central directory (what every workbook reader
 * goes by) and checked against their local headers. Sizes are taken only to know where stored
 * bytes end: what a member unpacks to is counted while it is unpacked, never believed.
 * @param {Buffer} zip
 * @param {number} maxMembers
 * @returns {ZipMember[]}
 */
export function zipMembers(zip, maxMembers) {
  const bad = () => new Refusal('unreadable');
  const u16 = (at) => (at + 2 <= zip.length ? zip.readUInt16LE(at) : -1);
  const u32 = (at) => (at + 4 <= zip.length ? zip.readUInt32LE(at) : -1);
  const u64 = (at) => (at + 8 <= zip.length ? Number(zip.readBigUInt64LE(at)) : -1);

  // the end-of-directory record: within the last 64 KiB (its comment) of the archive
  let end = -1;
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at--) {
    if (zip.readUInt32LE(at) === END_OF_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) throw bad();
  let count = u16(end + 10);
  let at = u32(end + 16);
  if (count === 0xffff || at === MAX32) {
    const locator = end - 20;
    if (locator < 0 || u32(locator) !== ZIP64_LOCATOR) throw bad();
    const end64 = u64(locator + 8);
    if (end64 < 0 || u32(end64) !== ZIP64_END) throw bad();
    count = u64(end64 + 32);
    at = u64(end64 + 48);
  }
  if (count < 0 || at < 0) throw bad();
  if (count > maxMembers) throw new Refusal('complex');

  /** @type {ZipMember[]} */
  const members = [];
  for (let i = 0; i < count; i++) {
    if (u32(at) !== DIRECTORY_ENTRY) throw bad();
    const flags = u16(at + 8);
    const method = u16(at + 10);
    const crc = u32(at + 16);
    let compressed = u32(at + 20);
    let plain = u32(at + 24);
    const nameLength = u16(at + 28);
    const extraLength = u16(at + 30);
    const commentLength = u16(at + 32);
    let local = u32(at + 42);
    const nameAt = at + 46;
    if (nameAt + nameLength + extraLength + commentLength > zip.length) throw bad();
    const name = zip.toString('utf8', nameAt, nameAt + nameLength);
    // zip64: the sizes and offset that do not fit 32 bits follow in the extra field, in this order
    for (let x = nameAt + nameLength; x + 4 <= nameAt + nameLength + extraLength;) {
      const id = u16(x);
      const size = u16(x + 2);
      if (id === 0x0001) {
        let field = x + 4;
        const next = () => {
          const v = u64(field);
          field += 8;
          return v;
        };
        if (plain === MAX32) plain = next();
        if (compressed === MAX32) compressed = next();
        if (local === MAX32) local = next();
      }
      x += 4 + size;
    }
    at = nameAt + nameLength + extraLength + commentLength;
    if (name.endsWith('/')) continue; // a folder
    if (flags & 0x0001) throw bad(); // encrypted
    if (method !== 0 && method !== 8) throw bad();
    if (u32(local) !== LOCAL_HEADER) throw bad();
    const dataStart = local + 30 + u16(local + 26) + u16(local + 28);
    if (compressed < 0 || dataStart > zip.length) throw bad();
    members.push({ name, method, crc, dataStart, dataEnd: Math.min(zip.length, dataStart + compressed) });
  }
  return members;
}
