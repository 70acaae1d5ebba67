import type { DB } from '../db/connect.js';
import type { AnswerCountsTable, AnswerTotalsTable, ReplyAnswersTable } from '../db/schema.js';
import type { Definition } from '../../shared/questionnaire/definition.js';
import type { Answers } from '../../shared/questionnaire/answers.js';
import { rulesOf, type AnswerCell } from '../../shared/questionnaire/question-types/index.js';
import { parseDefinition } from '../questionnaires/definitions.js';
import { addingToCount, insertRows } from '../db/bulk.js';
import { countTerms, rebuildTerms, storeTerms } from './terms.js';

/**
 * One reply's answers as countable rows: a row per
 * chosen option, per grid cell, per scale point, date or time. `item` is what is counted (an
 * option id, a grid row id, the value of a scale/date/time answer); `col` a grid column id;
 * `value_text` the text of a text answer or of an 'other'. Every answered question also has
 * one row with item '' and col '' (a text answer is that row), and every answered grid row
 * one with col '': so one grouped count gives the choices, how many answered each question
 * and each grid row. Each row is counted in answer_counts per the reply's group (role, grade,
 * class, repeated on the row); only the rows with a text are stored (table reply_answers), to be
 * read back a page of texts at a time.
 */
export type ReplyAnswerRow = ReplyAnswersTable;

/** The reply the rows belong to: its id, questionnaire and group. */
export type ReplyOfRows = Pick<ReplyAnswerRow, 'questionnaire_id' | 'respondent_role' | 'grade_id' | 'class_id'> & { id: string };

/** A row's own cells; which rows an answer makes is its type's `rowsOf` (src/shared/questionnaire/question-types/). */
type Cell = AnswerCell;

/** The question id of the row that stands for the reply itself (counted, never stored). */
export const REPLY_QUESTION_ID = '';

/** The rows of one reply — its own, then one per answer —, for the questions the definition has (answers of questions no longer there are left out). */
export function answerRows(definition: Definition, reply: ReplyOfRows, answers: Answers): ReplyAnswerRow[] {
  const { id: reply_id, questionnaire_id, respondent_role, grade_id, class_id } = reply;
  // every row written out field by field: one shape for all, and no spread per row (a reply has ~150)
  const row = (question_id: string, c: Cell): ReplyAnswerRow => ({ reply_id, questionnaire_id, question_id, item: c.item, col: c.col, value_text: c.value_text, value_number: c.value_number, respondent_role, grade_id, class_id });
  // the reply itself: its counter is how many replies a group has (no question has the empty id)
  const out: ReplyAnswerRow[] = [row(REPLY_QUESTION_ID, ANSWERED)];
  for (const section of definition.sections) {
    for (const question of section.questions) {
      const answer = answers[question.id];
      if (answer === undefined || answer === null) continue;
      const cells = rulesOf(question.type).rowsOf(question, answer);
      if (!cells.length) continue;
      // the question's "answered" row, unless the text answer is that row already
      if (!cells.some((c) => c.item === '' && c.col === '')) out.push(row(question.id, ANSWERED));
      for (const c of cells) out.push(row(question.id, c));
    }
  }
  return out;
}

/** The cells of the row that says a question (or the reply) was answered. */
const ANSWERED: Cell = { item: '', col: '', value_text: null, value_number: null };

/**
 * Stores the rows that carry a text (text answers, "other" texts): the only rows read back, a page
 * of texts at a time. Every other row is counted (answer_counts) and not kept: the counters answer
 * every count, and a recount reads the replies themselves (recountAnswers).
 */
export async function storeAnswerRows(db: DB, rows: ReplyAnswerRow[]): Promise<void> {
  const kept: unknown[][] = [];
  const texts: ReplyAnswerRow[] = [];
  for (const r of rows) {
    if (r.value_text === null) continue;
    kept.push(STORED.map((c) => r[c]));
    texts.push(r);
  }
  await insertRows(db, 'reply_answers', STORED, kept);
  // which answers use which words (statistics/terms.ts), beside the texts
  await storeTerms(db, texts);
}

const STORED = ['reply_id', 'questionnaire_id', 'question_id', 'item', 'col', 'value_text', 'value_number', 'respondent_role', 'grade_id', 'class_id'] as const;

/** A reply's rows as results take them in: the texts stored, every row counted. */
export async function insertAnswerRows(db: DB, rows: ReplyAnswerRow[]): Promise<void> {
  await storeAnswerRows(db, rows);
  await countAnswerRows(db, rows, 1);
}

const COUNTED = ['questionnaire_id', 'question_id', 'item', 'col', 'respondent_role', 'grade_id', 'class_id'] as const;
const TOTALLED = ['questionnaire_id', 'question_id', 'item', 'col'] as const;
const ADD_TO_COUNTS = addingToCount('answer_counts', COUNTED);
const ADD_TO_TOTALS = addingToCount('answer_totals', TOTALLED);

/** question id → item → col → what is counted there */
type ByCell<T> = Map<string, Map<string, Map<string, T>>>;

function cellOf<T>(byCell: ByCell<T>, question: string, item: string, col: string, make: () => T): T {
  let items = byCell.get(question);
  if (!items) byCell.set(question, (items = new Map()));
  let cols = items.get(item);
  if (!cols) items.set(item, (cols = new Map()));
  let cell = cols.get(col);
  if (cell === undefined) cols.set(col, (cell = make()));
  return cell;
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The one order every writer writes counters in: their columns in COUNTED's order, compared as
 * text (as the columns joined by NUL would compare), so concurrent writers on PostgreSQL lock the
 * rows they share in the same order and never deadlock.
 */
function inCellOrder(a: AnswerTotalsTable, b: AnswerTotalsTable): number {
  return compareText(String(a.questionnaire_id), String(b.questionnaire_id)) || compareText(a.question_id, b.question_id) || compareText(a.item, b.item) || compareText(a.col, b.col);
}

/** The counters' order: their cell's (the totals' order), then their group's. */
function inKeyOrder(a: AnswerCountsTable, b: AnswerCountsTable): number {
  return (
    inCellOrder(a, b) ||
    compareText(a.respondent_role, b.respondent_role) ||
    compareText(String(a.grade_id), String(b.grade_id)) ||
    compareText(String(a.class_id), String(b.class_id))
  );
}

/**
 * Counters added up in memory (many replies' rows), then written at once. Kept per respondent
 * group, then by question, item and column: a reply's ~150 rows share its group, and looking a
 * counter up by its short parts is far cheaper than building a joined key for every row (the
 * tally was a third of the counting's time).
 */
export class CounterTally {
  /** questionnaire, role, grade and class joined by NUL (ids hold no NUL: the trim plugin refuses it) → its counters */
  private readonly groups = new Map<string, ByCell<AnswerCountsTable>>();
  /** questionnaire → the same summed over the groups (answer_totals, migration 0022) */
  private readonly totals = new Map<number, ByCell<AnswerTotalsTable>>();

  /** `withTotals` false: for migrations before 0022, which made the totals table from the counters */
  constructor(private readonly withTotals = true) {}

  add(rows: ReplyAnswerRow[], sign: 1 | -1): this {
    // the previous row's group, looked up again only when a row's differs (a reply's rows share it)
    let last: ReplyAnswerRow | undefined;
    let group: ByCell<AnswerCountsTable> | undefined;
    let totals: ByCell<AnswerTotalsTable> | undefined;
    for (const r of rows) {
      const { questionnaire_id, question_id, item, col } = r;
      const respondent_role = r.respondent_role ?? '';
      const grade_id = r.grade_id ?? 0;
      const class_id = r.class_id ?? 0;
      if (!last || !group || !totals || last.questionnaire_id !== questionnaire_id || last.respondent_role !== r.respondent_role || last.grade_id !== r.grade_id || last.class_id !== r.class_id) {
        last = r;
        const key = `${questionnaire_id}\u0000${respondent_role}\u0000${grade_id}\u0000${class_id}`;
        group = this.groups.get(key);
        if (!group) this.groups.set(key, (group = new Map()));
        totals = this.totals.get(questionnaire_id);
        if (!totals) this.totals.set(questionnaire_id, (totals = new Map()));
      }
      cellOf(group, question_id, item, col, () => ({ questionnaire_id, question_id, item, col, respondent_role, grade_id, class_id, n: 0 })).n += sign;
      cellOf(totals, question_id, item, col, () => ({ questionnaire_id, question_id, item, col, n: 0 })).n += sign;
    }
    return this;
  }

  /** Adds the tally to answer_counts (migration 0018) and answer_totals, each in inKeyOrder. */
  async write(db: DB): Promise<void> {
    const counters: AnswerCountsTable[] = [];
    for (const group of this.groups.values()) for (const items of group.values()) for (const cols of items.values()) for (const c of cols.values()) counters.push(c);
    counters.sort(inKeyOrder);
    await insertRows(db, 'answer_counts', [...COUNTED, 'n'], counters.map((c) => [c.questionnaire_id, c.question_id, c.item, c.col, c.respondent_role, c.grade_id, c.class_id, c.n]), ADD_TO_COUNTS);
    if (!this.withTotals) return;
    const totals: AnswerTotalsTable[] = [];
    for (const byCell of this.totals.values()) for (const items of byCell.values()) for (const cols of items.values()) for (const t of cols.values()) totals.push(t);
    totals.sort(inCellOrder);
    await insertRows(db, 'answer_totals', [...TOTALLED, 'n'], totals.map((t) => [t.questionnaire_id, t.question_id, t.item, t.col, t.n]), ADD_TO_TOTALS);
  }
}

/** The counters of answer rows: `sign` 1 as a reply enters results, -1 as it leaves — in the transaction that does it. */
export async function countAnswerRows(db: DB, rows: ReplyAnswerRow[], sign: 1 | -1, withTotals = true): Promise<void> {
  await new CounterTally(withTotals).add(rows, sign).write(db);
  // the terms' counters came after the totals (0035); a migration before 0022 has neither
  if (withTotals) await countTerms(db, rows, sign);
}

/**
 * Every counter counted again from the replies in results (after a restore, which archives
 * replies, not counters), and the terms of the stored texts made again: their own answers through their questionnaire's definition, as the
 * submission counted them. Named replies still to count (`counted` 0) are left to the counting
 * (statistics/counting.ts), which writes their rows and counters.
 */
export async function recountAnswers(db: DB, withTotals = true): Promise<void> {
  await db.deleteFrom('answer_counts').execute();
  if (withTotals) await db.deleteFrom('answer_totals').execute();
  const questionnaires = await db
    .selectFrom('questionnaires')
    .select(['id', 'definition'])
    .where('id', 'in', db.selectFrom('replies').select('questionnaire_id'))
    .execute();
  const PAGE = 1000;
  for (const q of questionnaires) {
    const definition = parseDefinition(q.definition);
    const tally = new CounterTally(withTotals);
    let after = '';
    for (;;) {
      const replies = await db
        .selectFrom('replies')
        .select(['id', 'answers', 'respondent_role', 'grade_id', 'class_id'])
        .where('questionnaire_id', '=', q.id)
        .where('released', '=', 1)
        .where('counted', '=', 1)
        .where('id', '>', after)
        .orderBy('id')
        .limit(PAGE)
        .execute();
      for (const r of replies) {
        tally.add(answerRows(definition, { id: r.id, questionnaire_id: q.id, respondent_role: r.respondent_role ?? null, grade_id: r.grade_id ?? null, class_id: r.class_id ?? null }, JSON.parse(r.answers) as Answers), 1);
      }
      if (replies.length < PAGE) break;
      after = replies[replies.length - 1].id;
    }
    await tally.write(db);
  }
  // the texts' terms, from the texts restored (statistics/terms.ts; migration 0035, after the totals)
  if (withTotals) await rebuildTerms(db);
}
