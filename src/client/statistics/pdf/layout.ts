/**
 * The page layout of the PDF report: A4 portrait in millimetres, its margins and colours, the
 * Writer that sets text, label-value fields, tables and images down the page, and the foot of
 * every page.
 */
import type { jsPDF } from 'jspdf';
import type { Translate } from './options';

// A4 portrait, millimetres
export const PAGE_W = 210;
export const PAGE_H = 297;
export const MARGIN = 16;
const TOP = 16;
const BOTTOM = 18;
export const CONTENT_W = PAGE_W - 2 * MARGIN;
const PT = 0.3528; // mm per point
export const GREY: [number, number, number] = [100, 100, 100];
const BLACK: [number, number, number] = [0, 0, 0];

export interface Column {
  header: string;
  /** share of the content width */
  width: number;
  align?: 'left' | 'right';
}

/** Writes down the page with a cursor, starting a new page when the next block does not fit. */
export class Writer {
  y = TOP;

  constructor(readonly doc: jsPDF) {}

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

  text(value: string, { size = 10, color = BLACK, indent = 0, after = 1 }: { size?: number; color?: [number, number, number]; indent?: number; after?: number } = {}): void {
    const { doc } = this;
    doc.setFontSize(size);
    doc.setTextColor(...color);
    const lines = doc.splitTextToSize(value, CONTENT_W - indent) as string[];
    const lh = this.lineHeight(size);
    for (const line of lines) {
      this.ensure(lh);
      doc.text(line, MARGIN + indent, this.y, { baseline: 'top' });
      this.y += lh;
    }
    this.y += after;
    doc.setTextColor(...BLACK);
  }

  /** label: value pairs, the labels in a column of their own */
  fields(pairs: [string, string][], size = 10): void {
    const { doc } = this;
    doc.setFontSize(size);
    const labelW = Math.min(55, Math.max(...pairs.map(([l]) => doc.getTextWidth(l))) + 4);
    const lh = this.lineHeight(size);
    for (const [label, value] of pairs) {
      const lines = doc.splitTextToSize(value, CONTENT_W - labelW) as string[];
      this.ensure(lh * lines.length);
      doc.setTextColor(...GREY);
      doc.text(label, MARGIN, this.y, { baseline: 'top' });
      doc.setTextColor(...BLACK);
      lines.forEach((line, i) => doc.text(line, MARGIN + labelW, this.y + i * lh, { baseline: 'top' }));
      this.y += lh * lines.length + 0.6;
    }
  }

  /** A table with a shaded header, repeated on every page it runs over. */
  table(columns: Column[], rows: string[][], size = 9): void {
    const { doc } = this;
    const pad = 1.4;
    const lh = this.lineHeight(size);
    const widths = columns.map((c) => c.width * CONTENT_W);
    doc.setFontSize(size);
    doc.setDrawColor(190, 190, 190);
    doc.setLineWidth(0.2);
    const cellLines = (cells: string[]) => cells.map((cell, i) => doc.splitTextToSize(cell, widths[i] - 2 * pad) as string[]);
    const drawRow = (cells: string[][], header: boolean) => {
      const height = Math.max(...cells.map((c) => c.length)) * lh + 2 * pad;
      let x = MARGIN;
      if (header) {
        doc.setFillColor(238, 238, 238);
        doc.rect(MARGIN, this.y, CONTENT_W, height, 'F');
      }
      cells.forEach((lines, i) => {
        const right = columns[i].align === 'right';
        lines.forEach((line, j) => doc.text(line, right ? x + widths[i] - pad : x + pad, this.y + pad + j * lh, { baseline: 'top', align: right ? 'right' : 'left' }));
        x += widths[i];
      });
      doc.line(MARGIN, this.y + height, MARGIN + CONTENT_W, this.y + height);
      this.y += height;
    };
    const header = cellLines(columns.map((c) => c.header));
    const headerHeight = Math.max(...header.map((c) => c.length)) * lh + 2 * pad;
    const bodies = rows.map(cellLines);
    const firstHeight = bodies.length ? Math.max(...bodies[0].map((c) => c.length)) * lh + 2 * pad : 0;
    this.ensure(headerHeight + firstHeight);
    doc.setFontSize(size);
    drawRow(header, true);
    for (const body of bodies) {
      const height = Math.max(...body.map((c) => c.length)) * lh + 2 * pad;
      if (this.y + height > PAGE_H - BOTTOM) {
        this.ensure(PAGE_H); // a new page
        doc.setFontSize(size);
        drawRow(header, true);
      }
      drawRow(body, false);
    }
    this.y += 2;
  }

  image(png: string, widthPx: number, heightPx: number, widthMm: number): void {
    const heightMm = (widthMm * heightPx) / widthPx;
    this.ensure(heightMm);
    this.doc.addImage(png, 'PNG', MARGIN + (CONTENT_W - widthMm) / 2, this.y, widthMm, heightMm, undefined, 'FAST');
    this.y += heightMm + 3;
  }
}

/** Page numbers (and the title) at the foot of every page. */
export function pageFooters(doc: jsPDF, title: string, t: Translate): void {
  const pages = doc.getNumberOfPages();
  for (let i = 1; i <= pages; i += 1) {
    doc.setPage(i);
    doc.setFontSize(8);
    doc.setTextColor(...GREY);
    const footer = t('qe.pdf.page', { page: i, pages });
    doc.text(footer, PAGE_W - MARGIN, PAGE_H - 9, { align: 'right' });
    const room = CONTENT_W - doc.getTextWidth(footer) - 10;
    const line = (doc.splitTextToSize(title, room) as string[])[0] ?? '';
    doc.text(line, MARGIN, PAGE_H - 9);
  }
}
