import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession } from '../../../src/server/auth/sessions.js';
import { mixAnonymousReplies } from '../../../src/server/filling/mixing.js';
import { ERRORS, errorText } from '../../../src/shared/errors.js';
import { testApp, type TestApp } from '../harness.js';
import { as, classStudents, type Caller } from '../questionnaires/helpers.js';
import { goodAnswers, newKey, opened, storedReplies } from './helpers.js';

interface Answer {
  status: number;
  body: { code: number; msg: string; data: { submittedAt?: string } | null };
}

// Done-when 2 of the filling issue: many submissions at the same moment, over real HTTP to the
// listening server — one reply per respondent, none lost, none doubled.
describe('concurrent submissions', () => {
  let t: TestApp;
  let base: string;
  let teacher: Caller;

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    teacher = await as(t, 'teacher01');
  });
  afterAll(async () => t?.close());

  async function post(token: string, questionnaireId: number, submissionKey: string, answers: unknown = goodAnswers()): Promise<Answer> {
    const res = await fetch(`${base}/v1/my/questionnaires/${questionnaireId}/replies`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'accept-language': 'en' },
      body: JSON.stringify({ submissionKey, answers }),
    });
    return { status: res.status, body: await res.json() };
  }
  const replies = (questionnaireId: number) => storedReplies(t.db, questionnaireId);
  const feedback = (questionnaireId: number) => t.db.selectFrom('feedback').selectAll().where('questionnaire_id', '=', questionnaireId).execute();

  it('stores one reply for 200 simultaneous submissions of the same key, and answers each with the same result', async () => {
    const [me] = await classStudents(t.db, '1A');
    const q = await opened(teacher, [{ kind: 'USERS', ids: [me] }]);
    const token = await openSession(t.db, t.config, me);
    const key = newKey();
    const answers = await Promise.all(Array.from({ length: 200 }, () => post(token, q.id, key)));

    const failed = answers.filter((a) => a.status !== 200 || a.body.code !== 200);
    expect(failed, JSON.stringify(failed.slice(0, 3))).toEqual([]);
    const times = new Set(answers.map((a) => a.body.data?.submittedAt));
    expect(times.size).toBe(1);
    const [submittedAt] = times;
    expect(submittedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);

    const stored = await replies(q.id);
    expect(stored).toHaveLength(1);
    expect(JSON.parse(stored[0].answers)).toEqual(goodAnswers());
    const [row] = await feedback(q.id);
    expect(row).toMatchObject({ user_id: me, status: 'SUBMITTED', submitted_at: submittedAt, submission_key: key });
  });

  it('lets exactly one of 50 simultaneous submissions with different keys through; the others hear "already submitted"', async () => {
    const [me] = await classStudents(t.db, '1B');
    const q = await opened(teacher, [{ kind: 'USERS', ids: [me] }]);
    const token = await openSession(t.db, t.config, me);
    const keys = Array.from({ length: 50 }, () => newKey());
    const answers = await Promise.all(keys.map((key, i) => post(token, q.id, key, { ...goodAnswers(), name: `N${i}` })));

    const won = answers.flatMap((a, i) => (a.status === 200 && a.body.code === 200 ? [i] : []));
    expect(won).toHaveLength(1);
    const refused = answers.filter((a) => a.status === ERRORS.ALREADY_SUBMITTED.http && a.body.code === ERRORS.ALREADY_SUBMITTED.code && a.body.msg === errorText('ALREADY_SUBMITTED', 'en'));
    expect(refused).toHaveLength(49);

    const stored = await replies(q.id);
    expect(stored).toHaveLength(1);
    // the stored reply is the winner's, and the feedback keeps the winner's key
    expect(JSON.parse(stored[0].answers).name).toBe(`N${won[0]}`);
    expect((await feedback(q.id))[0]).toMatchObject({ status: 'SUBMITTED', submission_key: keys[won[0]], submitted_at: answers[won[0]].body.data?.submittedAt });
  });

  it.each(['NAMED', 'ANONYMOUS'] as const)('stores every one of 200 simultaneous submissions by 200 different students (%s)', async (type) => {
    const q = await opened(teacher, [{ kind: 'ALL_STUDENTS' }], { type });
    const students = (await feedback(q.id)).map((f) => f.user_id);
    expect(students).toHaveLength(200);
    const tokens = await Promise.all(students.map((id) => openSession(t.db, t.config, id)));
    const answers = await Promise.all(tokens.map((token, i) => post(token, q.id, newKey(), { ...goodAnswers(), name: `S${i}` })));

    const failed = answers.filter((a) => a.status !== 200 || a.body.code !== 200);
    expect(failed, JSON.stringify(failed.slice(0, 3))).toEqual([]);
    const stored = await replies(q.id);
    expect(stored).toHaveLength(200);
    // none lost, none doubled: every student's own answer is there once
    expect(stored.map((r) => JSON.parse(r.answers).name).sort()).toEqual(students.map((_, i) => `S${i}`).sort());
    const rows = await feedback(q.id);
    expect(rows.filter((f) => f.status === 'SUBMITTED')).toHaveLength(200);
    expect(new Set(rows.map((f) => f.submission_key)).size).toBe(200);
    if (type === 'NAMED') expect(stored.map((r) => r.feedback_id).sort()).toEqual(rows.map((f) => f.id).sort());
    else expect(stored.every((r) => r.feedback_id === null)).toBe(true);
  });

  it('loses and doubles nothing while mixing rounds rewrite anonymous replies and feedback records under 200 simultaneous submissions', async () => {
    const q = await opened(teacher, [{ kind: 'ALL_STUDENTS' }], { type: 'ANONYMOUS', title: 'Mixed while submitted' });
    const students = (await feedback(q.id)).map((f) => f.user_id);
    const tokens = await Promise.all(students.map((id) => openSession(t.db, t.config, id)));
    let submitting = true;
    let rounds = 0;
    const mixer = (async () => {
      while (submitting) {
        await mixAnonymousReplies(t.db, t.config.anonymousMinGroup);
        rounds++;
        // SQLite answers at once (its promises settle without a turn of the event loop): give the
        // requests their turn, as the job's timer does
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const keys = students.map(() => newKey());
    const answers = await Promise.all(tokens.map((token, i) => post(token, q.id, keys[i], { ...goodAnswers(), name: `M${i}` })));
    submitting = false;
    await mixer;
    expect(rounds).toBeGreaterThan(0);
    const failed = answers.filter((a) => a.status !== 200 || a.body.code !== 200);
    expect(failed, JSON.stringify(failed.slice(0, 3))).toEqual([]);
    // a repeat of every submission answers the first result and stores nothing
    const again = await Promise.all(tokens.map((token, i) => post(token, q.id, keys[i], { ...goodAnswers(), name: `M${i}` })));
    expect(again.map((a) => a.body.data?.submittedAt)).toEqual(answers.map((a) => a.body.data?.submittedAt));

    await mixAnonymousReplies(t.db, t.config.anonymousMinGroup);
    let stored = await replies(q.id);
    expect(stored.map((r) => JSON.parse(r.answers).name).sort()).toEqual(students.map((_, i) => `M${i}`).sort());
    expect(stored.every((r) => r.mixed === 1)).toBe(true);
    // released in batches of at least the minimum: what came after the last batch waits (fewer
    // than the minimum, however the rounds fell), and is released when the questionnaire finishes
    expect(stored.filter((r) => r.released === 0).length).toBeLessThan(t.config.anonymousMinGroup);
    await t.db.updateTable('questionnaires').set({ status: 'FINISHED' }).where('id', '=', q.id).execute();
    await mixAnonymousReplies(t.db, t.config.anonymousMinGroup);
    stored = await replies(q.id);
    expect(stored.every((r) => r.mixed === 1 && r.released === 1)).toBe(true);
    const rows = await feedback(q.id);
    expect(rows).toHaveLength(200);
    expect(rows.filter((f) => f.status === 'SUBMITTED').map((f) => f.submission_key).sort()).toEqual([...keys].sort());
    // every released reply has its stored text rows, once (the other rows are counted, not kept)
    const counted = await t.db.selectFrom('reply_answers').select('reply_id').where('questionnaire_id', '=', q.id).where('question_id', '=', 'name').where('item', '=', '').execute();
    expect(counted.map((r) => r.reply_id).sort()).toEqual(stored.map((r) => r.id).sort());
  });
});
