import { describe, expect, it } from 'vitest';
import { Faces, graphemes, MISSING, type Line } from '../../../src/client/statistics/pdf/faces';
import { fallbackData, fontData } from './fixture';

// How the report sets a text: which font draws each character (Noto Sans TC, then Noto Emoji,
// then □), and where its lines break (never inside a character made of a surrogate pair or of
// several code points).
const withEmoji = new Faces(fontData());
withEmoji.setFallback(fallbackData());
const plain = new Faces(fontData());

const textOf = (line: Line) => line.runs.map((r) => r.text).join('');
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe('the fonts of the PDF report', () => {
  it('draws Hong Kong characters beyond the basic plane with the report’s font, emoji with the fallback, and □ for what neither has', () => {
    for (const ch of ['𠝹', '𨋢', '峯', '邨', '嘅', '咗']) expect(withEmoji.covers('main', ch), ch).toBe(true);
    const [line] = withEmoji.wrap('𠝹𨋢 😀👍❤️ 咗 ก', 1000, 10);
    expect(line.runs.map((r) => [r.face, r.text])).toEqual([
      ['main', '𠝹𨋢 '],
      ['fallback', '😀👍❤️'],
      ['main', ` 咗 ${MISSING}`],
    ]);
    expect(line.runs.every((r) => r.width > 0)).toBe(true);
    expect(line.width).toBeCloseTo(line.runs.reduce((n, r) => n + r.width, 0));
  });

  it('shows an emoji as □ when the fallback font is not there, and leaves out only characters that show nothing', () => {
    const [line] = plain.wrap('好\u200B😀\u0007！', 1000, 10);
    expect(textOf(line)).toBe(`好${MISSING}！`);
  });

  it('asks for the fallback font only for a text that needs it', () => {
    expect(plain.wantsFallback('𠝹𨋢峯邨嘅咗 abc，（）1 2025-04-02\u200B')).toBe(false);
    for (const text of ['好 😀', '👍', '❤️', '🇭🇰', 'ก']) expect(plain.wantsFallback(text), text).toBe(true);
  });

  it('never breaks a line inside a surrogate pair or a cluster of code points, and loses nothing', () => {
    const clusters = ['𠝹', '𨋢', '👨‍👩‍👧', '🇭🇰', '👍🏽', 'e\u0301', '❤️', '1️⃣', '咗'];
    const text = Array.from({ length: 90 }, (_, i) => clusters[i % clusters.length]).join('');
    for (const width of [15, 33, 47, 120]) {
      const lines = withEmoji.wrap(text, width, 10);
      expect(lines.length, `${width} pt`).toBeGreaterThan(1);
      expect(lines.map(textOf).join('')).toBe(text);
      for (const line of lines) {
        expect(textOf(line)).not.toMatch(LONE_SURROGATE);
        expect(graphemes(textOf(line)).every((g) => clusters.includes(g)), textOf(line)).toBe(true);
        if (graphemes(textOf(line)).length > 1) expect(line.width).toBeLessThanOrEqual(width + 0.01);
      }
    }
  });

  it('breaks English between words, Chinese between characters but never before a closing mark, and keeps the text’s own line breaks', () => {
    const words = withEmoji.wrap('the library opens longer hours in the examination weeks', 80, 10).map(textOf);
    expect(words.length).toBeGreaterThan(2);
    for (const line of words) expect(line).toMatch(/^\S+( \S+)*$/);
    expect(words.join(' ')).toBe('the library opens longer hours in the examination weeks');

    const chinese = withEmoji.wrap('希望增加戶外學習日，圖書館開放時間可以長一些。'.repeat(3), 60, 10).map(textOf);
    expect(chinese.length).toBeGreaterThan(3);
    for (const line of chinese) expect(line).not.toMatch(/^[，。]/);
    expect(chinese.join('')).toBe('希望增加戶外學習日，圖書館開放時間可以長一些。'.repeat(3));

    expect(withEmoji.wrap('第一行\r\n第二行\n\n第四行', 500, 10).map(textOf)).toEqual(['第一行', '第二行', '', '第四行']);
  });
});
