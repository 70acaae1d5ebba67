import { describe, expect, it } from 'vitest';
import { ANSWERED_FROM, CHOICE_TYPES, GRID_TYPES, QUESTION_TYPES, type Definition, type Question, type QuestionType } from '../../src/shared/questionnaire/definition.js';
import { answerProblem, isAnswered, type Answer } from '../../src/shared/questionnaire/answers.js';
import { definitionErrors } from '../../src/shared/questionnaire/definition.js';
import { SCALE_LABEL_MAX } from '../../src/shared/questionnaire/question-types/linear-scale.js';
import { messageText } from '../../src/shared/master/labels.js';
import { assertNever } from '../../src/shared/exhaustive.js';
import { gridCells, summaryLines } from '../../src/shared/statistics/rows.js';
import type { QuestionSummary } from '../../src/shared/statistics/types.js';
import { answerRows } from '../../src/server/statistics/answerRows.js';
import { summarise, type Counts } from '../../src/server/statistics/summaries.js';
import { ANSWER_COLUMNS } from '../../src/server/statistics/export.js';
import { TYPE_ICONS, TYPE_ORDER } from '../../src/client/questionnaires/designer/typeIcons.js';
import type { AppMessages } from '../../src/shared/i18n/app-en.js';

/**
 * Every question type is handled everywhere (docs/recipes/add-question-type.md). The compiler
 * stops a type added to QUESTION_TYPES at each `switch` (their `assertNever`) and `Record`
 * table; this test checks the same from the list at run time, so a table that lost an entry or a
 * type whose answers quietly give no statistics fails here too. Its own tables are `Record`s:
 * a new type does not compile until it has a sample question, an answer and a summary kind here.
 */

const choices = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i + 1}`, label: `${prefix.toUpperCase()} ${i + 1}` }));

/** A question of each type, with what the type needs. */
const SAMPLES: Record<QuestionType, Omit<Question, 'id' | 'type' | 'title' | 'required'>> = {
  SHORT_TEXT: {},
  PARAGRAPH: {},
  RADIO: { options: choices('o', 3) },
  CHECKBOX: { options: choices('o', 3) },
  DROPDOWN: { options: choices('o', 3) },
  LINEAR_SCALE: { scale: { min: 1, max: 5 } },
  GRID_RADIO: { rows: choices('r', 2), columns: choices('c', 3) },
  GRID_CHECKBOX: { rows: choices('r', 2), columns: choices('c', 3) },
  DATE: {},
  TIME: {},
};

/** An acceptable answer of each type. */
const ANSWERS: Record<QuestionType, Answer> = {
  SHORT_TEXT: 'Chan Tai Man',
  PARAGRAPH: 'More books in the library.',
  RADIO: { choice: 'o2' },
  CHECKBOX: { choices: ['o1', 'o3'] },
  DROPDOWN: { choice: 'o1' },
  LINEAR_SCALE: 4,
  GRID_RADIO: { r1: 'c1', r2: 'c3' },
  GRID_CHECKBOX: { r1: ['c1', 'c2'], r2: ['c3'] },
  DATE: '2027-03-12',
  TIME: '08:15',
};

/** The summary each type's results are shown as. */
const SUMMARY_KINDS: Record<QuestionType, QuestionSummary['kind']> = {
  SHORT_TEXT: 'texts',
  PARAGRAPH: 'texts',
  RADIO: 'choices',
  CHECKBOX: 'choices',
  DROPDOWN: 'choices',
  LINEAR_SCALE: 'scale',
  GRID_RADIO: 'grid',
  GRID_CHECKBOX: 'grid',
  DATE: 'distribution',
  TIME: 'distribution',
};

const question = (type: QuestionType): Question => ({ id: `q-${type}`, type, title: `A ${type} question`, required: true, ...SAMPLES[type] });
const definition: Definition = { version: 1, sections: [{ id: 's1', title: 'All', questions: QUESTION_TYPES.map(question) }] };

/** The counts one reply of ANSWERS makes, grouped as answerCounts (statistics/detail.ts) groups the counters. */
function countsOfOneReply(): Counts {
  const rows = answerRows(definition, { id: 'r1', questionnaire_id: 1, respondent_role: 'STUDENT', grade_id: null, class_id: null }, ANSWERS_BY_ID);
  const counts: Counts = { cells: [], answered: new Map(), rowBases: new Map() };
  for (const r of rows) {
    if (r.item === '' && r.col === '') counts.answered.set(r.question_id, 1);
    else {
      if (r.col === '') counts.rowBases.set(`${r.question_id}\u0000${r.item}`, 1);
      counts.cells.push({ questionId: r.question_id, item: r.item, col: r.col, n: 1 });
    }
  }
  return counts;
}
const ANSWERS_BY_ID = Object.fromEntries(QUESTION_TYPES.map((t) => [question(t).id, ANSWERS[t]]));

describe('every question type', () => {
  it('has an entry in every per-type table, and the test tables cover the type list', () => {
    for (const table of [ANSWERED_FROM, ANSWER_COLUMNS, TYPE_ICONS, SAMPLES, ANSWERS, SUMMARY_KINDS]) {
      expect(Object.keys(table).sort()).toEqual([...QUESTION_TYPES].sort());
    }
    for (const type of QUESTION_TYPES) {
      expect(typeof ANSWER_COLUMNS[type], type).toBe('function');
      expect(TYPE_ICONS[type], type).toBeTruthy();
    }
  });

  it('is offered by the designer once, with a name in both languages', () => {
    expect([...TYPE_ORDER].sort()).toEqual([...QUESTION_TYPES].sort());
    for (const type of QUESTION_TYPES) {
      for (const lang of ['zh-hk', 'en'] as const) {
        const key = `qe.question.types.${type}` as const;
        expect(messageText(lang, key), `${lang} ${key}`).not.toBe(key);
      }
    }
  });

  it('is answered from options, a grid, a scale or a text, and the type lists agree', () => {
    expect(CHOICE_TYPES).toEqual(['RADIO', 'CHECKBOX', 'DROPDOWN']);
    expect(GRID_TYPES).toEqual(['GRID_RADIO', 'GRID_CHECKBOX']);
    for (const type of QUESTION_TYPES) {
      expect(CHOICE_TYPES.includes(type), type).toBe(ANSWERED_FROM[type] === 'options');
      expect(GRID_TYPES.includes(type), type).toBe(ANSWERED_FROM[type] === 'grid');
    }
  });

  it('judges its answers: a sample answer is answered and acceptable, none is missing when required', () => {
    for (const type of QUESTION_TYPES) {
      const q = question(type);
      expect(isAnswered(q, ANSWERS[type]), type).toBe(true);
      expect(answerProblem(q, ANSWERS[type]), type).toBeNull();
      expect(answerProblem(q, undefined), type).toEqual({ problem: 'required' });
    }
  });

  it('counts its answers and gets its summary (no type quietly without statistics)', () => {
    const rows = answerRows(definition, { id: 'r1', questionnaire_id: 1, respondent_role: 'STUDENT', grade_id: null, class_id: null }, ANSWERS_BY_ID);
    const stats = summarise(definition, countsOfOneReply(), 'en');
    for (const type of QUESTION_TYPES) {
      const id = question(type).id;
      expect(rows.some((r) => r.question_id === id && r.item === '' && r.col === ''), `${type} answered row`).toBe(true);
      const s = stats.find((x) => x.id === id);
      expect(s?.type, type).toBe(type);
      expect(s?.answered, type).toBe(1);
      expect(s?.summary?.kind, type).toBe(SUMMARY_KINDS[type]);
      const summary = s!.summary!;
      // what was answered shows up in the summary's rows (texts are read page by page instead)
      if (summary.kind === 'grid') expect(summary.rows.flatMap((r) => gridCells(summary, r)).some((c) => c.count === 1), type).toBe(true);
      else if (summary.kind !== 'texts') expect(summaryLines(summary).some((l) => l.count === 1 && l.percent === 100), type).toBe(true);
      else expect(summary.base, type).toBe(1);
    }
  });

  it('has its columns in the raw-answers sheet, each answer written out', () => {
    const t = (key: keyof AppMessages['qe']['statisticsExport'], p: Record<string, string | number> = {}) => messageText('en', `qe.statisticsExport.${key}`, p);
    for (const type of QUESTION_TYPES) {
      const q = question(type);
      const columns = ANSWER_COLUMNS[type](q, `1. ${q.title}`);
      expect(columns.length, type).toBe(GRID_TYPES.includes(type) ? q.rows!.length : 1);
      for (const c of columns) {
        expect(c.header.startsWith(`1. ${q.title}`), type).toBe(true);
        expect(c.value(ANSWERS_BY_ID, t), type).not.toBeNull();
        expect(c.value({}, t), type).toBeNull();
      }
    }
  });
});

describe('a linear scale’s end labels', () => {
  const problems = (scale: Record<string, unknown>) =>
    definitionErrors({ version: 1, sections: [{ id: 's1', questions: [{ id: 'q', type: 'LINEAR_SCALE', title: 'How much?', required: false, scale: { min: 1, max: 5, ...scale } }] }] });

  it('are text of at most 500 characters, or absent', () => {
    expect(problems({})).toEqual([]);
    expect(problems({ minLabel: 'x'.repeat(SCALE_LABEL_MAX), maxLabel: '很好' })).toEqual([]);
    expect(problems({ maxLabel: 'x'.repeat(SCALE_LABEL_MAX + 1) })).toEqual([{ path: 'sections.0.questions.0.scale', problem: 'tooLong' }]);
    expect(problems({ minLabel: { text: 'Bad' } })).toEqual([{ path: 'sections.0.questions.0.scale', problem: 'invalid' }]);
    expect(problems({ minLabel: 7 })).toEqual([{ path: 'sections.0.questions.0.scale', problem: 'invalid' }]);
  });
});

describe('assertNever', () => {
  it('throws on a value the union does not have (a switch that handles every case never reaches it)', () => {
    expect(() => assertNever('NEW_TYPE' as never, 'question type')).toThrow('Unhandled question type: "NEW_TYPE"');
  });
});

describe('summary rows (shared by the screen, the xlsx and the PDF)', () => {
  it('lists choices, scale points and values alike', () => {
    expect(summaryLines({ kind: 'choices', base: 2, choices: [{ id: 'o1', label: 'Yes', count: 2, percent: 100 }, { id: '__other__', label: '', count: 0, percent: 0 }] })).toEqual([
      { id: 'o1', label: 'Yes', count: 2, percent: 100 },
      { id: '__other__', label: '', count: 0, percent: 0 },
    ]);
    const points = [{ value: '1', count: 1, percent: 50 }, { value: '2', count: 1, percent: 50 }];
    expect(summaryLines({ kind: 'scale', base: 2, min: 1, max: 2, points, mean: 1.5, median: 1.5 })).toEqual([
      { id: '1', label: '1', count: 1, percent: 50 },
      { id: '2', label: '2', count: 1, percent: 50 },
    ]);
    expect(summaryLines({ kind: 'distribution', base: 2, values: points }).map((l) => l.label)).toEqual(['1', '2']);
  });

  it("gives a grid row's cells in the columns' order, zero where the row has none", () => {
    const grid: Extract<QuestionSummary, { kind: 'grid' }> = {
      kind: 'grid',
      columns: [{ id: 'c1', label: 'A' }, { id: 'c2', label: 'B' }, { id: 'c3', label: 'C' }],
      rows: [{ id: 'r1', label: 'Row', base: 4, cells: [{ id: 'c3', count: 1, percent: 25 }, { id: 'c1', count: 3, percent: 75 }] }],
    };
    expect(gridCells(grid, grid.rows[0])).toEqual([
      { id: 'c1', count: 3, percent: 75 },
      { id: 'c2', count: 0, percent: 0 },
      { id: 'c3', count: 1, percent: 25 },
    ]);
  });
});

describe('a distribution of many values (a date question answered on many days)', () => {
  it('counts each value once, in order, with its percentage', () => {
    const date = question('DATE');
    const days = Array.from({ length: 400 }, (_, i) => new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10));
    // stored order is not value order; each day counted i % 3 + 1 times
    const cells = [...days].reverse().map((day, i) => ({ questionId: date.id, item: day, col: '', n: ((days.length - 1 - i) % 3) + 1 }));
    const answered = cells.reduce((sum, c) => sum + c.n, 0);
    const [stats] = summarise({ version: 1, sections: [{ id: 's1', title: '', questions: [date] }] }, { cells, answered: new Map([[date.id, answered]]), rowBases: new Map() }, 'en');
    const summary = stats.summary as Extract<QuestionSummary, { kind: 'distribution' }>;
    expect(summary.values.map((v) => v.value)).toEqual(days);
    expect(summary.values.map((v) => v.count)).toEqual(days.map((_, i) => (i % 3) + 1));
    expect(summary.values[2]).toEqual({ value: days[2], count: 3, percent: Math.round((3 / answered) * 1000) / 10 });
  });
});
