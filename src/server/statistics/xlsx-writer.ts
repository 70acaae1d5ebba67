import { ZipWriter } from '../zip-writer.js';
import { eventLoopTurns } from '../event-loop-turns.js';

/**
 * A minimal .xlsx writer for large, plain sheets (the statistics export's 25,000 rows × 70
 * columns): the sheet's XML written as text and zipped as it goes (../zip-writer.ts, deflated
 * off the event loop), a bold and a wrapped style. exceljs's streaming writer built objects for every cell
 * and zipped on the event loop (10 s for 25,000 replies); this yields to the event loop between
 * batches of rows. Strings go to the shared-strings table, each once: a sheet of answers repeats
 * the same few labels (a grid's columns, a choice, a class) in most of its cells, and an index is
 * a fraction of the inline markup to build, escape, encode and deflate.
 */
export type CellValue = string | number | null | undefined;

export interface SheetOptions {
  name: string;
  /** column widths in characters */
  widths: number[];
  /** rows kept in view at the top (the header) */
  frozenRows?: number;
}

const encoder = new TextEncoder();
/** Characters XML 1.0 does not allow: dropped, as a spreadsheet could not open the file otherwise. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is looked for
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
// eslint-disable-next-line no-control-regex -- as NOT_XML, with what XML escapes
const ESCAPED = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF&<>"]/;
const escapeXml = (text: string) => (ESCAPED.test(text) ? text.replace(NOT_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;') : text);
/** Leading or trailing white space, or a line break: kept only where the text says so. */
const SPACED = /^\s|\s$|\n/;
/** Sheet names may not hold : \ / ? * [ ] and are at most 31 characters. */
const sheetName = (name: string) => name.replace(/[:\\/?*[\]]/g, ' ').slice(0, 31);

const columnNames: string[] = [];
function columnName(i: number): string {
  let name = columnNames[i];
  if (name === undefined) {
    name = '';
    for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
    columnNames[i] = name;
  }
  return name;
}

/**
 * How long the rows (and the caller's work between them) may hold the event loop before they are
 * handed to zlib and the loop turns: by time, as a row of 40 answers costs ten times one of 4.
 */
const TURN_MS = 8;

export class XlsxWriter {
  /**
   * The file's bytes, part after part, sent one after another (Readable.from): joined into one
   * buffer they cost a copy of the whole file in one turn of the event loop (55 ms for the 10 MB
   * of a 25,000-reply export).
   */
  private readonly parts: Buffer[] = [];
  private readonly zip = new ZipWriter((part) => this.parts.push(part));
  private readonly sheets: string[] = [];
  private current: { file: ReturnType<ZipWriter['entry']>; rows: number; pending: string[] } | null = null;
  /** each distinct string's place in the shared-strings table */
  private readonly strings = new Map<string, number>();
  private readonly turns = eventLoopTurns(TURN_MS);
  private uses = 0;

  private stringIndex(text: string): number {
    this.uses++;
    let index = this.strings.get(text);
    if (index === undefined) {
      index = this.strings.size;
      this.strings.set(text, index);
    }
    return index;
  }

  private async add(path: string, text: string) {
    const file = this.zip.entry(path);
    await file.write(encoder.encode(text));
    await file.end();
  }

  /** Starts a sheet; rows are added to it until the next one starts or the workbook ends. */
  async startSheet(options: SheetOptions): Promise<void> {
    await this.endSheet();
    this.sheets.push(sheetName(options.name));
    const file = this.zip.entry(`xl/worksheets/sheet${this.sheets.length}.xml`);
    const frozen = options.frozenRows
      ? `<sheetViews><sheetView workbookViewId="0"><pane ySplit="${options.frozenRows}" topLeftCell="A${options.frozenRows + 1}" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>`
      : '<sheetViews><sheetView workbookViewId="0"/></sheetViews>';
    const cols = options.widths.length ? `<cols>${options.widths.map((w, i) => `<col min="${i + 1}" max="${i + 1}" width="${w}" customWidth="1"/>`).join('')}</cols>` : '';
    this.current = { file, rows: 0, pending: [] };
    this.current.pending.push(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${frozen}${cols}<sheetData>`);
  }

  /** Adds a row (bold: every cell, or 'first' the first alone); yields to the event loop every TURN_MS. */
  async row(values: CellValue[], bold: boolean | 'first' = false): Promise<void> {
    const sheet = this.current;
    if (!sheet) throw new Error('no sheet started');
    const r = ++sheet.rows;
    let xml = `<row r="${r}">`;
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (v === null || v === undefined || v === '') continue;
      // styles.xml: 1 bold; a text with line breaks shows them only wrapped (2, 3 with bold)
      const index = (bold === true || (bold === 'first' && i === 0) ? 1 : 0) + (typeof v === 'string' && v.includes('\n') ? 2 : 0);
      const style = index ? ` s="${index}"` : '';
      const ref = `${columnName(i)}${r}`;
      if (typeof v === 'number') xml += Number.isFinite(v) ? `<c r="${ref}"${style}><v>${v}</v></c>` : '';
      else xml += `<c r="${ref}"${style} t="s"><v>${this.stringIndex(v)}</v></c>`;
    }
    sheet.pending.push(`${xml}</row>`);
    if (this.turns.due()) {
      await this.flush();
      await this.turns();
    }
  }

  private async flush() {
    const sheet = this.current!;
    const text = sheet.pending.join('');
    sheet.pending = [];
    await sheet.file.write(encoder.encode(text));
  }

  private async endSheet() {
    if (!this.current) return;
    this.current.pending.push('</sheetData></worksheet>');
    await this.flush();
    await this.current.file.end();
    this.current = null;
  }

  /** The shared-strings table, in the order the strings were first used, written a batch at a time. */
  private async sharedStrings() {
    const file = this.zip.entry('xl/sharedStrings.xml');
    let pending = [`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${this.uses}" uniqueCount="${this.strings.size}">`];
    let n = 0;
    for (const text of this.strings.keys()) {
      pending.push(SPACED.test(text) ? `<si><t xml:space="preserve">${escapeXml(text)}</t></si>` : `<si><t>${escapeXml(text)}</t></si>`);
      if (++n % 100 === 0 && this.turns.due()) {
        await file.write(encoder.encode(pending.join('')));
        pending = [];
        await this.turns();
      }
    }
    pending.push('</sst>');
    await file.write(encoder.encode(pending.join('')));
    await file.end();
  }

  /** Ends the workbook: its parts written, the zip closed; answers the file's bytes in parts (ZipWriter.finish). */
  async finish(): Promise<Buffer[]> {
    await this.endSheet();
    await this.sharedStrings();
    const sheets = this.sheets;
    await this.add('[Content_Types].xml', `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>${sheets.map((_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`).join('')}</Types>`);
    await this.add('_rels/.rels', `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`);
    await this.add('xl/workbook.xml', `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>${sheets.map((name, i) => `<sheet name="${escapeXml(name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('')}</sheets></workbook>`);
    await this.add('xl/_rels/workbook.xml.rels', `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${sheets.map((_, i) => `<Relationship Id="rId${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('')}<Relationship Id="rId${sheets.length + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/><Relationship Id="rId${sheets.length + 2}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>`);
    await this.add('xl/styles.xml', `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="4"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0" applyAlignment="1"><alignment vertical="top" wrapText="1"/></xf><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1" applyAlignment="1"><alignment vertical="top" wrapText="1"/></xf></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`);
    this.zip.finish();
    return this.parts;
  }
}
