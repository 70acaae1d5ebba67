import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { translate as zhTranslate } from '../../../src/client/providers/i18nProvider';
import { makeStatisticsPdfBytes } from '../../../src/client/statistics/pdf/report';
import type { TextPage } from '../../../src/shared/statistics/types';
import { detail, fontData } from './fixture';

process.env.TZ = 'Asia/Hong_Kong';

/** The words of a PDF with where poppler places them (pdftotext -bbox), in reading order. */
function words(bytes: ArrayBuffer): { text: string; x: number; right: number; y: number }[] {
  const dir = mkdtempSync(join(tmpdir(), 'qe-pdf-'));
  try {
    const file = join(dir, 'report.pdf');
    writeFileSync(file, Buffer.from(bytes));
    const html = execFileSync('pdftotext', ['-bbox', file, '-'], { encoding: 'utf8' });
    return [...html.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)<\/word>/g)].map((m) => ({ text: m[4], x: Number(m[1]), y: Number(m[2]), right: Number(m[3]) }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The answers of q5 as the server keeps them: leading spaces, inner spaces and line breaks. */
const ANSWERS = ['床前明月光，\n    疑是地上霜。\n舉頭望明月，', '    Indented start', 'Plain start'];
const texts = (questionId: string, part: 'answer' | 'other'): Promise<TextPage> =>
  Promise.resolve(questionId === 'q5' && part === 'answer' ? { list: ANSWERS.map((text, i) => ({ replyId: `r${i}`, text, shown: false })), total: ANSWERS.length, withheld: null, mayMark: false } : { list: [], total: 0, withheld: null, mayMark: false });

describe('the statistics PDF lists text answers as typed (docs/product-rules.md#answers-as-typed)', () => {
  it('breaks a text at its line breaks and keeps its leading spaces', async () => {
    const d = detail();
    const bytes = await makeStatisticsPdfBytes({ ...d, questions: d.questions.filter((q) => q.id === 'q5').map((q) => ({ ...q, answered: 3, summary: { kind: 'texts', base: 3 } })) }, { translate: zhTranslate, locale: 'zh-hk', fontData: fontData(), texts, charts: false });
    const all = words(bytes);
    const word = (text: string) => {
      const found = all.find((w) => w.text === text);
      if (!found) throw new Error(`${text} is not in the PDF: ${all.map((w) => w.text).join(' ')}`);
      return found;
    };
    // three lines, one under the other, as typed
    const [first, second, third] = [word('床前明月光，'), word('疑是地上霜。'), word('舉頭望明月，')];
    expect(second.y).toBeGreaterThan(first.y);
    expect(third.y).toBeGreaterThan(second.y);
    // the second line's four spaces: it starts right of the third, which starts at the margin of the list
    expect(second.x - third.x).toBeGreaterThan(6);
    // a first line's leading spaces: between the number and the text, four spaces more than a plain answer has
    const gap = (number: string, text: string) => word(text).x - word(number).right;
    expect(gap('2.', 'Indented') - gap('3.', 'Plain')).toBeGreaterThan(6);
  });
});
