/**
 * Hand-made .xlsx archives for the hostile-file tests: a minimal workbook around a sheet given as
 * XML, or as a deflate stream built from repeated blocks, so that a sheet that unpacks to a
 * gigabyte takes a few megabytes and milliseconds to make (nothing of that size is ever held).
 */
import { constants, crc32, deflateRawSync } from 'node:zlib';

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/worksheets/sheet2.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`;
const ROOT_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const workbookXml = (sheets: number) => `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>${Array.from({ length: sheets }, (_, i) => `<sheet name="Sheet${i + 1}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('')}</sheets></workbook>`;
const workbookRels = (sheets: number) => `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${Array.from({ length: sheets }, (_, i) => `<Relationship Id="rId${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('')}</Relationships>`;

export const SHEET_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
export const SHEET_TAIL = '</sheetData></worksheet>';

/** One row of inline-string cells, as a sheet's XML writes it. */
export function rowXml(cells: (string | number)[]): string {
  return `<row>${cells.map((c) => (typeof c === 'number' ? `<c><v>${c}</v></c>` : `<c t="inlineStr"><is><t>${c}</t></is></c>`)).join('')}</row>`;
}

/** A member of the archive: its bytes as stored (deflated or not), with what the headers say. */
export interface Member {
  name: string;
  stored: Buffer;
  method: 0 | 8;
  size: number;
  crc: number;
}

/** A member deflated from its plain bytes. */
export function member(name: string, plain: string | Buffer): Member {
  const bytes = Buffer.isBuffer(plain) ? plain : Buffer.from(plain);
  return { name, stored: deflateRawSync(bytes), method: 8, size: bytes.length, crc: crc32(bytes) };
}

/**
 * A member whose plain text is `head`, then `block` repeated `times`, then `tail`, deflated as
 * one stream: each part is deflated once and flushed to a byte boundary with an empty dictionary,
 * so the repeated block's compressed bytes can simply be repeated.
 */
export function repeatedMember(name: string, head: string, block: string, times: number, tail: string): Member {
  const flush = (s: string) => deflateRawSync(Buffer.from(s), { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const packed = flush(block);
  const stored = Buffer.concat([flush(head), ...Array.from({ length: times }, () => packed), deflateRawSync(Buffer.from(tail), { level: 9 })]);
  let crc = crc32(head);
  const plainBlock = Buffer.from(block);
  for (let i = 0; i < times; i++) crc = crc32(plainBlock, crc);
  crc = crc32(tail, crc);
  const size = Buffer.byteLength(head) + plainBlock.length * times + Buffer.byteLength(tail);
  return { name, stored, method: 8, size, crc };
}

/** What the headers claim about a member, when they lie. */
export interface Lies {
  /** the uncompressed size written in the local and central headers */
  size?: number;
  /** the compressed size written there */
  compressedSize?: number;
}

/** A zip archive of the members (no zip64: every member here is under 4 GiB), the headers lying where told. */
export function zipArchive(members: Member[], lies: Record<string, Lies> = {}): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const m of members) {
    const name = Buffer.from(m.name);
    const said = { size: (lies[m.name]?.size ?? m.size) >>> 0, compressedSize: (lies[m.name]?.compressedSize ?? m.stored.length) >>> 0 };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0, 6);
    local.writeUInt16LE(m.method, 8);
    local.writeUInt32LE(0, 10);
    local.writeUInt32LE(m.crc >>> 0, 14);
    local.writeUInt32LE(said.compressedSize, 18);
    local.writeUInt32LE(said.size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0, 8);
    central.writeUInt16LE(m.method, 10);
    central.writeUInt32LE(0, 12);
    central.writeUInt32LE(m.crc >>> 0, 16);
    central.writeUInt32LE(said.compressedSize, 20);
    central.writeUInt32LE(said.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, m.stored);
    centrals.push(central, name);
    offset += local.length + name.length + m.stored.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(members.length, 8);
  end.writeUInt16LE(members.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A minimal .xlsx around the given sheets (the first one is the sheet QE reads). */
export function workbook(sheets: Member[], lies: Record<string, Lies> = {}): Buffer {
  return zipArchive([
    member('[Content_Types].xml', CONTENT_TYPES),
    member('_rels/.rels', ROOT_RELS),
    member('xl/workbook.xml', workbookXml(sheets.length)),
    member('xl/_rels/workbook.xml.rels', workbookRels(sheets.length)),
    ...sheets,
  ], lies);
}

/** A sheet member from rows of cells. */
export function sheet(index: number, rows: (string | number)[][]): Member {
  return member(`xl/worksheets/sheet${index}.xml`, SHEET_HEAD + rows.map(rowXml).join('') + SHEET_TAIL);
}
