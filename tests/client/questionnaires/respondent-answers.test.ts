import { describe, expect, it } from 'vitest';
import type { Definition, Question } from '../../../src/shared/questionnaire/definition';
import { OTHER, answerProblem, answersOnPath, isAnswered, isDate, nextSection, replyProblems, sectionPath, sectionProblems } from '../../../src/shared/questionnaire/answers';

const opts = (...ids: string[]) => ids.map((id) => ({ id, label: id.toUpperCase() }));
const q = (type: Question['type'], extra: Partial<Question> = {}): Question => ({ id: 'q', type, title: 'T', required: false, ...extra });

describe('answer shapes and "answered"', () => {
  it('tells an answer from none for each type', () => {
    expect(isAnswered(q('SHORT_TEXT'), '  ')).toBe(false);
    expect(isAnswered(q('SHORT_TEXT'), ' x ')).toBe(true);
    expect(isAnswered(q('LINEAR_SCALE'), 0)).toBe(true);
    expect(isAnswered(q('RADIO'), { choice: 'a' })).toBe(true);
    expect(isAnswered(q('RADIO'), { choice: '' })).toBe(false);
    expect(isAnswered(q('CHECKBOX'), { choices: [] })).toBe(false);
    expect(isAnswered(q('GRID_RADIO'), {})).toBe(false);
    expect(isAnswered(q('GRID_CHECKBOX'), { r1: [] })).toBe(false);
    expect(isAnswered(q('GRID_CHECKBOX'), { r1: ['c1'] })).toBe(true);
    expect(isAnswered(q('DATE'), undefined)).toBe(false);
  });

  it('a required question needs an answer; an optional one does not, and its rules wait for one', () => {
    expect(answerProblem(q('PARAGRAPH', { required: true }), undefined)).toEqual({ problem: 'required' });
    expect(answerProblem(q('SHORT_TEXT', { textRule: { kind: 'number' } }), undefined)).toBeNull();
    expect(answerProblem(q('SHORT_TEXT', { textRule: { kind: 'number' } }), '')).toBeNull();
  });

  it('refuses answers naming options that do not exist, and "other" where there is none', () => {
    const radio = q('RADIO', { options: opts('a', 'b') });
    expect(answerProblem(radio, { choice: 'a' })).toBeNull();
    expect(answerProblem(radio, { choice: 'zz' })).toEqual({ problem: 'invalid' });
    expect(answerProblem(radio, { choice: OTHER, otherText: 'x' })).toEqual({ problem: 'invalid' });
    const withOther = { ...radio, other: true };
    expect(answerProblem(withOther, { choice: OTHER, otherText: ' ' })).toEqual({ problem: 'otherText' });
    expect(answerProblem(withOther, { choice: OTHER, otherText: 'mine' })).toBeNull();
    expect(answerProblem(q('DROPDOWN', { options: opts('a'), other: true }), { choice: OTHER, otherText: 'x' })).toEqual({ problem: 'invalid' });
    expect(answerProblem(q('CHECKBOX', { options: opts('a') }), { choices: ['a', 'a'] })).toEqual({ problem: 'invalid' });
    expect(answerProblem(q('CHECKBOX', { options: opts('a'), other: true }), { choices: ['a', OTHER] })).toEqual({ problem: 'otherText' });
  });

  it('checks dates, times and scale points', () => {
    expect(isDate('2024-02-29')).toBe(true);
    expect(isDate('2023-02-29')).toBe(false);
    expect(answerProblem(q('DATE'), '2024-13-01')).toEqual({ problem: 'invalid' });
    expect(answerProblem(q('TIME'), '23:59')).toBeNull();
    expect(answerProblem(q('TIME'), '24:00')).toEqual({ problem: 'invalid' });
    const scale = q('LINEAR_SCALE', { scale: { min: 0, max: 4 } });
    expect(answerProblem(scale, 0)).toBeNull();
    expect(answerProblem(scale, 5)).toEqual({ problem: 'invalid' });
    expect(answerProblem(scale, 1.5)).toEqual({ problem: 'invalid' });
  });
});

describe('response rules', () => {
  const checkbox = (kind: 'atLeast' | 'atMost' | 'exactly', count: number) => q('CHECKBOX', { options: opts('a', 'b', 'c'), other: true, choiceRule: { kind, count } });

  it('counts choices: at least, at most, exactly ("other" counts)', () => {
    expect(answerProblem(checkbox('atLeast', 2), { choices: ['a'] })).toEqual({ problem: 'atLeast', count: 2 });
    expect(answerProblem(checkbox('atLeast', 2), { choices: ['a', OTHER], otherText: 'x' })).toBeNull();
    expect(answerProblem(checkbox('atMost', 1), { choices: ['a', 'b'] })).toEqual({ problem: 'atMost', count: 1 });
    expect(answerProblem(checkbox('exactly', 2), { choices: ['a', 'b', 'c'] })).toEqual({ problem: 'exactly', count: 2 });
    expect(answerProblem(checkbox('exactly', 2), { choices: ['a', 'c'] })).toBeNull();
  });

  it('grids: every row when required, the count per row, one per column', () => {
    const grid = q('GRID_CHECKBOX', { required: true, rows: opts('r1', 'r2'), columns: opts('c1', 'c2'), choiceRule: { kind: 'atMost', count: 1 } });
    expect(answerProblem(grid, { r1: ['c1'] })).toEqual({ problem: 'requiredRow', row: 'r2' });
    expect(answerProblem(grid, { r1: ['c1'], r2: ['c1', 'c2'] })).toEqual({ problem: 'atMost', count: 1, row: 'r2' });
    expect(answerProblem(grid, { r1: ['c1'], r2: ['zz'] })).toEqual({ problem: 'invalid' });
    const radios = q('GRID_RADIO', { rows: opts('r1', 'r2'), columns: opts('c1', 'c2'), onePerColumn: true });
    expect(answerProblem(radios, { r1: 'c1', r2: 'c1' })).toEqual({ problem: 'onePerColumn', row: 'r2' });
    expect(answerProblem(radios, { r1: 'c1', r2: 'c2' })).toBeNull();
    expect(answerProblem(radios, { r1: ['c1'] } as never)).toEqual({ problem: 'invalid' });
  });

  it("text length, number range and pattern, with the designer's message when there is one", () => {
    const length = q('SHORT_TEXT', { textRule: { kind: 'length', min: 2, max: 4 } });
    expect(answerProblem(length, '一')).toEqual({ problem: 'length', min: 2, max: 4 });
    expect(answerProblem(length, '一二三')).toBeNull();
    expect(answerProblem(length, '  ab  ')).toBeNull(); // judged trimmed
    expect(answerProblem(q('SHORT_TEXT', { textRule: { kind: 'length', max: 3 } }), 'abcd')).toEqual({ problem: 'maxLength', max: 3 });
    const number = q('SHORT_TEXT', { textRule: { kind: 'number', min: 0, max: 100 } });
    expect(answerProblem(number, 'ten')).toEqual({ problem: 'number' });
    expect(answerProblem(number, '101')).toEqual({ problem: 'numberRange', min: 0, max: 100 });
    expect(answerProblem(number, '99.5')).toBeNull();
    expect(answerProblem(q('SHORT_TEXT', { textRule: { kind: 'number', min: 5 } }), '-1')).toEqual({ problem: 'minNumber', min: 5 });
    const pattern = q('SHORT_TEXT', { textRule: { kind: 'pattern', pattern: '[0-9]{8}', message: '請輸入 8 位數字電話' } });
    expect(answerProblem(pattern, '1234567')).toEqual({ problem: 'pattern', message: '請輸入 8 位數字電話' });
    expect(answerProblem(pattern, '123456789')).toMatchObject({ problem: 'pattern' }); // the whole answer must match
    expect(answerProblem(pattern, '12345678')).toBeNull();
  });

  it("sectionProblems lists each question's first problem", () => {
    const section = { id: 's', questions: [q('SHORT_TEXT', { id: 'a', required: true }), q('SHORT_TEXT', { id: 'b' })] };
    expect(sectionProblems(section, { b: 'x' })).toEqual({ a: { problem: 'required' } });
    expect(sectionProblems(section, { a: 'y' })).toEqual({});
  });
});

describe('branching', () => {
  const def: Definition = {
    version: 1,
    sections: [
      {
        id: 's1',
        questions: [
          {
            id: 'role',
            type: 'RADIO',
            title: 'Role',
            required: true,
            options: [
              { id: 'teacher', label: 'T', goTo: 's3' },
              { id: 'student', label: 'S' },
              { id: 'none', label: 'N', goTo: 'END' },
            ],
          },
        ],
      },
      { id: 's2', questions: [{ id: 'class', type: 'SHORT_TEXT', title: 'Class', required: true }], next: 's4' },
      { id: 's3', questions: [{ id: 'subject', type: 'DROPDOWN', title: 'Subject', required: false, options: [{ id: 'm', label: 'Maths' }] }] },
      { id: 's4', questions: [{ id: 'comment', type: 'PARAGRAPH', title: 'Comment', required: false }] },
    ],
  };

  it("a chosen option's goTo first, then the section's next, then the following section; END after the last", () => {
    expect(nextSection(def, 0, { role: { choice: 'teacher' } })).toBe(2);
    expect(nextSection(def, 0, { role: { choice: 'student' } })).toBe(1);
    expect(nextSection(def, 0, { role: { choice: 'none' } })).toBe('END');
    expect(nextSection(def, 0, {})).toBe(1);
    expect(nextSection(def, 1, {})).toBe(3);
    expect(nextSection(def, 2, {})).toBe(3);
    expect(nextSection(def, 3, {})).toBe('END');
  });

  it('never goes backwards, whatever a bad definition says', () => {
    const loop: Definition = {
      version: 1,
      sections: [
        { id: 'a', questions: [], next: 'b' },
        { id: 'b', questions: [], next: 'a' },
      ],
    };
    expect(nextSection(loop, 1, {})).toBe('END');
    expect(sectionPath(loop, {})).toEqual([0, 1]);
  });

  it('the way through, and only its answers kept', () => {
    const answers = { role: { choice: 'teacher' }, class: '3A', subject: { choice: 'm' } };
    expect(sectionPath(def, answers)).toEqual([0, 2, 3]);
    expect(answersOnPath(def, answers)).toEqual({ role: { choice: 'teacher' }, subject: { choice: 'm' } });
    expect(sectionPath(def, { role: { choice: 'student' } })).toEqual([0, 1, 3]);
  });

  it('replyProblems checks the sections on the way only, and unknown questions', () => {
    expect(replyProblems(def, { role: { choice: 'teacher' } })).toEqual({});
    expect(replyProblems(def, { role: { choice: 'student' } })).toEqual({ class: { problem: 'required' } });
    expect(replyProblems(def, { role: { choice: 'none' }, ghost: 'x' })).toEqual({ ghost: { problem: 'invalid' } });
    expect(replyProblems(def, [])).toEqual({ '': { problem: 'invalid' } });
  });
});
