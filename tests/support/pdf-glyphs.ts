import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { create, type Font } from 'fontkit';

// What a PDF's embedded fonts draw, read the way a viewer reads them: each font's ToUnicode map
// gives the characters of a glyph (CID), its embedded font program (FontFile2, CIDToGIDMap
// Identity) the glyph's outline. A character that pdftotext reads and whose glyph here has the
// outline of the same character in the original font file is drawn on the page, not only in the
// text layer. Written for the PDFs pdfkit makes (no object streams, direct /Length).

export const NOTO_SANS_TC = 'node_modules/@expo-google-fonts/noto-sans-tc/400Regular/NotoSansTC_400Regular.ttf';
export const NOTO_EMOJI = 'node_modules/@expo-google-fonts/noto-emoji/400Regular/NotoEmoji_400Regular.ttf';

export interface EmbeddedGlyph {
  /** the embedded font's name, without its subset tag */
  font: string;
  /** the text its ToUnicode map gives */
  text: string;
  /** the glyph's outline in the embedded font program, as SVG path data ('' for an empty glyph) */
  outline: string;
}

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

/** The PDF's objects: number → the dictionary text and the (inflated) stream. */
function objects(pdf: Uint8Array): Map<number, { dict: string; stream: Buffer | null }> {
  const text = latin1(pdf);
  const found = new Map<number, { dict: string; stream: Buffer | null }>();
  const head = /(?:^|[\r\n])(\d+) 0 obj\b/g;
  for (let m = head.exec(text); m; m = head.exec(text)) {
    const start = m.index + m[0].length;
    const end = text.indexOf('endobj', start);
    const streamAt = text.indexOf('stream', start);
    if (streamAt === -1 || streamAt > end) {
      found.set(Number(m[1]), { dict: text.slice(start, end), stream: null });
      continue;
    }
    const dict = text.slice(start, streamAt);
    const length = Number(/\/Length (\d+)/.exec(dict)?.[1]);
    const dataAt = streamAt + 'stream'.length + (text[streamAt + 6] === '\r' ? 2 : 1);
    const raw = Buffer.from(text.slice(dataAt, dataAt + length), 'latin1');
    found.set(Number(m[1]), { dict, stream: /\/FlateDecode/.test(dict) ? inflateSync(raw) : raw });
    head.lastIndex = dataAt + length;
  }
  return found;
}

const ref = (dict: string, key: string) => {
  const m = new RegExp(`/${key}\\s*\\[?\\s*(\\d+) 0 R`).exec(dict);
  return m ? Number(m[1]) : null;
};

/** UTF-16BE hex (spaces allowed) → text. */
const utf16 = (hex: string) => {
  const clean = hex.replace(/\s+/g, '');
  const units: number[] = [];
  for (let i = 0; i < clean.length; i += 4) units.push(parseInt(clean.slice(i, i + 4), 16));
  return String.fromCharCode(...units);
};

/** CID → text, from a ToUnicode CMap (bfchar and bfrange, both forms of bfrange). */
function toUnicode(cmap: string): Map<number, string> {
  const map = new Map<number, string>();
  for (const block of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const m of block[1].matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(\[[^\]]*\]|<[0-9a-fA-F\s]+>)/g)) {
      const from = parseInt(m[1], 16);
      const to = parseInt(m[2], 16);
      if (m[3].startsWith('[')) [...m[3].matchAll(/<([0-9a-fA-F\s]*)>/g)].forEach((e, i) => map.set(from + i, utf16(e[1])));
      else {
        const first = utf16(m[3].slice(1, -1));
        for (let cid = from; cid <= to; cid += 1) map.set(cid, first.slice(0, -1) + String.fromCharCode(first.charCodeAt(first.length - 1) + cid - from));
      }
    }
  }
  for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const m of block[1].matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F\s]+)>/g)) map.set(parseInt(m[1], 16), utf16(m[2]));
  }
  return map;
}

const fontOf = (bytes: Uint8Array): Font => {
  const font = create(Buffer.from(bytes));
  if (!('getGlyph' in font)) throw new Error('a font collection');
  return font;
};

/** Every glyph the PDF's Type0 fonts embed and map to text. */
export function embeddedGlyphs(pdf: Uint8Array): EmbeddedGlyph[] {
  const all = objects(pdf);
  const glyphs: EmbeddedGlyph[] = [];
  for (const { dict } of all.values()) {
    if (!/\/Subtype \/Type0/.test(dict)) continue;
    const descendant = all.get(ref(dict, 'DescendantFonts') ?? -1);
    const descriptor = descendant && all.get(ref(descendant.dict, 'FontDescriptor') ?? -1);
    const program = descriptor && all.get(ref(descriptor.dict, 'FontFile2') ?? -1)?.stream;
    const cmap = all.get(ref(dict, 'ToUnicode') ?? -1)?.stream;
    if (!program || !cmap) continue;
    const name = (/\/BaseFont \/(\S+)/.exec(dict)?.[1] ?? '').replace(/^[A-Z]{6}\+/, '');
    const font = fontOf(program);
    for (const [cid, text] of toUnicode(cmap.toString('latin1'))) {
      if (cid === 0) continue;
      glyphs.push({ font: name, text, outline: font.getGlyph(cid).path.toSVG() });
    }
  }
  return glyphs;
}

const files = new Map<string, Font>();
/** The outline a font file draws a text with, when it draws it as one glyph ('' when it has none). */
export function outlineOf(file: string, text: string): string {
  let font = files.get(file);
  if (!font) files.set(file, (font = fontOf(readFileSync(file))));
  const run = font.layout(text);
  return run.glyphs.length === 1 && run.glyphs[0].id !== 0 ? run.glyphs[0].path.toSVG() : '';
}

/** Whether the PDF draws `text` with the glyph of the font file: an embedded glyph with that outline, mapped to that text. */
export function drawsWith(glyphs: EmbeddedGlyph[], file: string, text: string): boolean {
  const outline = outlineOf(file, text);
  const bare = (s: string) => s.replace(/\uFE0F/g, '');
  return outline !== '' && glyphs.some((g) => g.outline === outline && bare(g.text) === bare(text));
}
