import type { Answers } from '../../../src/shared/questionnaire/answers.js';
import { seededRandom } from '../../support/random.js';
import { openSession } from '../../../src/server/auth/sessions.js';
import type { TestApp } from '../harness.js';
import type { DB } from '../../../src/server/db/connect.js';
import { answerRows } from '../../../src/server/statistics/answerRows.js';
import type { Definition } from '../../../src/shared/questionnaire/definition.js';
import { caller } from '../master/helpers.js';
import { data } from '../questionnaires/helpers.js';
import { everyType, newKey } from '../filling/helpers.js';
import { sampleAnswers } from '../../../src/shared/questionnaire/sample-answers.js';

/** A small deterministic random source, so a failing run can be repeated. */
export const random = seededRandom;

/** A valid reply to `everyType` (tests/server/filling/helpers.ts) that differs with `i`. */
export function variedAnswers(i: number): Answers {
  return sampleAnswers(everyType(), random(i + 1).next, { other: 0.3 });
}

/** Submits a reply as each user, through the API; answers what each sent. */
export async function submitAs(t: TestApp, questionnaireId: number, userIds: number[], answersOf: (i: number) => Answers): Promise<Map<number, Answers>> {
  const sent = new Map<number, Answers>();
  for (const [i, userId] of userIds.entries()) {
    const call = caller(t.app, await openSession(t.db, t.config, userId));
    const answers = answersOf(i);
    data(await call('POST', `/v1/my/questionnaires/${questionnaireId}/replies`, { submissionKey: newKey(), answers }));
    sent.set(userId, answers);
  }
  return sent;
}

/** A counter's key and count, as one line, for comparing sets of them. */
const line = (c: { question_id: string; item: string; col: string; respondent_role: string | null; grade_id: number | null; class_id: number | null; n: number | string }) =>
  [c.question_id, c.item, c.col, c.respondent_role ?? '', c.grade_id ?? 0, c.class_id ?? 0, Number(c.n)].join('|');

/** The counters QE keeps for a questionnaire (zero counts left out). */
export async function counters(db: DB, id: number): Promise<string[]> {
  const rows = await db.selectFrom('answer_counts').selectAll().where('questionnaire_id', '=', id).execute();
  return rows.filter((r) => Number(r.n) !== 0).map(line).sort();
}

/** The same counted again from the replies' own JSON (released ones), through the rows' definition alone. */
export async function recount(db: DB, id: number, definition: Definition): Promise<string[]> {
  const replies = await db.selectFrom('replies').selectAll().where('questionnaire_id', '=', id).where('released', '=', 1).execute();
  const n = new Map<string, number>();
  for (const r of replies) {
    for (const row of answerRows(definition, { id: r.id, questionnaire_id: id, respondent_role: r.respondent_role ?? null, grade_id: r.grade_id ?? null, class_id: r.class_id ?? null }, JSON.parse(r.answers))) {
      const key = line({ ...row, n: 0 }).replace(/\|0$/, '');
      n.set(key, (n.get(key) ?? 0) + 1);
    }
  }
  return [...n.entries()].map(([key, count]) => `${key}|${count}`).sort();
}

/** The counters' totals QE keeps for a questionnaire (answer_totals, zero counts left out). */
export async function totals(db: DB, id: number): Promise<string[]> {
  const rows = await db.selectFrom('answer_totals').selectAll().where('questionnaire_id', '=', id).execute();
  return rows.filter((r) => Number(r.n) !== 0).map((r) => [r.question_id, r.item, r.col, Number(r.n)].join('|')).sort();
}

/** The recount (see `recount`) summed over the respondent groups, as `totals` says it. */
export async function recountTotals(db: DB, id: number, definition: Definition): Promise<string[]> {
  const n = new Map<string, number>();
  for (const entry of await recount(db, id, definition)) {
    const [question, item, col, , , , count] = entry.split('|');
    const key = [question, item, col].join('|');
    n.set(key, (n.get(key) ?? 0) + Number(count));
  }
  return [...n.entries()].map(([key, count]) => `${key}|${count}`).sort();
}
