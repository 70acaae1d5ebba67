import type { DB } from '../db/connect.js';
import type { Definition, Question } from '../../shared/questionnaire/definition.js';
import type { Answer, Answers, GridCheckboxAnswer, GridRadioAnswer, MultiChoiceAnswer, SingleChoiceAnswer } from '../../shared/questionnaire/answers.js';
import { OTHER } from '../../shared/questionnaire/answers.js';

/**
 * One reply's answers as rows the database can count (table reply_answers): a row per
 * chosen option, per grid cell, per scale point, date or time, and per text. `item` is what
 * is counted (an option id, a grid row id, the value of a scale/date/time answer; '' for a
 * text); `col` a grid column id; `value_text` the text of a text answer or of an 'other'.
 */
export interface ReplyAnswerRow {
  reply_id: string;
  questionnaire_id: number;
  question_id: string;
  item: string;
  col: string;
  value_text: string | null;
  value_number: number | null;
}

function rowsOf(question: Question, answer: Answer): Omit<ReplyAnswerRow, 'reply_id' | 'questionnaire_id' | 'question_id'>[] {
  const cell = (item: string, col = '', value_text: string | null = null, value_number: number | null = null) => ({ item, col, value_text, value_number });
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
        .map(([row, col]) => cell(row, col));
    case 'GRID_CHECKBOX':
      return Object.entries((answer ?? {}) as GridCheckboxAnswer).flatMap(([row, cols]) => [...new Set(Array.isArray(cols) ? cols : [])].map((col) => cell(row, col)));
    default:
      return [];
  }
}

/** The rows of one reply, for the questions the definition has (answers of questions no longer there are left out). */
export function answerRows(definition: Definition, questionnaireId: number, replyId: string, answers: Answers): ReplyAnswerRow[] {
  const out: ReplyAnswerRow[] = [];
  for (const section of definition.sections) {
    for (const question of section.questions) {
      const answer = answers[question.id];
      if (answer === undefined || answer === null) continue;
      for (const r of rowsOf(question, answer)) out.push({ reply_id: replyId, questionnaire_id: questionnaireId, question_id: question.id, ...r });
    }
  }
  return out;
}

/** Inserts rows in chunks (SQLite allows 32,766 bound values a statement; 7 a row). */
export async function insertAnswerRows(db: DB, rows: ReplyAnswerRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 1000) await db.insertInto('reply_answers').values(rows.slice(i, i + 1000)).execute();
}
