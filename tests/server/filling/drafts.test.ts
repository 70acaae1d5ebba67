import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession } from '../../../src/server/auth/sessions.js';
import { runDueWork } from '../../../src/server/questionnaires/lifecycle.js';
import { ANSWER_LIMITS } from '../../../src/shared/questionnaire/answers.js';
import { testApp, type TestApp } from '../harness.js';
import { caller } from '../master/helpers.js';
import { as, classStudents, create, data, expectError, inMinutes, oneQuestion, type Caller } from '../questionnaires/helpers.js';
import { goodAnswers, newKey, opened } from './helpers.js';

interface Draft {
  answers: Record<string, unknown>;
  savedAt: string;
}

// A named questionnaire's answers being typed, kept on the server to go on on another device
// (docs/product-rules.md#states, src/server/filling/drafts.ts); never for an anonymous one.
describe('reply drafts', () => {
  let t: TestApp;
  let teacher: Caller;
  /** pupils of one class, each used by one test (a submission cannot be taken back) */
  let pupils: number[];
  let next = 0;
  const pupil = () => pupils[next++];

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    teacher = await as(t, 'teacher01');
    pupils = [...(await classStudents(t.db, '4A')), ...(await classStudents(t.db, '4B'))];
  });
  afterAll(async () => t?.close());

  async function asUser(id: number, lang: 'en' | 'zh-hk' = 'en'): Promise<Caller> {
    return caller(t.app, await openSession(t.db, t.config, id), lang);
  }
  const url = (id: number) => `/v1/my/questionnaires/${id}/draft`;
  const read = async (call: Caller, id: number) => data<Draft | null>(await call('GET', url(id)));
  const save = async (call: Caller, id: number, answers: unknown) => data<{ savedAt: string }>(await call('PUT', url(id), { answers }));
  const rows = (questionnaireId: number) => t.db.selectFrom('reply_drafts').selectAll().where('questionnaire_id', '=', questionnaireId).execute();
  const named = (ids: number[], options: Parameters<typeof opened>[2] = {}) => opened(teacher, [{ kind: 'USERS', ids }], options);

  it('saves, reads, overwrites and deletes my draft: one row, answers the questionnaire cannot take dropped', async () => {
    const me = pupil();
    const q = await named([me]);
    const call = await asUser(me);
    expect(await read(call, q.id)).toBeNull();

    const first = await save(call, q.id, { name: 'Ki', house: { choice: 'no-such-house' }, mood: 9, story: '' });
    expect(first.savedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    // options that do not exist, a scale point outside the scale and empty answers are dropped
    // (a key the questionnaire does not have is refused: draft-bounds.test.ts)
    expect(await read(call, q.id)).toEqual({ answers: { name: 'Ki' }, savedAt: first.savedAt });

    // a draft may break the rules a submission is held to (the nickname must be 2–5 characters; "sports" wants two)
    const later = { name: 'K', sports: { choices: ['run'] }, house: { choice: 'blue' }, rank: { r1: 'c1' } };
    const second = await save(call, q.id, later);
    expect(second.savedAt >= first.savedAt).toBe(true);
    expect(await read(call, q.id)).toEqual({ answers: later, savedAt: second.savedAt });
    const stored = await rows(q.id);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ user_id: me, saved_at: second.savedAt });
    expect(JSON.parse(stored[0].answers)).toEqual(later);

    expect(data(await call('DELETE', url(q.id)))).toBeNull();
    expect(await read(call, q.id)).toBeNull();
    expect(await rows(q.id)).toHaveLength(0);
    // nothing to delete is no error
    expect(data(await call('DELETE', url(q.id)))).toBeNull();
  });

  it('deletes the draft with the submission, and refuses draft calls after it', async () => {
    const me = pupil();
    const q = await named([me]);
    const call = await asUser(me);
    await save(call, q.id, { name: 'Kit' });
    expect(await rows(q.id)).toHaveLength(1);

    // a refused reply (422) keeps the draft
    expect((await call('POST', `/v1/my/questionnaires/${q.id}/replies`, { submissionKey: newKey(), answers: { name: 'Kit' } })).statusCode).toBe(422);
    expect(await rows(q.id)).toHaveLength(1);

    data(await call('POST', `/v1/my/questionnaires/${q.id}/replies`, { submissionKey: newKey(), answers: goodAnswers() }));
    expect(await rows(q.id)).toHaveLength(0);
    for (const [method, body] of [['GET'], ['PUT', { answers: { name: 'Again' } }], ['DELETE']] as const) {
      expectError(await call(method, url(q.id), body), 'ALREADY_SUBMITTED');
    }
    expect(await rows(q.id)).toHaveLength(0);
  });

  it('deletes the drafts when the questionnaire is closed early and when the scheduler ends it', async () => {
    const [a, b] = [pupil(), pupil()];
    const closed = await named([a, b], { definition: oneQuestion() });
    const ending = await named([a, b], { definition: oneQuestion(), endDate: inMinutes(30) });
    const [callA, callB] = [await asUser(a), await asUser(b)];
    for (const q of [closed, ending]) {
      await save(callA, q.id, { q1: 'Art' });
      await save(callB, q.id, { q1: 'Music' });
      expect(await rows(q.id)).toHaveLength(2);
    }

    data(await teacher('POST', `/v1/questionnaires/${closed.id}/close`));
    expect(await rows(closed.id)).toHaveLength(0);
    expectError(await callA('GET', url(closed.id)), 'QUESTIONNAIRE_CLOSED');
    expectError(await callA('PUT', url(closed.id), { answers: { q1: 'Art' } }), 'QUESTIONNAIRE_CLOSED');
    expect(await rows(closed.id)).toHaveLength(0);
    // the other one's drafts are untouched until its own end
    expect(await rows(ending.id)).toHaveLength(2);

    expect((await runDueWork(t.db, inMinutes(31))).finished).toContain(ending.id);
    expect(await rows(ending.id)).toHaveLength(0);
  });

  it('keeps no draft of an anonymous questionnaire: every draft call refused, no row written', async () => {
    const me = pupil();
    const q = await named([me], { type: 'ANONYMOUS', definition: oneQuestion() });
    const [en, zh] = [await asUser(me), await asUser(me, 'zh-hk')];
    const before = await t.db.selectFrom('reply_drafts').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expectError(await en('PUT', url(q.id), { answers: { q1: 'Art' } }), 'ANONYMOUS_NO_DRAFT');
    expectError(await zh('PUT', url(q.id), { answers: { q1: 'Art' } }), 'ANONYMOUS_NO_DRAFT', 'zh-hk');
    expectError(await en('GET', url(q.id)), 'ANONYMOUS_NO_DRAFT');
    expectError(await en('DELETE', url(q.id)), 'ANONYMOUS_NO_DRAFT');
    expect(await rows(q.id)).toHaveLength(0);
    const after = await t.db.selectFrom('reply_drafts').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    // and the same once submitted: the answer says nothing of the pupil's state
    data(await en('POST', `/v1/my/questionnaires/${q.id}/replies`, { submissionKey: newKey(), answers: { q1: 'Art' } }));
    expectError(await en('PUT', url(q.id), { answers: { q1: 'Art' } }), 'ANONYMOUS_NO_DRAFT');
    expect(await rows(q.id)).toHaveLength(0);
  });

  it('refuses a questionnaire not aimed at me, one not open yet, and one that does not exist, as a reply is refused', async () => {
    const [me, other] = [pupil(), pupil()];
    const notMine = await named([other], { definition: oneQuestion() });
    const call = await asUser(me);
    for (const [method, body] of [['GET'], ['PUT', { answers: { q1: 'Art' } }], ['DELETE']] as const) {
      expectError(await call(method, url(notMine.id), body), 'NOT_A_RESPONDENT');
      expectError(await call(method, url(999_999), body), 'RECORD_NOT_FOUND');
    }
    const later = await create(teacher, { targets: [{ kind: 'USERS', ids: [me] }], definition: oneQuestion(), openDate: inMinutes(60), endDate: inMinutes(120) });
    data(await teacher('POST', `/v1/questionnaires/${later.id}/ready`));
    expectError(await call('PUT', url(later.id), { answers: { q1: 'Art' } }), 'NOT_OPEN_YET');
    expect(await rows(notMine.id)).toHaveLength(0);
    expect(await rows(later.id)).toHaveLength(0);
  });

  it("never shows or deletes another pupil's draft", async () => {
    const [a, b] = [pupil(), pupil()];
    const q = await named([a, b], { definition: oneQuestion() });
    const [callA, callB] = [await asUser(a), await asUser(b)];
    await save(callA, q.id, { q1: 'Secret of A' });
    // B asks for the same questionnaire's draft: B's own, of which there is none
    expect(await read(callB, q.id)).toBeNull();
    data(await callB('DELETE', url(q.id)));
    expect((await read(callA, q.id))?.answers).toEqual({ q1: 'Secret of A' });
    await save(callB, q.id, { q1: 'Of B' });
    expect((await read(callA, q.id))?.answers).toEqual({ q1: 'Secret of A' });
    expect((await read(callB, q.id))?.answers).toEqual({ q1: 'Of B' });
    // the teacher in charge, not asked, cannot read it either
    expectError(await teacher('GET', url(q.id)), 'NOT_A_RESPONDENT');
  });

  it('refuses oversized and hostile bodies without writing anything', async () => {
    const me = pupil();
    const q = await named([me]);
    const call = await asUser(me);
    const refused = async (body: unknown, status: number) => {
      const res = await call('PUT', url(q.id), body);
      expect(res.statusCode, res.body).toBe(status);
      expect(await rows(q.id)).toHaveLength(0);
    };
    // the draft route's body limit: 1 MiB and a little (a reply's is 2 MB)
    await refused({ answers: { story: 'x'.repeat(2 * 1024 * 1024 + 10) } }, 413);
    // not the shape of a draft: the schema's 422
    await refused({ answers: ['not', 'an', 'object'] }, 422);
    await refused({ answers: 'text' }, 422);
    await refused({}, 422);
    await refused({ answers: {}, submissionKey: 'not-a-draft-field' }, 422);
    let deep: unknown = 'x';
    for (let i = 0; i < 40; i++) deep = { a: deep };
    await refused({ answers: { name: deep } }, 400);
    const poisoned = await t.app.inject({
      method: 'PUT',
      url: url(q.id),
      headers: { authorization: `Bearer ${await openSession(t.db, t.config, me)}`, 'content-type': 'application/json' },
      payload: '{"answers":{"__proto__":{"polluted":true},"name":"Kit"}}',
    });
    expect(poisoned.statusCode).toBe(400);
    expect(await rows(q.id)).toHaveLength(0);

    // answers of the wrong shape, or over a text's hard limit, are dropped; the rest kept
    const kept = await save(call, q.id, { name: ['red'], house: 'red', story: 'y'.repeat(ANSWER_LIMITS.PARAGRAPH + 1), slots: { am: 'mon' }, sports: { choices: ['run', 'run'] }, mood: 3 });
    expect(await read(call, q.id)).toEqual({ answers: { mood: 3 }, savedAt: kept.savedAt });
  });

  it('goes with the questionnaire and with the user (foreign keys)', async () => {
    const [a, b] = [pupil(), pupil()];
    const q = await named([a, b], { definition: oneQuestion() });
    await save(await asUser(a), q.id, { q1: 'Art' });
    await save(await asUser(b), q.id, { q1: 'Music' });
    const other = await named([a], { definition: oneQuestion() });
    await save(await asUser(a), other.id, { q1: 'Chess' });

    await t.db.deleteFrom('users').where('id', '=', a).execute();
    expect((await rows(q.id)).map((r) => r.user_id)).toEqual([b]);
    expect(await rows(other.id)).toHaveLength(0);
    await t.db.deleteFrom('questionnaires').where('id', '=', q.id).execute();
    expect(await rows(q.id)).toHaveLength(0);
  });

  it('keeps one row for a burst of simultaneous saves, holding one of the bodies taken, and answers everyone meanwhile', async () => {
    const [me, other] = [pupil(), pupil()];
    const q = await named([me, other], { definition: oneQuestion() });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const put = async (token: string, answers: unknown) => {
      const res = await fetch(`${base}${url(q.id)}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'accept-language': 'en' },
        body: JSON.stringify({ answers }),
      });
      return { status: res.status, body: (await res.json()) as { code: number } };
    };
    const [mine, theirs] = [await openSession(t.db, t.config, me), await openSession(t.db, t.config, other)];
    // as many as one user may save at once (20: draft-saves.ts; the rest 429, draft-bounds.test.ts)
    const sent = Array.from({ length: 20 }, (_, i) => ({ q1: `Version ${i}` }));
    const [burst, meanwhile] = await Promise.all([Promise.all(sent.map((answers) => put(mine, answers))), put(theirs, { q1: 'Meanwhile' })]);
    const failed = burst.filter((a) => a.status !== 200 || a.body.code !== 200);
    expect(failed, JSON.stringify(failed.slice(0, 3))).toEqual([]);
    expect(meanwhile.status).toBe(200);

    const stored = await rows(q.id);
    expect(stored.filter((r) => r.user_id === me)).toHaveLength(1);
    const held = JSON.parse(stored.find((r) => r.user_id === me)!.answers);
    expect(sent).toContainEqual(held);
    expect(JSON.parse(stored.find((r) => r.user_id === other)!.answers)).toEqual({ q1: 'Meanwhile' });
  });
});
