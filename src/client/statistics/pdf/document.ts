/**
 * A PDF document of QE's reports (the statistics report, report.ts; the comparison across years,
 * comparison.ts): A4 portrait in the Traditional Chinese TrueType font, the fallback font loaded
 * only when a text needs it, and the Writer that sets it down the pages (layout.ts).
 */
import PDFDocument from 'pdfkit';
import { Faces } from './faces';
import { loadFallbackFont, PDF_FONT } from './font';
import { asSource, Writer } from './layout';

/** Every string in a value (titles, labels, names): what the fallback font may be needed for. */
export function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) value.forEach((v) => stringsOf(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => stringsOf(v, out));
  return out;
}

/** The document's bytes once it is ended. */
function bytesOf(doc: PDFKit.PDFDocument): Promise<ArrayBuffer> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    doc.on('data', (chunk: Uint8Array) => chunks.push(chunk));
    doc.on('error', reject);
    doc.on('end', () => {
      const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
      let at = 0;
      for (const chunk of chunks) {
        out.set(chunk, at);
        at += chunk.length;
      }
      resolve(out.buffer);
    });
    doc.end();
  });
}

export interface PdfDocumentOptions {
  title: string;
  /** 'zh-hk' or 'en' */
  locale: string;
  /** the TrueType font's bytes (font.ts loadFontData) */
  fontData: Uint8Array;
  /** the fallback font's bytes (emoji); default font.ts loadFallbackFont */
  fallbackFont?: () => Promise<Uint8Array>;
  /** the texts known before the first page, checked for the fallback font */
  texts: string[];
}

export interface PdfDocument {
  w: Writer;
  /** Loads the fallback font before texts that need it are set; without it they show □ (and keep their characters in the text layer). */
  prepare: (texts: string[]) => Promise<void>;
  /** Ends the document: its bytes. */
  end: () => Promise<ArrayBuffer>;
}

export async function openPdf(options: PdfDocumentOptions): Promise<PdfDocument> {
  const faces = new Faces(options.fontData);
  const loadFallback = options.fallbackFont ?? loadFallbackFont;
  const prepare = async (texts: string[]) => {
    if (faces.fallback || !texts.some((text) => faces.wantsFallback(text))) return;
    try {
      faces.setFallback(await loadFallback());
    } catch {
      // □ then
    }
  };
  await prepare(options.texts);
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'portrait',
    margin: 0,
    bufferPages: true,
    compress: true,
    pdfVersion: '1.5',
    lang: options.locale === 'en' ? 'en-US' : 'zh-HK',
    info: { Title: options.title, Subject: options.title, Creator: 'QE' },
    // the report's font from the start: pdfkit's browser build has no standard font to start with
    font: asSource(faces.main),
  });
  doc.registerFont(PDF_FONT, asSource(faces.main));
  return { w: new Writer(doc, faces), prepare, end: () => bytesOf(doc) };
}
