import { describe, expect, it } from 'vitest';
import { MAX_TERMS_PER_ANSWER, termsOf } from '../../src/shared/statistics/terms.js';

// What the statistics screen counts as the words and phrases of one text answer.
describe('the terms of a text answer', () => {
  it('splits Chinese and Cantonese into words, with phrases of neighbouring words', () => {
    const terms = termsOf('學校嘅圖書館太細，希望可以擴建');
    expect(terms).toEqual(expect.arrayContaining(['學校', '圖書館', '擴建']));
    // 嘅 is a particle: no word, and no phrase across it
    expect(terms).not.toContain('嘅');
    expect(terms.some((t) => t.includes('嘅'))).toBe(false);
    expect(termsOf('功課太多')).toEqual(['功課', '功課太多']);
  });

  it('leaves Cantonese particles, function words and the commonest opinions alone out', () => {
    const terms = termsOf('小食部啲嘢食好貴呀，佢哋都話係咁');
    for (const word of ['啲', '嘢', '呀', '佢哋', '都', '係', '咁', '好']) expect(terms, word).not.toContain(word);
    expect(terms).toContain('貴');
    expect(termsOf('我覺得很好')).toEqual([]);
  });

  it('counts English in lower case, full-width letters as half-width, and no numbers or single letters', () => {
    expect(termsOf('The LIBRARY is too small; the library')).toEqual(['library', 'small', 'too small']);
    expect(termsOf('ＩＰＡＤ 2026 a b')).toEqual(['ipad']);
    // a phrase stops at punctuation
    expect(termsOf('books, please help')).not.toContain('books help');
  });

  it('gives each term once, and at most a bounded number of them', () => {
    expect(termsOf('圖書館 圖書館 圖書館')).toEqual(['圖書館', '圖書館圖書館']);
    const essay = Array.from({ length: 500 }, (_, i) => `word${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`).join(' ');
    expect(termsOf(essay).length).toBe(MAX_TERMS_PER_ANSWER);
    expect(termsOf('')).toEqual([]);
    expect(termsOf('。，！？ 123')).toEqual([]);
  });
});
