/**
 * The page layout of the PDF report: A4 portrait in millimetres, its margins and colours, the
 * Writer that sets text, label-value fields, tables and images down the page, and the foot of
 * every page. The document is pdfkit's (in points); the Writer converts. Every text goes
 * through faces.ts, which picks the font of each character and breaks the lines, and is drawn
 * run by run, each run in its font; pdfkit's ToUnicode map gives the text layer each glyph's
 * characters (those beyond the basic plane too).
 */
import { FALLBACK_FONT, PDF_FONT } from './font';
import type { Font } from 'fontkit';
import type { Face, Faces, Line } from './faces';
import type { Translate } from './options';

// A4 portrait, millimetres
export const PAGE_W = 210;
export const PAGE_H = 297;
export const MARGIN = 16;
const TOP = 16;
const BOTTOM = 18;
export const CONTENT_W = PAGE_W - 2 * MARGIN;
const PT = 0.3528; // mm per point
/** points per millimetre: pdfkit's unit */
const MM = 72 / 25.4;
const pt = (mm: number) => mm * MM;
/** Where a line's baseline is below its top, in ems (as before: 0.85 em). */
const BASELINE = 0.85;
export type Colour = [number, number, number];
export const GREY: Colour = [100, 100, 100];
const BLACK: Colour = [0, 0, 0];
const FONT_NAMES: Record<Face, string> = { main: PDF_FONT, fallback: FALLBACK_FONT };

/**
 * A fontkit font as pdfkit takes it: pdfkit draws with the very font faces.ts measured (its font
 * factory accepts a fontkit font as it is; its types name only files and bytes).
 */
export const asSource = (font: Font) => font as unknown as string;

export interface Column {
  header: string;
  /** share of the content width */
  width: number;
  align?: 'left' | 'right';
}

/** Writes down the page with a cursor, starting a new page when the next block does not fit. */
export class Writer {
  y = TOP;
  private fallbackRegistered = false;

  constructor(
    readonly doc: PDFKit.PDFDocument,
    readonly faces: Faces,
  ) {}

  lineHeight(size: number): number {
    return size * PT * 1.35;
  }

  ensure(height: number): void {
    if (this.y + height > PAGE_H - BOTTOM) {
      this.doc.addPage();
      this.y = TOP;
    }
  }

  gap(mm: number): void {
    this.y += mm;
  }

  /** A text's lines in `width` millimetres at `size` points. */
  lines(value: string, width: number, size: number): Line[] {
    return this.faces.wrap(value, pt(width), size);
  }

  /** The width of a text on one line, in millimetres. */
  textWidth(value: string, size: number): number {
    return this.faces.width(value, size) / MM;
  }

  /** Draws one line with its top at `y` (mm), starting at `x`, or ending there when aligned right. */
  draw(line: Line, x: number, y: number, size: number, color: Colour = BLACK, align: 'left' | 'right' = 'left'): void {
    const { doc } = this;
    let at = align === 'right' ? pt(x) - line.width : pt(x);
    for (const run of line.runs) {
      if (run.face === 'fallback' && !this.fallbackRegistered && this.faces.fallback) {
        doc.registerFont(FALLBACK_FONT, asSource(this.faces.fallback));
        this.fallbackRegistered = true;
      }
      if (run.text) {
        doc.font(FONT_NAMES[run.face]).fontSize(size).fillColor(color);
        doc.text(run.text, at, pt(y), { lineBreak: false, baseline: -BASELINE * size });
      }
      at += run.width;
    }
  }

  text(value: string, { size = 10, color = BLACK, indent = 0, after = 1 }: { size?: number; color?: Colour; indent?: number; after?: number } = {}): void {
    const lh = this.lineHeight(size);
    for (const line of this.lines(value, CONTENT_W - indent, size)) {
      this.ensure(lh);
      this.draw(line, MARGIN + indent, this.y, size, color);
      this.y += lh;
    }
    this.y += after;
  }

  /** label: value pairs, the labels in a column of their own */
  fields(pairs: [string, string][], size = 10): void {
    const labelW = Math.min(55, Math.max(...pairs.map(([l]) => this.textWidth(l, size))) + 4);
    const lh = this.lineHeight(size);
    for (const [label, value] of pairs) {
      const lines = this.lines(value, CONTENT_W - labelW, size);
      this.ensure(lh * lines.length);
      const labelLine = this.lines(label, Infinity, size)[0];
      if (labelLine) this.draw(labelLine, MARGIN, this.y, size, GREY);
      lines.forEach((line, i) => this.draw(line, MARGIN + labelW, this.y + i * lh, size));
      this.y += lh * lines.length + 0.6;
    }
  }

  /** A rule across the page at the cursor. */
  rule(): void {
    this.doc.save().moveTo(pt(MARGIN), pt(this.y)).lineTo(pt(PAGE_W - MARGIN), pt(this.y)).lineWidth(pt(0.4)).strokeColor([120, 120, 120]).stroke().restore();
  }

  /** A table with a shaded header, repeated on every page it runs over. */
  table(columns: Column[], rows: string[][], size = 9): void {
    const { doc } = this;
    const pad = 1.4;
    const lh = this.lineHeight(size);
    const widths = columns.map((c) => c.width * CONTENT_W);
    const cellLines = (cells: string[]) => cells.map((cell, i) => this.lines(cell, widths[i] - 2 * pad, size));
    const heightOf = (cells: Line[][]) => Math.max(...cells.map((c) => c.length)) * lh + 2 * pad;
    const drawRow = (cells: Line[][], header: boolean) => {
      const height = heightOf(cells);
      let x = MARGIN;
      if (header) doc.save().rect(pt(MARGIN), pt(this.y), pt(CONTENT_W), pt(height)).fill([238, 238, 238]).restore();
      cells.forEach((lines, i) => {
        const right = columns[i].align === 'right';
        lines.forEach((line, j) => this.draw(line, right ? x + widths[i] - pad : x + pad, this.y + pad + j * lh, size, BLACK, right ? 'right' : 'left'));
        x += widths[i];
      });
      doc.save().moveTo(pt(MARGIN), pt(this.y + height)).lineTo(pt(MARGIN + CONTENT_W), pt(this.y + height)).lineWidth(pt(0.2)).strokeColor([190, 190, 190]).stroke().restore();
      this.y += height;
    };
    const header = cellLines(columns.map((c) => c.header));
    const bodies = rows.map(cellLines);
    this.ensure(heightOf(header) + (bodies.length ? heightOf(bodies[0]) : 0));
    drawRow(header, true);
    for (const body of bodies) {
      if (this.y + heightOf(body) > PAGE_H - BOTTOM) {
        this.ensure(PAGE_H); // a new page
        drawRow(header, true);
      }
      drawRow(body, false);
    }
    this.y += 2;
  }

  /** A PNG (its bytes: png.ts) centred across the page, `widthMm` wide. */
  image(png: Uint8Array, widthPx: number, heightPx: number, widthMm: number): void {
    const heightMm = (widthMm * heightPx) / widthPx;
    this.ensure(heightMm);
    const bytes = png.byteOffset === 0 && png.byteLength === png.buffer.byteLength ? png.buffer : png.slice().buffer;
    this.doc.image(bytes as ArrayBuffer, pt(MARGIN + (CONTENT_W - widthMm) / 2), pt(this.y), { width: pt(widthMm), height: pt(heightMm) });
    this.y += heightMm + 3;
  }

  /** Page numbers (and the title) at the foot of every page; the document keeps its pages until the end (bufferPages). */
  pageFooters(title: string, t: Translate): void {
    const { doc } = this;
    const { start, count } = doc.bufferedPageRange();
    const size = 8;
    const top = PAGE_H - 9 - BASELINE * size * PT; // the baseline 9 mm above the page's edge
    for (let i = 0; i < count; i += 1) {
      doc.switchToPage(start + i);
      const footer = this.lines(t('qe.pdf.page', { page: i + 1, pages: count }), Infinity, size)[0];
      this.draw(footer, PAGE_W - MARGIN, top, size, GREY, 'right');
      const room = CONTENT_W - footer.width / MM - 10;
      const line = this.lines(title, room, size)[0];
      if (line) this.draw(line, MARGIN, top, size, GREY);
    }
  }
}
