/**
 * Which font draws each character of the PDF report, how wide it is, and where lines break
 * (docs/architecture.md#the-pdf-report). Text is cut into grapheme clusters (a surrogate pair, an emoji with
 * its modifiers, a letter with its accents stay whole); each cluster is drawn by the first font
 * that has glyphs for all of it — the report's font (Noto Sans TC, every plane of its cmap, so 𠝹
 * and 𨋢 too), then the fallback font (Noto Emoji, loaded only when a report needs it) — and a
 * cluster neither font has is drawn as □, visibly replaced, in the text layer too. Nothing is
 * dropped but invisible characters (controls, zero-width ones) that no font draws. Lines break after spaces and beside ideographs and emoji, never inside a cluster, never
 * before closing punctuation nor after opening punctuation.
 */
import { create, type Font } from 'fontkit';

export type Face = 'main' | 'fallback';

/** One piece of a line set in one font. */
export interface Run {
  face: Face;
  text: string;
  /** points */
  width: number;
}

export interface Line {
  runs: Run[];
  /** points */
  width: number;
}

/** One grapheme cluster as it is drawn. */
interface Cell {
  face: Face;
  /** what is drawn: the cluster, without the invisible characters no font has ('' when that is all it is), or □ */
  draw: string;
  /** the cluster as written */
  cluster: string;
  /** advance, in em */
  em: number;
  space: boolean;
}

/** What is drawn for a character no font has. */
export const MISSING = '\u25A1';

const segmenter = typeof Intl !== 'undefined' && 'Segmenter' in Intl ? new Intl.Segmenter(undefined, { granularity: 'grapheme' }) : null;

/** A text's grapheme clusters (its code points where Intl.Segmenter is missing: surrogate pairs stay whole either way). */
export const graphemes = (text: string): string[] => (segmenter ? Array.from(segmenter.segment(text), (s) => s.segment) : Array.from(text));

/** Characters that show nothing: controls and default-ignorable ones (zero-width space and joiner, variation selectors, …). */
const INVISIBLE = /[\p{Cc}\p{Default_Ignorable_Code_Point}]/gu;
/** Clusters asking for an emoji picture: drawn by the fallback font (Noto Emoji) when it has them. */
const EMOJI_PRESENTATION = /\uFE0F|\p{Emoji_Presentation}|\p{Regional_Indicator}/u;
const SPACE = /^\s+$/u;
/** Ideographs, kana, hangul, CJK and full-width punctuation, emoji: a line may break before and after each. */
const WIDE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Bopomofo}\u3000-\u303F\uFE30-\uFE4F\uFF00-\uFFEF\p{Extended_Pictographic}\p{Regional_Indicator}]/u;
/** Closing punctuation: no line starts with it. */
const NO_START = /^[)\]}.,:;!?%\u2019\u201D\u2026\u00B7\u30FB\u30FC\u3001\u3002\u3009\u300B\u300D\u300F\u3011\u3015\u3017\u3019\u301B\uFF01\uFF09\uFF0C\uFF0E\uFF1A\uFF1B\uFF1F\uFF3D\uFF5D]/u;
/** Opening punctuation: no line ends with it. */
const NO_END = /[([{\u2018\u201C\u3008\u300A\u300C\u300E\u3010\u3014\u3016\u3018\u301A\uFF08\uFF3B\uFF5B]$/u;

/** Whether a line may break between two clusters. */
export function canBreak(before: string, after: string): boolean {
  if (SPACE.test(after)) return false; // spaces stay at the end of the line they follow
  if (SPACE.test(before)) return true;
  if (NO_START.test(after) || NO_END.test(before)) return false;
  return WIDE.test(before) || WIDE.test(after);
}

/** A font file parsed by fontkit, once per file. */
const parsed = new WeakMap<Uint8Array, Font>();
export function parseFont(bytes: Uint8Array): Font {
  let font = parsed.get(bytes);
  if (!font) {
    const made = create(bytes as Buffer);
    if (!('layout' in made)) throw new Error('font: a collection, not one font');
    font = made;
    parsed.set(bytes, font);
  }
  return font;
}

/** The fonts of one report: what each draws, and the lines of a text in them. */
export class Faces {
  /** The report's font. */
  readonly main: Font;
  /** The fallback font, once added (setFallback). */
  fallback: Font | null = null;
  private readonly covered = { main: new Map<string, boolean>(), fallback: new Map<string, boolean>() };
  private readonly widths = { main: new Map<string, number>(), fallback: new Map<string, number>() };
  private cellCache = new Map<string, Cell>();

  constructor(mainData: Uint8Array) {
    this.main = parseFont(mainData);
  }

  setFallback(bytes: Uint8Array): void {
    this.fallback = parseFont(bytes);
    this.cellCache = new Map();
  }

  private font(face: Face): Font | null {
    return face === 'main' ? this.main : this.fallback;
  }

  /** Whether a font draws the whole cluster (no glyph of it is .notdef). */
  covers(face: Face, cluster: string): boolean {
    const font = this.font(face);
    if (!font) return false;
    const cache = this.covered[face];
    let known = cache.get(cluster);
    if (known === undefined) {
      const points = Array.from(cluster, (c) => c.codePointAt(0)!);
      if (points.length === 1) known = font.hasGlyphForCodePoint(points[0]);
      else {
        const glyphs = font.layout(cluster).glyphs;
        known = glyphs.length > 0 && glyphs.every((g) => g.id !== 0);
      }
      cache.set(cluster, known);
    }
    return known;
  }

  /** Whether a text has a character the report's font lacks, or an emoji: the fallback font is then worth loading. */
  wantsFallback(text: string): boolean {
    for (const cluster of graphemes(text)) {
      const visible = cluster.replace(INVISIBLE, '');
      if (visible && (EMOJI_PRESENTATION.test(cluster) || !this.covers('main', cluster))) return true;
    }
    return false;
  }

  /** The width of a string in one font, in em (with the font's own kerning and ligatures). */
  private em(face: Face, text: string): number {
    if (!text) return 0;
    const font = this.font(face)!;
    const cache = this.widths[face];
    let em = cache.get(text);
    if (em === undefined) {
      em = font.layout(text).advanceWidth / font.unitsPerEm;
      if (text.length < 40) cache.set(text, em);
    }
    return em;
  }

  private cell(cluster: string): Cell {
    let cell = this.cellCache.get(cluster);
    if (cell) return cell;
    const space = SPACE.test(cluster);
    const order: Face[] = this.fallback && EMOJI_PRESENTATION.test(cluster) ? ['fallback', 'main'] : ['main', 'fallback'];
    const pick = (draw: string): Cell | null => {
      const face = order.find((f) => this.covers(f, draw));
      return face ? { face, draw, cluster, em: this.em(face, draw), space } : null;
    };
    const visible = cluster.replace(INVISIBLE, '');
    cell =
      pick(cluster) ??
      (visible === '' ? { face: 'main', draw: '', cluster, em: 0, space } : null) ??
      (visible !== cluster ? pick(visible) : null) ??
      { face: 'main', draw: MISSING, cluster, em: this.em('main', MISSING), space: false };
    this.cellCache.set(cluster, cell);
    return cell;
  }

  /** One line's runs: clusters of the same font drawn together; trailing spaces left out. */
  private line(cells: Cell[], size: number): Line {
    let end = cells.length;
    while (end > 0 && cells[end - 1].space) end -= 1;
    const runs: Run[] = [];
    for (const cell of cells.slice(0, end)) {
      if (!cell.draw) continue;
      const last = runs[runs.length - 1];
      if (last?.face === cell.face) last.text += cell.draw;
      else runs.push({ face: cell.face, text: cell.draw, width: 0 });
    }
    let width = 0;
    for (const run of runs) {
      run.width = this.em(run.face, run.text) * size;
      width += run.width;
    }
    return { runs, width };
  }

  /**
   * A text set in lines no wider than `width` points at `size` points: its own line breaks kept
   * (tabs as spaces), then broken where a break is allowed, a word wider than a line cut between
   * two clusters. An empty text is one empty line.
   */
  wrap(text: string, width: number, size: number): Line[] {
    const limit = width / size; // em
    const lines: Line[] = [];
    for (const paragraph of text.replace(/\r\n?/g, '\n').replace(/\t/g, ' ').split('\n')) {
      const cells = graphemes(paragraph).map((c) => this.cell(c));
      const words: Cell[][] = [];
      cells.forEach((cell, i) => {
        if (i === 0 || canBreak(cells[i - 1].cluster, cell.cluster)) words.push([cell]);
        else words[words.length - 1].push(cell);
      });
      let line: Cell[] = [];
      let used = 0;
      const flush = () => {
        lines.push(this.line(line, size));
        line = [];
        used = 0;
      };
      for (const word of words) {
        const ink = word.reduce((n, c) => n + (c.space ? 0 : c.em), 0);
        if (line.length && used + ink > limit) flush();
        if (!line.length && ink > limit) {
          // wider than a line by itself: cut between clusters
          for (const cell of word) {
            if (line.length && !cell.space && used + cell.em > limit) flush();
            line.push(cell);
            used += cell.em;
          }
          continue;
        }
        line.push(...word);
        used += word.reduce((n, c) => n + c.em, 0);
      }
      flush();
    }
    return lines;
  }

  /** The width in points of the widest line of a text, unwrapped. */
  width(text: string, size: number): number {
    return Math.max(0, ...this.wrap(text, Infinity, size).map((l) => l.width));
  }
}
