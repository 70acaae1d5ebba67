import type { DB } from '../db/connect.js';
import type { ReplyAnswersTable } from '../db/schema.js';
import type { Definition, Question } from '../../shared/questionnaire/definition.js';
import type { Answer, Answers, GridCheckboxAnswer, GridRadioAnswer, MultiChoiceAnswer, SingleChoiceAnswer } from '../../shared/questionnaire/answers.js';
import { OTHER } from '../../shared/questionnaire/answers.js';

/**
 * One reply's answers as rows the database can count (table reply_answers): a row per
 * chosen option, per grid cell, per scale point, date or time. `item` is what is counted (an
 * option id, a grid row id, the value of a scale/date/time answer); `col` a grid column id;
 * `value_text` the text of a text answer or of an 'other'. Every answered question also has
 * one row with item '' and col '' (a text answer is that row), and every answered grid row
 * one with col '': so one grouped count gives the choices, how many answered each question
 * and each grid row. The reply's group (role, grade, class) is repeated on each row, so a
 * filtered count reads one index range instead of joining every row to its reply.
 */
export type ReplyAnswerRow = ReplyAnswersTable;

/** The reply the rows belong to: its id, questionnaire and group. */
export type ReplyOfRows = Pick<ReplyAnswerRow, 'questionnaire_id' | 'respondent_role' | 'grade_id' | 'class_id'> & { id: string };

type Cell = Pick<ReplyAnswerRow, 'item' | 'col' | 'value_text' | 'value_number'>;

function rowsOf(question: Question, answer: Answer): Cell[] {
  const cell = (item: string, col = '', value_text: string | null = null, value_number: number | null = null): Cell => ({ item, col, value_text, value_number });
  switch (question.type) {
    case 'SHORT_TEXT':
    case 'PARAGRAPH':
      return typeof answer === 'string' && answer !== '' ? [cell('', '', answer)] : [];
    case 'DATE':
    case 'TIME':
      return typeof answer === 'string' && answer !== '' ? [cell(answer)] : [];
    case 'LINEAR_SCALE':
      return typeof answer === 'number' ? [cell(String(answer), '', null, answer)] : [];
    case 'RADIO':
    case 'DROPDOWN': {
      const a = answer as SingleChoiceAnswer;
      if (!a?.choice) return [];
      return [cell(a.choice, '', a.choice === OTHER ? (a.otherText ?? null) : null)];
    }
    case 'CHECKBOX': {
      const a = answer as MultiChoiceAnswer;
      return [...new Set(a?.choices ?? [])].map((c) => cell(c, '', c === OTHER ? (a.otherText ?? null) : null));
    }
    case 'GRID_RADIO':
      return Object.entries((answer ?? {}) as GridRadioAnswer)
        .filter(([, col]) => typeof col === 'string' && col !== '')
        .flatMap(([row, col]) => [cell(row), cell(row, col)]);
    case 'GRID_CHECKBOX':
      return Object.entries((answer ?? {}) as GridCheckboxAnswer).flatMap(([row, cols]) => {
        const chosen = [...new Set(Array.isArray(cols) ? cols : [])].filter((col) => typeof col === 'string' && col !== '');
        return chosen.length ? [cell(row), ...chosen.map((col) => cell(row, col))] : [];
      });
    default:
      return [];
  }
}

/** The rows of one reply, for the questions the definition has (answers of questions no longer there are left out). */
export function answerRows(definition: Definition, reply: ReplyOfRows, answers: Answers): ReplyAnswerRow[] {
  const out: ReplyAnswerRow[] = [];
  const of = { reply_id: reply.id, questionnaire_id: reply.questionnaire_id, respondent_role: reply.respondent_role, grade_id: reply.grade_id, class_id: reply.class_id };
  for (const section of definition.sections) {
    for (const question of section.questions) {
      const answer = answers[question.id];
      if (answer === undefined || answer === null) continue;
      const cells = rowsOf(question, answer);
      if (!cells.length) continue;
      // the question's "answered" row, unless the text answer is that row already
      if (!cells.some((c) => c.item === '' && c.col === '')) cells.push({ item: '', col: '', value_text: null, value_number: null });
      for (const c of cells) out.push({ ...of, question_id: question.id, ...c });
    }
  }
  return out;
}

/** Inserts rows in chunks (SQLite allows 32,766 bound values a statement; 10 a row). */
export async function insertAnswerRows(db: DB, rows: ReplyAnswerRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 1000) await db.insertInto('reply_answers').values(rows.slice(i, i + 1000)).execute();
}
