import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReplyCounting } from '../../../src/server/statistics/counting.js';
import { newReplyId } from '../../../src/server/filling/reply-ids.js';
import { testApp, type TestApp } from '../harness.js';
import { as } from '../questionnaires/helpers.js';
import { everyType, opened } from '../filling/helpers.js';
import { counters, recount, variedAnswers } from './helpers.js';

/**
 * When the counting runs (statistics/counting.ts): after the submissions pause, or at the latest
 * a set time after the first reply waiting — never starved by submissions that do not pause.
 * The replies are written here as a submission writes them (counted 0), without the route, so
 * only the ReplyCounting under test counts them; its soon() stands for each submission.
 */
describe('when replies are counted', () => {
  let t: TestApp;
  let questionnaireId = 0;
  const definition = everyType();
  const quiet: { error: (o: object, m: string) => void } = { error: (o, m) => console.error(m, o) };

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    const teacher = await as(t, 'teacher01');
    questionnaireId = (await opened(teacher, [{ kind: 'ALL_STUDENTS' }], { definition, title: 'Counted later' })).id;
  });
  afterAll(async () => {
    await t?.close();
  });

  let next = 0;
  const storeReplies = async (n: number) => {
    await t.db
      .insertInto('replies')
      .values(Array.from({ length: n }, () => ({ id: newReplyId(false), questionnaire_id: questionnaireId, respondent_role: 'STUDENT', grade_id: null, class_id: null, feedback_id: null, submitted_on: '2026-11-27', answers: JSON.stringify(variedAnswers(next++)), mixed: 0, released: 1, counted: 0 })))
      .execute();
  };
  const uncounted = async () => (await t.db.selectFrom('replies').select('id').where('questionnaire_id', '=', questionnaireId).where('counted', '=', 0).execute()).length;
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  async function until(condition: () => Promise<boolean>, ms: number): Promise<boolean> {
    for (const end = Date.now() + ms; Date.now() < end; await pause(25)) if (await condition()) return true;
    return condition();
  }

  it('waits while submissions keep coming and counts them once they pause', async () => {
    const counting = new ReplyCounting(t.db, quiet, 2_000, 600_000);
    try {
      await storeReplies(5);
      counting.soon();
      // a submission every 20 ms for a second: no pause of two seconds, nothing counted
      for (const end = Date.now() + 1_000; Date.now() < end; await pause(20)) counting.soon();
      expect(await uncounted()).toBe(5);
      // then quiet: counted without anyone asking for results
      expect(await until(async () => (await uncounted()) === 0, 20_000)).toBe(true);
    } finally {
      await counting.close();
    }
  });

  it('counts at the latest the given time after the first reply, however long the submissions go on', async () => {
    const counting = new ReplyCounting(t.db, quiet, 600_000, 300);
    try {
      await storeReplies(5);
      counting.soon();
      let counted = false;
      // submissions that never pause (for up to 20 s): the counting comes anyway
      for (const end = Date.now() + 20_000; !counted && Date.now() < end; await pause(20)) {
        counting.soon();
        counted = (await uncounted()) === 0;
      }
      expect(counted).toBe(true);
      // and what came after that first round is counted in the next, by the same rule
      await storeReplies(3);
      counting.soon();
      expect(await until(async () => (await uncounted()) === 0, 20_000)).toBe(true);
      expect(await counters(t.db, questionnaireId)).toEqual(await recount(t.db, questionnaireId, definition));
    } finally {
      await counting.close();
    }
  });
});
