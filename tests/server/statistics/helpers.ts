import type { Answers } from '../../../src/shared/questionnaire/answers.js';
import { seededRandom } from '../../support/random.js';
import { openSession } from '../../../src/server/auth/sessions.js';
import type { TestApp } from '../harness.js';
import type { DB } from '../../../src/server/db/connect.js';
import { answerRows } from '../../../src/server/statistics/answerRows.js';
import type { Definition } from '../../../src/shared/questionnaire/definition.js';
import { caller } from '../master/helpers.js';
import { data } from '../questionnaires/helpers.js';
import { newKey } from '../filling/helpers.js';

/** A small deterministic random source, so a failing run can be repeated. */
export const random = seededRandom;

/** A valid reply to `everyType` (tests/server/filling/helpers.ts) that differs with `i`. */
export function variedAnswers(i: number): Answers {
  const r = random(i + 1);
  const sports = ['run', 'swim', 'ball', '__other__'].filter(() => r.chance(0.6));
  while (sports.length < 2) for (const s of ['run', 'swim', 'ball']) if (sports.length < 2 && !sports.includes(s)) sports.push(s);
  const answers: Answers = {
    name: r.pick(['Kit', 'Ming', 'Wing', 'Siu']),
    sports: { choices: sports, ...(sports.includes('__other__') ? { otherText: r.pick(['Rowing', 'Fencing', 'Dance']) } : {}) },
    house: { choice: r.pick(['red', 'blue']) },
    mood: 1 + Math.floor(r.next() * 5),
    rank: r.chance(0.5) ? { r1: 'c1', r2: 'c2' } : { r1: 'c2', r2: 'c1' },
    slots: { am: ['mon', 'tue', 'wed'].filter(() => r.chance(0.5)).concat('mon').filter((v, k, a) => a.indexOf(v) === k), pm: [r.pick(['tue', 'wed'])] },
    more: { choice: r.chance(0.7) ? 'yes' : 'no' },
  };
  if (r.chance(0.5)) answers.club = { choices: [r.pick(['art', 'music', 'chess'])] };
  if (r.chance(0.6)) answers.story = r.pick(['Maths, then lunch.', 'A long day of music', 'Sports day!']);
  if (r.chance(0.5)) answers.birthday = r.pick(['2012-02-29', '2013-05-01', '2012-12-25']);
  if (r.chance(0.5)) answers.wake = r.pick(['07:30', '06:45', '07:00']);
  if ((answers.more as { choice: string }).choice === 'yes') answers.why = r.pick(['Because', 'I like it', 'Fun']);
  return answers;
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
