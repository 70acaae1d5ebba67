import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Definition } from '../../src/shared/questionnaire/definition.js';
import { everyType, goodAnswers, newKey, storedReplies } from '../server/filling/helpers.js';
import { http, startCluster, type Cluster } from './cluster.js';

/**
 * Three QE instances behind the shipped HAProxy configuration, as one QE: a login made through one
 * instance holds on the others and its logout ends it on all; a kill -9 of one instance while 200
 * pupils submit loses and doubles nothing (the balancer moves on, the client sends again under
 * the same submission key); a rolling restart (SIGTERM, exit, start, one at a time) under steady
 * traffic — reads, submissions, and logins (which the balancer never replays) — fails no request,
 * each instance answering readiness 503 while it drains.
 */
const PUPILS = 200;

let cluster: Cluster;
let teacher: string;
let pupils: { id: number; token: string }[];

beforeAll(async () => {
  cluster = await startCluster();
  teacher = await cluster.session('teacher01');
  const ids = await cluster.db.selectFrom('users').select('id').where('user_type', '=', 'STUDENT').where('active', '=', 1).orderBy('id').limit(PUPILS).execute();
  expect(ids).toHaveLength(PUPILS);
  pupils = [];
  for (const { id } of ids) pupils.push({ id, token: await cluster.sessionOf(id) });
}, 180_000);

afterAll(async () => {
  await cluster?.close();
}, 60_000);

/** A questionnaire of every question type for the 200 pupils, opened now, through the balancer. */
async function openQuestionnaire(title: string, definition: Definition = everyType()): Promise<number> {
  const base = cluster.balancer.base;
  const created = await http(base, 'POST', '/v1/questionnaires', {
    token: teacher,
    body: { title, type: 'NAMED', targets: [{ kind: 'USERS', ids: pupils.map((p) => p.id) }], definition, openDate: new Date(Date.now() - 60_000).toISOString(), endDate: new Date(Date.now() + 86_400_000).toISOString() },
  });
  expect(created.json, JSON.stringify(created.json)).toMatchObject({ code: 201 });
  const id = created.json!.data.id as number;
  const ready = await http(base, 'POST', `/v1/questionnaires/${id}/ready`, { token: teacher });
  expect(ready.json, JSON.stringify(ready.json)).toMatchObject({ code: 200, data: { status: 'PROCESSING' } });
  return id;
}

const submit = (token: string, questionnaireId: number, submissionKey: string, i: number) =>
  http(cluster.balancer.base, 'POST', `/v1/my/questionnaires/${questionnaireId}/replies`, { token, body: { submissionKey, answers: { ...goodAnswers(), name: `P${i}` } } });

/** What the database holds: the feedback records of the questionnaire and its replies. */
async function stored(questionnaireId: number) {
  const feedback = await cluster.db.selectFrom('feedback').select(['user_id', 'status', 'submission_key', 'submitted_at']).where('questionnaire_id', '=', questionnaireId).execute();
  return { feedback: new Map(feedback.map((f) => [f.user_id, f])), replies: await storedReplies(cluster.db, questionnaireId) };
}

describe('three instances behind HAProxy', () => {
  it('a login through the balancer holds on every instance, and its logout ends it on every one', async () => {
    const login = await http(cluster.balancer.base, 'POST', '/v1/login', { body: { username: 'teacher02', password: 'Passw0rd!' } });
    expect(login.json).toMatchObject({ code: 200, data: { tk: expect.any(String) } });
    const token = login.json!.data.tk as string;
    for (const instance of cluster.instances) {
      const mine = await http(instance.base, 'GET', '/v1/my/action-list', { token });
      expect(mine.json, instance.name).toMatchObject({ code: 200 });
    }
    expect((await http(cluster.balancer.base, 'POST', '/v1/logout', { token })).json).toMatchObject({ code: 200 });
    for (const instance of cluster.instances) {
      const after = await http(instance.base, 'GET', '/v1/my/action-list', { token });
      expect(after.status, instance.name).toBe(401);
    }
  });

  it('kill -9 of one instance amid 200 submissions: the balancer moves on, each pupil sending again under the same key is stored once', async () => {
    const questionnaireId = await openQuestionnaire('Deploy: kill -9');
    const resentBefore = await cluster.balancer.resent();
    const keys = pupils.map(() => newKey());
    const victim = cluster.instances[1];
    let acks = 0;
    let killed: Promise<void> | null = null;
    /** what each pupil's browser does: send, and on no answer or a 5xx send again with the same key (at most 8 times) */
    const pupilSubmits = async (i: number) => {
      await new Promise((r) => setTimeout(r, Math.floor(i / 10) * 30));
      let last = '';
      for (let attempt = 0; attempt < 8; attempt++) {
        const answer = await submit(pupils[i].token, questionnaireId, keys[i], i).catch((e: Error) => e);
        if (!(answer instanceof Error) && answer.json?.code === 200) {
          if (++acks === 40) killed = victim.kill();
          return answer.json.data.submittedAt as string;
        }
        last = answer instanceof Error ? answer.message : `${answer.status} ${JSON.stringify(answer.json)}`;
        if (!(answer instanceof Error) && answer.status < 500) break;
        await new Promise((r) => setTimeout(r, 300));
      }
      throw new Error(`pupil ${i}: ${last}`);
    };
    const outcomes = await Promise.allSettled(pupils.map((_, i) => pupilSubmits(i)));
    expect(killed, 'the instance was killed amid the submissions').not.toBeNull();
    await killed;
    const failed = outcomes.flatMap((o) => (o.status === 'rejected' ? [String(o.reason)] : []));
    expect(failed).toEqual([]);
    const acknowledged = outcomes.map((o) => (o as PromiseFulfilledResult<string>).value);
    // the balancer met the dead instance and sent calls on to the others
    expect(await cluster.balancer.resent()).toBeGreaterThan(resentBefore);

    const after = await stored(questionnaireId);
    for (const [i, p] of pupils.entries()) {
      // stored once, under the pupil's key, at the time the pupil was told
      expect(after.feedback.get(p.id), `pupil ${i}`).toMatchObject({ status: 'SUBMITTED', submission_key: keys[i], submitted_at: acknowledged[i] });
    }
    expect(after.replies).toHaveLength(PUPILS);
    expect(new Set(after.replies.map((r) => r.feedback_id)).size).toBe(PUPILS);

    await victim.start();
    await cluster.balancer.waitFor(victim, 'UP');
  }, 180_000);

  it('a rolling restart under steady traffic fails no request; each instance answers readiness 503 while it drains', async () => {
    const questionnaireId = await openQuestionnaire('Deploy: rolling restart');
    const keys = pupils.map(() => newKey());
    const failures: string[] = [];
    let served = 0;
    let next = 0;
    let running = true;
    /** a pupil's browser: reads their list and the school, submits once, without sending anything again */
    const worker = async () => {
      while (running) {
        const i = next++ % PUPILS;
        const { token } = pupils[i];
        const calls = [
          () => http(cluster.balancer.base, 'GET', '/v1/my/questionnaires', { token }),
          () => http(cluster.balancer.base, 'GET', `/v1/my/questionnaires/${questionnaireId}`, { token }),
          ...(next <= PUPILS ? [() => submit(token, questionnaireId, keys[i], i)] : []),
        ];
        for (const call of calls) {
          const answer = await call().catch((e: Error) => e);
          if (answer instanceof Error) failures.push(`pupil ${i}: ${answer.message}`);
          else if (answer.json?.code !== 200) failures.push(`pupil ${i}: ${answer.status} ${JSON.stringify(answer.json)}`);
          else served++;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    /** a teacher logging in now and then: a write the balancer never replays, so it must never meet a closing instance */
    let logins = 0;
    const teacherLogsIn = async () => {
      while (running) {
        const answer = await http(cluster.balancer.base, 'POST', '/v1/login', { body: { username: 'teacher03', password: 'Passw0rd!' } }).catch((e: Error) => e);
        if (answer instanceof Error) failures.push(`login: ${answer.message}`);
        else if (answer.json?.code !== 200) failures.push(`login: ${answer.status} ${JSON.stringify(answer.json)}`);
        else logins++;
        await new Promise((r) => setTimeout(r, 250));
      }
    };
    const workers = [...Array.from({ length: 4 }, worker), teacherLogsIn()];
    try {
      for (const instance of cluster.instances) {
        const exited = instance.stop();
        // at once, while it still serves: the balancer is told to take it out
        await expect.poll(async () => (await http(instance.base, 'GET', '/qe/health/ready')).status, { timeout: 2000, interval: 50 }).toBe(503);
        expect((await http(instance.base, 'GET', '/qe/health/ready')).json, instance.name).toMatchObject({ code: 764 });
        expect((await http(instance.base, 'GET', '/qe/health/live')).status, instance.name).toBe(200);
        await cluster.balancer.waitFor(instance, 'DOWN');
        expect(await exited, `${instance.name} exits cleanly`).toBe(0);
        await instance.start();
        await cluster.balancer.waitFor(instance, 'UP');
      }
    } finally {
      running = false;
      await Promise.all(workers);
    }
    expect(failures.slice(0, 5)).toEqual([]);
    expect(served).toBeGreaterThan(100);
    expect(logins).toBeGreaterThan(10);
    const after = await stored(questionnaireId);
    const submitted = [...after.feedback.values()].filter((f) => f.status === 'SUBMITTED');
    expect(after.replies).toHaveLength(submitted.length);
  }, 240_000);
});
