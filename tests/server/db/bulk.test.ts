import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRows } from '../../../src/server/db/bulk.js';
import { testApp, type TestApp } from '../harness.js';
import { as, create, oneQuestion } from '../questionnaires/helpers.js';

/**
 * Rows written as plain SQL (db/bulk.ts), on both databases: every row arrives with its values in
 * their columns whatever the count (statements of 64, 32, … 1 on SQLite, 512 on PostgreSQL), an
 * upsert adds to what is there, and a row of the wrong length is refused before anything is sent.
 */
describe('rows written in bulk', () => {
  let t: TestApp;
  /** the rows of each case are told apart by their question ids' prefix */
  let questionnaireId: number;
  beforeAll(async () => {
    t = await testApp({ demo: true });
    questionnaireId = (await create(await as(t, 'teacher01'), { title: 'Bulk rows', targets: [{ kind: 'ALL_STUDENTS' }], type: 'NAMED', definition: oneQuestion() })).id;
  });
  afterAll(async () => t?.close());

  const totals = (prefix: string) =>
    t.db.selectFrom('answer_totals').select(['question_id', 'item', 'col', 'n']).where('questionnaire_id', '=', questionnaireId).where('question_id', 'like', `${prefix}-%`).orderBy('question_id').execute();
  const rows = (prefix: string, count: number, n: number) =>
    Array.from({ length: count }, (_, i) => [questionnaireId, `${prefix}-${String(i).padStart(4, '0')}`, i % 3 ? `opt-${i}` : '', '', n] as const);
  const add = 'on conflict ("questionnaire_id", "question_id", "item", "col") do update set "n" = "answer_totals"."n" + excluded."n"';

  it.each([0, 1, 63, 64, 65, 127, 700])('stores %i rows, each with its own values', async (count) => {
    const prefix = `bulk${count}`;
    await insertRows(t.db, 'answer_totals', ['questionnaire_id', 'question_id', 'item', 'col', 'n'], rows(prefix, count, 2));
    const stored = await totals(prefix);
    expect(stored).toHaveLength(count);
    stored.forEach((r, i) => expect(r).toEqual({ question_id: `${prefix}-${String(i).padStart(4, '0')}`, item: i % 3 ? `opt-${i}` : '', col: '', n: 2 }));
  });

  it('adds to the rows already there with an upsert, and inserts the new ones', async () => {
    await insertRows(t.db, 'answer_totals', ['questionnaire_id', 'question_id', 'item', 'col', 'n'], rows('upsert', 100, 1), add);
    await insertRows(t.db, 'answer_totals', ['questionnaire_id', 'question_id', 'item', 'col', 'n'], rows('upsert', 150, 5), add);
    const stored = await totals('upsert');
    expect(stored).toHaveLength(150);
    expect(stored.slice(0, 100).every((r) => r.n === 6)).toBe(true);
    expect(stored.slice(100).every((r) => r.n === 5)).toBe(true);
  });

  it('writes all or nothing inside a transaction, and refuses a row of the wrong length', async () => {
    await expect(t.db.transaction().execute(async (trx) => {
      await insertRows(trx, 'answer_totals', ['questionnaire_id', 'question_id', 'item', 'col', 'n'], rows('atomic', 80, 1));
      await insertRows(trx, 'answer_totals', ['questionnaire_id', 'question_id', 'item', 'col', 'n'], [[questionnaireId, 'atomic-x', '', '']]);
    })).rejects.toThrow(/4 values for 5 columns/);
    expect(await totals('atomic')).toHaveLength(0);
  });
});
