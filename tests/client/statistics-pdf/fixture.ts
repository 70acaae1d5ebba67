import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StatisticsDetail, TextPage } from '../../../src/shared/statistics/types';

/** The report's font as the browser hands it to the report (the package's TrueType bytes). */
export const fontData = (): Uint8Array => readFileSync('node_modules/@expo-google-fonts/noto-sans-tc/400Regular/NotoSansTC_400Regular.ttf');
/** The fallback font (emoji), likewise. */
export const fallbackData = (): Uint8Array => readFileSync('node_modules/@expo-google-fonts/noto-emoji/400Regular/NotoEmoji_400Regular.ttf');

/** A detail as GET /v1/statistics/{id} answers it: one question of each summary kind. */
export function detail(over: Partial<StatisticsDetail> = {}): StatisticsDetail {
  return {
    questionnaire: {
      id: 41,
      title: '二零二五年度學生意見調查',
      titleTranslation: null,
      languages: ['zh-hk'],
      schoolYear: { id: 3, name: '2025-2026' },
      principal: { id: 9, nameHk: '李大明', nameEn: 'Lee Tai Ming' },
      status: 'PROCESSING',
      type: 'NAMED',
      createDate: '2025-03-01T02:00:00.000Z',
      openDate: '2025-03-03T01:00:00.000Z',
      endDate: '2025-03-31T09:00:00.000Z',
      submittedNum: 27,
      respondentNum: 36,
      responseRate: 75,
    },
    filter: {},
    groups: { roles: [{ role: 'STUDENT', respondentNum: 36, submittedNum: 27 }], grades: [{ id: 1, nameHk: '中一', nameEn: 'S1', respondentNum: 36, submittedNum: 27 }], classes: [{ id: 5, gradeId: 1, nameHk: '1A', nameEn: '1A', respondentNum: 36, submittedNum: 27 }] },
    replyCount: 27,
    respondentNum: 36,
    submittedNum: 27,
    releaseBatch: null,
    withheld: null,
    questions: [
      {
        id: 'q1', number: 1, sectionTitle: '學習生活', type: 'RADIO', title: '你最喜歡的科目', required: true, answered: 27,
        summary: { kind: 'choices', base: 27, choices: [{ id: 'a', label: '中文科', count: 13, percent: 48.1 }, { id: 'b', label: '數學科', count: 9, percent: 33.3 }, { id: '__other__', label: '', count: 5, percent: 18.5 }] },
      },
      {
        id: 'q2', number: 2, sectionTitle: '學習生活', type: 'GRID_RADIO', title: '各項設施滿意程度', required: false, answered: 26,
        summary: {
          kind: 'grid',
          columns: [{ id: 'k1', label: '滿意' }, { id: 'k2', label: '不滿意' }],
          rows: [
            { id: 'r1', label: '圖書館', base: 26, cells: [{ id: 'k1', count: 17, percent: 65.4 }, { id: 'k2', count: 9, percent: 34.6 }] },
            { id: 'r2', label: '小食部', base: 25, cells: [{ id: 'k1', count: 11, percent: 44 }, { id: 'k2', count: 14, percent: 56 }] },
          ],
        },
      },
      {
        id: 'q3', number: 3, sectionTitle: '學習生活', type: 'LINEAR_SCALE', title: '整體評分', required: true, answered: 27,
        summary: { kind: 'scale', base: 27, min: 1, max: 5, minLabel: '非常差', maxLabel: '非常好', points: [1, 2, 3, 4, 5].map((v, i) => ({ value: String(v), count: [1, 2, 6, 11, 7][i], percent: [3.7, 7.4, 22.2, 40.7, 25.9][i] })), mean: 3.7777, median: 4 },
      },
      {
        id: 'q4', number: 4, sectionTitle: '其他', type: 'DATE', title: '開放日參觀日期', required: false, answered: 3,
        summary: { kind: 'distribution', base: 3, values: [{ value: '2025-04-12', count: 2, percent: 66.7 }, { value: '2025-04-13', count: 1, percent: 33.3 }] },
      },
      { id: 'q5', number: 5, sectionTitle: '其他', type: 'SHORT_TEXT', title: '其他意見', required: false, answered: 23, summary: { kind: 'texts', base: 23 } },
    ],
    ...over,
  };
}

/** 23 answers to q5 and 5 'other' texts of q1, paged as GET …/texts pages them. */
export function texts(questionId: string, part: 'answer' | 'other', size: number): Promise<TextPage> {
  const all = questionId === 'q5' && part === 'answer' ? Array.from({ length: 23 }, (_, i) => `意見編號${i + 1}：增加圖書`) : questionId === 'q1' && part === 'other' ? Array.from({ length: 5 }, (_, i) => `視覺藝術${i + 1}`) : [];
  return Promise.resolve({ list: all.slice(0, size).map((text, i) => ({ replyId: `r${i}`, text, shown: false })), total: all.length, withheld: null, mayMark: false });
}

/** The text layer of a PDF, as poppler's pdftotext reads it. */
export function pdfText(bytes: ArrayBuffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'qe-pdf-'));
  try {
    const file = join(dir, 'report.pdf');
    writeFileSync(file, Buffer.from(bytes));
    return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** How many pages poppler finds. */
export function pdfPages(bytes: ArrayBuffer): number {
  const dir = mkdtempSync(join(tmpdir(), 'qe-pdf-'));
  try {
    const file = join(dir, 'report.pdf');
    writeFileSync(file, Buffer.from(bytes));
    const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
    return Number(/Pages:\s+(\d+)/.exec(info)?.[1]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
