import type { DB } from '../db/connect.js';
import { addingToCount, insertRows } from '../db/bulk.js';
import { termsOf } from '../../shared/statistics/terms.js';
import { OTHER } from '../../shared/questionnaire/answers.js';
import type { ReplyAnswersTable as ReplyAnswerRow } from '../db/schema.js';

/**
 * The words and phrases of the stored texts (src/shared/statistics/terms.ts), kept beside them by
 * the same writers in the same transactions (migration 0035): `text_terms` says which answers use a
 * term, `term_counts` and `term_totals` how many — so the most frequent terms of a question read a
 * few dozen rows however many answers it has. A text is one of a question's answers (item '') or
 * a choice's 'other' text (item OTHER); grid cells keep no text.
 */

/** The terms of a row that keeps a text; none for any other row. */
function termsOfRow(row: ReplyAnswerRow): string[] {
  if (row.col !== '' || (row.item !== '' && row.item !== OTHER) || !row.value_text) return [];
  return termsOf(row.value_text);
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const TERM_ROW = ['questionnaire_id', 'question_id', 'item', 'term', 'reply_id'] as const;

/** Which answers use which terms: written with the texts (answerRows.ts storeAnswerRows). */
export async function storeTerms(db: DB, rows: readonly ReplyAnswerRow[]): Promise<void> {
  const out: [number, string, string, string, string][] = [];
  for (const r of rows) for (const term of termsOfRow(r)) out.push([r.questionnaire_id, r.question_id, r.item, term, r.reply_id]);
  await insertRows(db, 'text_terms', TERM_ROW, out);
}

const COUNTED = ['questionnaire_id', 'question_id', 'item', 'term', 'respondent_role', 'grade_id', 'class_id'] as const;
const TOTALLED = ['questionnaire_id', 'question_id', 'item', 'term'] as const;
const ADD_TO_COUNTS = addingToCount('term_counts', COUNTED);
const ADD_TO_TOTALS = addingToCount('term_totals', TOTALLED);

/**
 * How many answers use each term, per group and in all: `sign` 1 as replies enter results, -1 as
 * they leave, in the transaction that does it (answerRows.ts countAnswerRows). Written in key
 * order, as the answer counters are, so concurrent writers on PostgreSQL never deadlock.
 */
export async function countTerms(db: DB, rows: readonly ReplyAnswerRow[], sign: 1 | -1): Promise<void> {
  const counts = new Map<string, { key: (string | number)[]; n: number }>();
  const totals = new Map<string, { key: (string | number)[]; n: number }>();
  const add = (into: typeof counts, key: (string | number)[]) => {
    const joined = key.join('\u0000');
    const found = into.get(joined);
    if (found) found.n += sign;
    else into.set(joined, { key, n: sign });
  };
  for (const r of rows) {
    for (const term of termsOfRow(r)) {
      add(counts, [r.questionnaire_id, r.question_id, r.item, term, r.respondent_role ?? '', r.grade_id ?? 0, r.class_id ?? 0]);
      add(totals, [r.questionnaire_id, r.question_id, r.item, term]);
    }
  }
  if (!counts.size) return;
  const inOrder = (m: typeof counts) => [...m.entries()].sort((a, b) => compare(a[0], b[0])).map(([, v]) => [...v.key, v.n]);
  await insertRows(db, 'term_counts', [...COUNTED, 'n'], inOrder(counts), ADD_TO_COUNTS);
  await insertRows(db, 'term_totals', [...TOTALLED, 'n'], inOrder(totals), ADD_TO_TOTALS);
}

/**
 * Every term made again from the stored texts (after a restore, which archives the texts, not what
 * is derived from them; and by migration 0035 for what was stored before it).
 */
export async function rebuildTerms(db: DB): Promise<void> {
  for (const table of ['term_totals', 'term_counts', 'text_terms'] as const) await db.deleteFrom(table).execute();
  const PAGE = 2000;
  let after: { reply_id: string; question_id: string; item: string } | null = null;
  for (;;) {
    let q = db
      .selectFrom('reply_answers')
      .select(['reply_id', 'questionnaire_id', 'question_id', 'item', 'col', 'value_text', 'value_number', 'respondent_role', 'grade_id', 'class_id'])
      .where('value_text', 'is not', null)
      .where('col', '=', '');
    if (after) {
      const { reply_id, question_id, item } = after;
      q = q.where((eb) => eb.or([eb('reply_id', '>', reply_id), eb.and([eb('reply_id', '=', reply_id), eb.or([eb('question_id', '>', question_id), eb.and([eb('question_id', '=', question_id), eb('item', '>', item)])])])]));
    }
    const rows = await q.orderBy('reply_id').orderBy('question_id').orderBy('item').limit(PAGE).execute();
    await storeTerms(db, rows);
    await countTerms(db, rows, 1);
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1];
  }
}
