import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { flatten } from '../../support/messages';
import zhHk from '../../../src/client/i18n/zh-hk';
import en from '../../../src/client/i18n/en';
import { QUESTION_TYPES } from '../../../src/shared/questionnaire/definition';
import { DEFINITION_PROBLEMS } from '../../../src/client/questionnaires/designer/problems';
import { ANSWER_PROBLEMS } from '../../../src/shared/questionnaire/answers';

const zh = flatten(zhHk);
const enKeys = flatten(en);
const missing = (keys: string[]) => keys.filter((k) => !zh.has(k) || !enKeys.has(k));

describe('questionnaire designer and respondent texts', () => {
  it('every problem name definitionErrors can give is listed, and has its text in both files', () => {
    // the names in the source of definitionErrors: add(path, 'name') and { problem: 'name' }
    const source = readFileSync('src/shared/questionnaire/definition.ts', 'utf8');
    const named = new Set([...source.matchAll(/add\([^;]*?,\s*'(\w+)'\)/g), ...source.matchAll(/problem: '(\w+)'/g)].map((m) => m[1]));
    expect(named.size).toBeGreaterThan(10);
    expect([...named].filter((n) => !(DEFINITION_PROBLEMS as readonly string[]).includes(n))).toEqual([]);
    expect(missing([...DEFINITION_PROBLEMS, 'invalid'].map((p) => `qe.designer.problems.${p}`))).toEqual([]);
    // the pattern faults reach definitionErrors through a variable, out of the source scan's sight
    expect(DEFINITION_PROBLEMS).toEqual(expect.arrayContaining(['badPattern', 'complexPattern']));
  });

  it('every question type has its name in both files', () => {
    expect(QUESTION_TYPES).toHaveLength(10);
    expect(missing(QUESTION_TYPES.map((t) => `qe.question.types.${t}`))).toEqual([]);
  });

  it('every answer problem has its text in both files', () => {
    expect(missing(ANSWER_PROBLEMS.map((p) => `qe.question.answerProblems.${p}`))).toEqual([]);
  });

  it('the keys the designer builds at run time exist', () => {
    const kinds = ['option', 'row', 'column'];
    const keys = [
      ...kinds.flatMap((k) => [`qe.designer.defaults.${k}`, `qe.designer.${k}s.title`, `qe.designer.${k}s.add`, `qe.designer.where.${k}`, `qe.designer.where.${k}s`]),
      ...['atLeast', 'atMost', 'exactly', 'length', 'number', 'pattern', 'min', 'max', 'minLength', 'maxLength'].map((k) => `qe.designer.rule.${k}`),
      ...['PARAGRAPH', 'DATE', 'TIME'].map((t) => `qe.designer.question.hint.${t}`),
      ...['section', 'sections', 'question', 'questions'].map((k) => `qe.designer.where.${k}`),
      ...['PREPARING', 'NOT_OPEN', 'PROCESSING', 'FINISHED'].map((s) => `qe.questionnaire.status.${s}`),
    ];
    expect(missing(keys)).toEqual([]);
  });

  it('uses Hong Kong wording', () => {
    expect(['GRID_RADIO', 'SHORT_TEXT', 'PARAGRAPH', 'RADIO', 'CHECKBOX', 'DROPDOWN', 'LINEAR_SCALE', 'GRID_CHECKBOX', 'DATE', 'TIME'].map((t) => zh.get(`qe.question.types.${t}`))).toEqual([
      '單選方格',
      '簡答',
      '段落',
      '單選題',
      '多選題',
      '下拉選單',
      '線性刻度',
      '核取方塊格',
      '日期',
      '時間',
    ]);
    expect(zh.get('qe.question.required')).toBe('必答');
    expect(zh.get('qe.question.other')).toBe('其他');
    expect(zh.get('qe.designer.preview.button')).toBe('預覽');
    expect(zh.get('qe.designer.options.title')).toBe('選項');
    expect(zh.get('qe.designer.question.title')).toBe('問題');
    expect(zh.get('qe.designer.section.add')).toBe('新增區段');
  });
});
