import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/server/app.js';
import { openSession } from '../../../src/server/auth/sessions.js';
import { mixAnonymousReplies } from '../../../src/server/filling/mixing.js';
import { testApp, type TestApp } from '../harness.js';
import { as, classId, type Caller } from '../questionnaires/helpers.js';
import { everyType, newKey, opened } from '../filling/helpers.js';
import { counters, recount, variedAnswers, totals, recountTotals } from './helpers.js';

// docs/architecture.md#counters: statistics come from counters kept as replies are written; they must agree with a
// recount from the stored replies whatever happened — many submissions at once, anonymous
// replies mixed and released in batches meanwhile, a restart of the server
describe('answer counters', () => {
  let t: TestApp;
  let base: string;
  let teacher: Caller;
  let second: FastifyInstance | null = null;
  const definition = everyType();

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    teacher = await as(t, 'teacher01');
  });
  afterAll(async () => {
    await second?.close();
    await t?.close();
  });

  const post = async (token: string, id: number, i: number) => {
    const res = await fetch(`${base}/v1/my/questionnaires/${id}/replies`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ submissionKey: newKey(), answers: variedAnswers(i) }),
    });
    return (await res.json()).code as number;
  };

  it('agree with a recount after concurrent submissions, mixing rounds and a restart, filtered or not', async () => {
    const named = await opened(teacher, [{ kind: 'ALL_STUDENTS' }], { definition, title: 'Counted, named' });
    const anonymous = await opened(teacher, [{ kind: 'ALL_STUDENTS' }], { definition, type: 'ANONYMOUS', title: 'Counted, anonymous' });
    const students = (await t.db.selectFrom('feedback').select('user_id').where('questionnaire_id', '=', named.id).execute()).map((f) => f.user_id);
    const tokens = await Promise.all(students.map((id) => openSession(t.db, t.config, id)));
    let submitting = true;
    const mixer = (async () => {
      while (submitting) {
        await mixAnonymousReplies(t.db, t.config.anonymousMinGroup);
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const codes = await Promise.all(tokens.flatMap((token, i) => [post(token, named.id, i), post(token, anonymous.id, i + 1000)]));
    submitting = false;
    await mixer;
    expect(codes.filter((c) => c !== 200)).toEqual([]);
    await t.db.updateTable('questionnaires').set({ status: 'FINISHED' }).where('id', '=', anonymous.id).execute();
    await mixAnonymousReplies(t.db, t.config.anonymousMinGroup);

    // a named reply's rows and counters are written shortly after its submission (statistics/counting.ts);
    // whatever is still pending, the statistics call counts before it reads
    const reader = await as(t, 'teacher01');
    for (const q of [named, anonymous]) expect((await reader('GET', `/v1/statistics/${q.id}`)).json().code).toBe(200);
    expect(await t.db.selectFrom('replies').select('id').where('questionnaire_id', '=', named.id).where('counted', '=', 0).execute()).toEqual([]);
    for (const q of [named, anonymous]) {
      const kept = await counters(t.db, q.id);
      expect(kept.length).toBeGreaterThan(20);
      expect(kept).toEqual(await recount(t.db, q.id, definition));
      // results for everyone read the totals: the same counts summed over the groups
      expect(await totals(t.db, q.id)).toEqual(await recountTotals(t.db, q.id, definition));
    }

    // a restart: another server on the same database answers the same figures, filtered by a class too
    const before = await as(t, 'teacher01');
    const filtered = `?classId=${await classId(t.db, '3A')}`;
    const detail = async (call: Caller, id: number, query = '') => (await call('GET', `/v1/statistics/${id}${query}`)).json().data.questions;
    const shown = { all: await detail(before, named.id), class: await detail(before, named.id, filtered) };
    await t.app.close();
    const restarted = await buildApp(t.config, { logger: false });
    second = restarted.app;
    await second.ready();
    const after = await as({ ...t, app: second, db: restarted.db }, 'teacher01');
    for (const q of [named, anonymous]) {
      expect(await counters(restarted.db, q.id)).toEqual(await recount(restarted.db, q.id, definition));
      expect(await totals(restarted.db, q.id)).toEqual(await recountTotals(restarted.db, q.id, definition));
    }
    expect(await detail(after, named.id)).toEqual(shown.all);
    expect(await detail(after, named.id, filtered)).toEqual(shown.class);
    expect(JSON.stringify(shown.class)).not.toEqual(JSON.stringify(shown.all));
  });
});
