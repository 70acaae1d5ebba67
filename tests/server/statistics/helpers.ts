import type { Answers } from '../../../src/shared/questionnaire/answers.js';
import { seededRandom } from '../../support/random.js';
import { openSession } from '../../../src/server/auth/sessions.js';
import type { TestApp } from '../harness.js';
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
