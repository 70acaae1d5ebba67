/**
 * Helpers every family of question types uses: checks of a definition's parts and of its
 * response rules, ids of choices, answer rows and raw-sheet columns.
 */
import type { ChoiceCountRule, Question } from '../definition-types.js';
import type { Answer, AnswerProblem } from '../answer-types.js';
import { compilePattern, DEFINITION_MAX_PROGRAM, PATTERN_MAX_LENGTH } from '../pattern.js';
import type { AddProblem, AnswerCell, ColumnsOf, CountRow, ExportTranslate, PatternBudget } from './rules.js';

/** The most a definition may hold, and the longest text of a part. */
export const DEFINITION_LIMITS = { sections: 50, questions: 300, choices: 100, text: 2000 };

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
export const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
export const isText = (v: unknown, max = DEFINITION_LIMITS.text) => typeof v === 'string' && v.length <= max;

/** The checks of a list of choices (options, rows, columns): at least `min`, each with a unique id and a label. */
export function choicesErrors(list: unknown, path: string, add: AddProblem, min: number) {
  if (!Array.isArray(list) || list.length < min) return add(path, 'tooFewChoices');
  if (list.length > DEFINITION_LIMITS.choices) add(path, 'tooMany');
  const ids = new Set<string>();
  list.forEach((c, i) => {
    if (!isObject(c) || typeof c.id !== 'string' || !c.id) return add(`${path}.${i}`, 'notAChoice');
    if (ids.has(c.id)) add(`${path}.${i}.id`, 'duplicateId');
    ids.add(c.id);
    if (typeof c.label !== 'string' || !c.label.trim()) add(`${path}.${i}.label`, 'required');
    else if (!isText(c.label, 500)) add(`${path}.${i}.label`, 'tooLong');
  });
}

/** The response rules a type takes: a choice count (counted among its options or its columns), a text rule. */
export interface RulesTaken {
  choiceRule?: 'options' | 'columns';
  textRule?: boolean;
}

/** The checks of a question's response rules: a rule the type does not take is a bad one. */
export function ruleErrors(q: Record<string, unknown>, path: string, add: AddProblem, budget: PatternBudget, taken: RulesTaken) {
  if (q.choiceRule !== undefined) {
    const r = q.choiceRule;
    const choices = taken.choiceRule === 'columns' ? q.columns : q.options;
    const n = Array.isArray(choices) ? choices.length + (q.other ? 1 : 0) : 0;
    if (!taken.choiceRule || !isObject(r) || !['atLeast', 'atMost', 'exactly'].includes(r.kind as string) || !Number.isInteger(r.count) || (r.count as number) < 1 || (r.count as number) > n) {
      add(`${path}.choiceRule`, 'badRule');
    }
  }
  if (q.textRule !== undefined) {
    const r = q.textRule;
    let bad = !taken.textRule || !isObject(r) || !['length', 'number', 'pattern'].includes(r.kind as string);
    if (!bad && isObject(r) && r.kind === 'pattern') {
      if (typeof r.pattern !== 'string') bad = true;
      else if (r.pattern.length > PATTERN_MAX_LENGTH) return add(`${path}.textRule`, 'tooLong');
      else {
        // compiled by the engine answers are checked with (RE2), never by RegExp; what it compiled
        // counts against the questionnaire's budget, refused patterns too, so saving stays cheap
        if (budget.program > DEFINITION_MAX_PROGRAM) return add(`${path}.textRule`, 'complexPattern');
        const compiled = compilePattern(r.pattern);
        // null: a browser still loading the engine; the server judges the pattern on save
        if (!compiled) return;
        budget.program += compiled.size;
        if (!compiled.ok) return add(`${path}.textRule`, compiled.fault);
        if (budget.program > DEFINITION_MAX_PROGRAM) return add(`${path}.textRule`, 'complexPattern');
      }
    }
    if (!bad && isObject(r) && r.min !== undefined && r.max !== undefined && Number(r.min) > Number(r.max)) bad = true;
    if (bad) add(`${path}.textRule`, 'badRule');
  }
}

/** The ids of a question's options, rows or columns. */
export const ids = (list: { id: string }[] | undefined) => new Set((list ?? []).map((c) => c.id));

/** Whether `n` choices keep a choice count rule (null when they do, or there is none). */
export function countProblem(rule: ChoiceCountRule | undefined, n: number, row?: string): AnswerProblem | null {
  if (!rule) return null;
  const { kind, count } = rule;
  if (kind === 'atLeast' && n < count) return { problem: 'atLeast', count, row };
  if (kind === 'atMost' && n > count) return { problem: 'atMost', count, row };
  if (kind === 'exactly' && n !== count) return { problem: 'exactly', count, row };
  return null;
}

/** An answer row. */
export const cell = (item: string, col = '', value_text: string | null = null, value_number: number | null = null): AnswerCell => ({ item, col, value_text, value_number });

/** How many replies gave `item` (and `col`) among a question's counts. */
export function countIn(cells: CountRow[]): (item: string, col?: string) => number {
  if (cells.length <= 16) return (item, col = '') => cells.find((c) => c.item === item && c.col === col)?.n ?? 0;
  // looked up, not searched: a date question has a cell per day answered, and each is counted
  const counts = new Map(cells.map((c) => [`${c.item}\u0000${c.col}`, c.n]));
  return (item, col = '') => counts.get(`${item}\u0000${col}`) ?? 0;
}

/** Labels by id (options or grid columns), looked up once per cell rather than searched. */
export const labelsOf = (items: { id: string; label: string }[] | undefined) => new Map((items ?? []).map((o) => [o.id, o.label]));

/** One question's column: its answer as `value` gives it, a missing or blank answer an empty cell. */
export function oneColumn(value: (question: Question) => (answer: Answer, t: ExportTranslate) => string | number | null): ColumnsOf {
  return (question, header) => {
    const of = value(question);
    return [
      {
        header,
        value: (answers, t) => {
          const answer = answers[question.id];
          return answer === undefined || answer === null || answer === '' ? null : of(answer, t);
        },
      },
    ];
  };
}
