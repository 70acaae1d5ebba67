/**
 * What the grids share (GRID_RADIO: one column per row; GRID_CHECKBOX: several), answered per
 * row of `rows` from `columns`, with at most one row per column where `onePerColumn`. Each
 * type's module composes these.
 */
import { percent } from '../../statistics/types.js';
import type { Answer, AnswerProblem, GridCheckboxAnswer, GridRadioAnswer } from '../answer-types.js';
import { cell, choicesErrors, countIn, countProblem, ids, isObject, isStringArray, labelsOf, ruleErrors } from './common.js';
import type { ColumnsOf, QuestionTypeRules } from './rules.js';

/** The answered rows of a grid answer with their column ids (a radio row as a list of one). */
function gridRows(answer: Record<string, unknown>): [string, string[]][] {
  return Object.entries(answer)
    .map(([row, v]): [string, string[]] => [row, Array.isArray(v) ? (v as string[]) : typeof v === 'string' && v !== '' ? [v] : []])
    .filter(([, cols]) => cols.length > 0);
}

/** A grid's columns, one per row: the chosen columns' labels. */
function gridColumns(chosenIn: (answer: Answer | undefined, rowId: string) => string[]): ColumnsOf {
  return (question, header) => {
    const columns = labelsOf(question.columns);
    const label = (c: string) => columns.get(c) ?? c;
    return (question.rows ?? []).map((row) => ({
      header: `${header} [${row.label}]`,
      value: (answers) => {
        const chosen = chosenIn(answers[question.id], row.id);
        return chosen.length ? chosen.map(label).join('; ') : null;
      },
    }));
  };
}

/** A grid of one column per row (`one`) or several, as many per row as its choice rule allows (counted among the columns). */
export function grid(kind: 'one' | 'several'): Omit<QuestionTypeRules, 'type'> {
  return {
    answeredFrom: 'grid',
    settingsErrors(q, path, add, budget) {
      choicesErrors(q.rows, `${path}.rows`, add, 1);
      choicesErrors(q.columns, `${path}.columns`, add, 2);
      ruleErrors(q, path, add, budget, kind === 'several' ? { choiceRule: 'columns' } : {});
    },
    isAnswered: (answer) => isObject(answer) && Object.values(answer).some((v) => (Array.isArray(v) ? v.length > 0 : typeof v === 'string' && v !== '')),
    answerProblem(question, answer): AnswerProblem | null {
      const grid = answer as Record<string, unknown>;
      const rows = ids(question.rows);
      const columns = ids(question.columns);
      for (const [row, value] of Object.entries(grid)) {
        if (!rows.has(row)) return { problem: 'invalid' };
        if (
          kind === 'one'
            ? typeof value !== 'string' || (value !== '' && !columns.has(value))
            : !isStringArray(value) || new Set(value).size !== value.length || value.some((c) => !columns.has(c))
        ) {
          return { problem: 'invalid' };
        }
      }
      const answered = new Map(gridRows(grid));
      if (question.required) {
        const missing = (question.rows ?? []).find((r) => !answered.has(r.id));
        if (missing) return { problem: 'requiredRow', row: missing.id };
      }
      if (kind === 'several') {
        for (const r of question.rows ?? []) {
          const cols = answered.get(r.id);
          const problem = cols && countProblem(question.choiceRule, cols.length, r.id);
          if (problem) return problem;
        }
      }
      if (question.onePerColumn) {
        const seen = new Set<string>();
        for (const r of question.rows ?? []) {
          for (const c of answered.get(r.id) ?? []) {
            if (seen.has(c)) return { problem: 'onePerColumn', row: r.id };
            seen.add(c);
          }
        }
      }
      return null;
    },
    sampleAnswer(question, s) {
      const rows = (question.rows ?? []).map((r) => r.id);
      const columns = (question.columns ?? []).map((c) => c.id);
      const free = [...columns];
      if (kind === 'one') {
        // one per column: each row its own column, in a shuffled order
        return Object.fromEntries(rows.map((row) => [row, question.onePerColumn && free.length ? free.splice(s.between(0, free.length - 1), 1)[0] : columns[s.skewed(columns.length)]]));
      }
      const answer: Record<string, string[]> = {};
      for (const [index, row] of rows.entries()) {
        const from = question.onePerColumn ? free : columns;
        // one per column: a column left for each row still to come
        const room = question.onePerColumn ? Math.max(1, from.length - (rows.length - index - 1)) : from.length;
        const chosen = s.some(from.length, Math.min(s.howMany(from.length), room)).map((i) => from[i]);
        if (question.onePerColumn) for (const c of chosen) free.splice(free.indexOf(c), 1);
        if (chosen.length) answer[row] = chosen;
      }
      return answer;
    },
    rowsOf(_question, answer) {
      if (kind === 'one') {
        return Object.entries((answer ?? {}) as GridRadioAnswer)
          .filter(([, col]) => typeof col === 'string' && col !== '')
          .flatMap(([row, col]) => [cell(row), cell(row, col)]);
      }
      return Object.entries((answer ?? {}) as GridCheckboxAnswer).flatMap(([row, cols]) => {
        const chosen = [...new Set(Array.isArray(cols) ? cols : [])].filter((col) => typeof col === 'string' && col !== '');
        return chosen.length ? [cell(row), ...chosen.map((col) => cell(row, col))] : [];
      });
    },
    summary(question, cells, _answered, rowBases) {
      const count = countIn(cells);
      const columns = (question.columns ?? []).map((c) => ({ id: c.id, label: c.label }));
      return {
        kind: 'grid',
        columns,
        rows: (question.rows ?? []).map((row) => {
          const base = rowBases.get(`${question.id}\u0000${row.id}`) ?? 0;
          return { id: row.id, label: row.label, base, cells: columns.map((c) => ({ id: c.id, count: count(row.id, c.id), percent: percent(count(row.id, c.id), base) })) };
        }),
      };
    },
    answerColumns:
      kind === 'one'
        ? gridColumns((answer, rowId) => {
            const chosen = (answer as GridRadioAnswer | undefined)?.[rowId];
            return chosen ? [chosen] : [];
          })
        : gridColumns((answer, rowId) => ((answer as GridCheckboxAnswer | undefined)?.[rowId] ?? []).filter(Boolean)),
  };
}
