import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatisticsDetail } from '../../../src/shared/statistics/types.js';
import { migrateTo, migrateToLatest } from '../../../src/server/db/migrate.js';
import { testApp, type TestApp } from '../harness.js';
import { as, classId, classStudents, data, type Caller } from '../questionnaires/helpers.js';
import { opened } from '../filling/helpers.js';
import { submitAs, variedAnswers } from './helpers.js';

// Replies stored before statistics existed get their countable rows and groups when QE is upgraded.
describe('upgrading a database that already holds replies', () => {
  let t: TestApp;
  let teacher: Caller;

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    teacher = await as(t, 'teacher01');
  });
  afterAll(async () => t?.close());

  it('gives the same statistics after migrating down past them and up again', async () => {
    const q = await opened(teacher, [{ kind: 'CLASS', ids: [await classId(t.db, '2B')] }]);
    await submitAs(t, q.id, (await classStudents(t.db, '2B')).slice(0, 9), (i) => variedAnswers(300 + i));
    const before = data<StatisticsDetail>(await teacher('GET', `/v1/statistics/${q.id}`));
    const class2B = await classId(t.db, '2B');
    const filteredBefore = data<StatisticsDetail>(await teacher('GET', `/v1/statistics/${q.id}?classId=${class2B}`));
    expect(filteredBefore.replyCount).toBe(9);

    await migrateTo(t.db, '0006_reply_mixing');
    await migrateToLatest(t.db);

    expect(data<StatisticsDetail>(await teacher('GET', `/v1/statistics/${q.id}`))).toEqual(before);
    expect(data<StatisticsDetail>(await teacher('GET', `/v1/statistics/${q.id}?classId=${class2B}`))).toEqual(filteredBefore);
  });
});
