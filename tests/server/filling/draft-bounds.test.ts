import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../../src/server/app.js';
import { openSession } from '../../../src/server/auth/sessions.js';
import { ERRORS, errorText } from '../../../src/shared/errors.js';
import { ANSWER_LIMITS } from '../../../src/shared/questionnaire/answers.js';
import { testApp, type TestApp } from '../harness.js';
import { caller } from '../master/helpers.js';
import { as, classStudents, data, type Caller } from '../questionnaires/helpers.js';
import { opened } from './helpers.js';

interface Draft {
  answers: Record<string, unknown>;
  savedAt: string;
}

/** A text of `n` characters of four bytes each in UTF-8 (a rare Chinese character): the most a character of an answer weighs. */
const heavy = (n: number) => '𠀀'.repeat(n);

/**
 * The largest draft of `everyType` (tests/server/filling/helpers.ts) a respondent can type: every
 * question answered, every text at its hard limit in the heaviest characters, every option and
 * grid cell chosen, "other" with its longest text.
 */
const maximal = () => ({
  name: heavy(ANSWER_LIMITS.SHORT_TEXT),
  age: heavy(ANSWER_LIMITS.SHORT_TEXT),
  code: heavy(ANSWER_LIMITS.SHORT_TEXT),
  story: `"${heavy(ANSWER_LIMITS.PARAGRAPH - 4)}\n\\"`,
  sports: { choices: ['run', 'swim', 'ball', '__other__'], otherText: heavy(ANSWER_LIMITS.other) },
  club: { choices: ['art', 'music', 'chess'] },
  house: { choice: 'blue' },
  mood: 5,
  rank: { r1: 'c2', r2: 'c1' },
  slots: { am: ['mon', 'tue', 'wed'], pm: ['mon', 'tue', 'wed'] },
  birthday: '2012-02-29',
  wake: '23:59',
  more: { choice: 'yes' },
  why: heavy(ANSWER_LIMITS.PARAGRAPH),
});

// A draft is bounded (docs/security.md#drafts-are-bounded, src/server/filling/drafts.ts): its
// size, its keys and how often it is saved; a refused save leaves the last good draft as it was.
describe('draft bounds', () => {
  let t: TestApp;
  let teacher: Caller;
  let pupils: number[];
  let next = 0;
  const pupil = () => pupils[next++];

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    teacher = await as(t, 'teacher01');
    pupils = [...(await classStudents(t.db, '4A')), ...(await classStudents(t.db, '4B'))];
  });
  afterAll(async () => t?.close());
  afterEach(() => vi.useRealTimers());

  const asUser = async (id: number, lang: 'en' | 'zh-hk' = 'en') => caller(t.app, await openSession(t.db, t.config, id), lang);
  const url = (id: number) => `/v1/my/questionnaires/${id}/draft`;
  const read = async (call: Caller, id: number) => data<Draft | null>(await call('GET', url(id)));
  const save = async (call: Caller, id: number, answers: unknown) => data<{ savedAt: string }>(await call('PUT', url(id), { answers }));
  /** A pupil, a questionnaire of every type for them, and a first good draft on it. */
  async function withDraft() {
    const me = pupil();
    const q = await opened(teacher, [{ kind: 'USERS', ids: [me] }]);
    const call = await asUser(me);
    const good = { name: 'Kit', house: { choice: 'red' } };
    const { savedAt } = await save(call, q.id, good);
    return { me, q, call, kept: { answers: good, savedAt } };
  }

  it('keeps the largest draft a respondent can type, of every question type, as it was sent', async () => {
    const me = pupil();
    const q = await opened(teacher, [{ kind: 'USERS', ids: [me] }]);
    const call = await asUser(me);
    const answers = maximal();
    expect(Buffer.byteLength(JSON.stringify(answers))).toBeGreaterThan(90_000);
    const { savedAt } = await save(call, q.id, answers);
    expect(await read(call, q.id)).toEqual({ answers, savedAt });
  });

  it('refuses a draft larger than its questionnaire takes with 413, in the envelope, keeping the last good one', async () => {
    const { me, q, call, kept } = await withDraft();
    const zh = await asUser(me, 'zh-hk');
    // known keys, but a text far over what any question of it takes: refused, not cut down
    const tooLarge = { ...maximal(), story: 'x'.repeat(300_000) };
    for (const [who, lang] of [[call, 'en'], [zh, 'zh-hk']] as const) {
      const res = await who('PUT', url(q.id), { answers: tooLarge });
      expect(res.statusCode, res.body).toBe(413);
      const body = res.json();
      expect(body.code).toBe(ERRORS.DRAFT_TOO_LARGE.code);
      const kb = Number(/(\d+) KB/.exec(body.msg)?.[1]);
      // the largest draft of the questionnaire, and no more than 1 MiB
      expect(kb).toBeGreaterThanOrEqual(Math.floor(Buffer.byteLength(JSON.stringify(maximal())) / 1024));
      expect(kb).toBeLessThan(300);
      expect(body.msg).toBe(errorText('DRAFT_TOO_LARGE', lang, { kb }));
    }
    // far larger: stopped by the route's body limit before it is read whole
    const huge = await call('PUT', url(q.id), { answers: { story: 'x'.repeat(1_100_000) } });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ code: 406, msg: errorText('REQUEST_TOO_LARGE', 'en') });
    expect(await read(call, q.id)).toEqual(kept);
  });

  it('refuses a key the questionnaire does not have with 422, naming it, keeping the last good draft', async () => {
    const { q, call, kept } = await withDraft();
    const refused = async (answers: Record<string, unknown>, fields: string[]) => {
      const res = await call('PUT', url(q.id), { answers });
      expect(res.statusCode, res.body).toBe(422);
      const body = res.json();
      expect(body.code).toBe(422);
      expect(Object.keys(body.data).sort()).toEqual(fields.sort());
      for (const field of fields) expect(body.data[field]).toBe('This field is not accepted');
      expect(await read(call, q.id)).toEqual(kept);
    };
    await refused({ name: 'Kit', ghost: 'boo' }, ['answers.ghost']);
    // parts of an answer its question does not have: a key beside a choice, a grid row, "other" where none is offered, keys of a text
    await refused({ house: { choice: 'red', colour: 'x'.repeat(100) } }, ['answers.house.colour']);
    await refused({ rank: { r1: 'c1', r9: 'c2' } }, ['answers.rank.r9']);
    await refused({ club: { choices: ['art'], otherText: 'Drama' } }, ['answers.club.otherText']);
    await refused({ name: { choice: 'red' } }, ['answers.name.choice']);
    // thousands of made-up keys, told by the first ten; the attack's 50,000 are too large already
    const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 1]));
    const res = await call('PUT', url(q.id), { answers: { house: { choice: 'red', ...keys(2000) } } });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().data)).toHaveLength(10);
    expect((await call('PUT', url(q.id), { answers: { house: { choice: 'red', ...keys(50_000) } } })).statusCode).toBe(413);
    expect(await read(call, q.id)).toEqual(kept);
    // "other" where it is offered, and an unfinished choice, are keys the questionnaire has
    const later = { sports: { choices: ['__other__'], otherText: 'Rowing' }, more: { choice: '' } };
    const { savedAt } = await save(call, q.id, later);
    expect(await read(call, q.id)).toEqual({ answers: { sports: later.sports }, savedAt });
  });

  it('drops an "other" text over its limit or not a text, chosen or not, keeping the rest', async () => {
    const { q, call } = await withDraft();
    for (const otherText of ['y'.repeat(ANSWER_LIMITS.other + 1), { deep: 'y' }, 7]) {
      const { savedAt } = await save(call, q.id, { name: 'Kit', sports: { choices: ['run'], otherText } });
      expect(await read(call, q.id)).toEqual({ answers: { name: 'Kit' }, savedAt });
    }
  });

  /** PUTs of one pupil's draft sent at once over HTTP (a script's burst), answered with their status and envelope. */
  async function burst(app: typeof t.app, token: string, questionnaireId: number, bodies: unknown[]) {
    return Promise.all(
      bodies.map(async (answers) => {
        const res = await app.inject({ method: 'PUT', url: url(questionnaireId), headers: { authorization: `Bearer ${token}`, 'accept-language': 'en' }, payload: { answers } });
        return { status: res.statusCode, body: res.json() as { code: number; msg: string; data: unknown }, answers };
      }),
    );
  }

  it('takes 20 of a burst of 200 saves and answers the rest 429 in the envelope, keeping a draft it took', async () => {
    const { me, q, call } = await withDraft();
    const token = await openSession(t.db, t.config, me);
    const sent = Array.from({ length: 200 }, (_, i) => ({ name: `Version ${i}` }));
    const answers = await burst(t.app, token, q.id, sent);
    const taken = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status !== 200);
    // the first good draft counted one: 19 more of the burst's first ten seconds
    expect(taken).toHaveLength(19);
    for (const r of refused) {
      expect(r.status).toBe(429);
      expect(r.body.code).toBe(ERRORS.DRAFT_SAVES_LIMITED.code);
      const { retryAfter } = r.body.data as { retryAfter: number };
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(10);
      expect(r.body.msg).toBe(errorText('DRAFT_SAVES_LIMITED', 'en', { seconds: retryAfter }));
    }
    // what is kept is one of the saves taken, never a refused one
    const held = (await t.db.selectFrom('reply_drafts').select('answers').where('questionnaire_id', '=', q.id).where('user_id', '=', me).executeTakeFirstOrThrow()).answers;
    expect(taken.map((a) => a.answers)).toContainEqual(JSON.parse(held));
    // reading it is not a save: still answered
    expect((await read(call, q.id))?.answers).toEqual(JSON.parse(held));
    // another pupil saves meanwhile
    const other = pupil();
    const theirs = await opened(teacher, [{ kind: 'USERS', ids: [other] }]);
    await save(await asUser(other), theirs.id, { name: 'Meanwhile' });
  });

  it('never refuses the answer screen at its fastest, a save every 1.5 s for five minutes, then stops a burst', async () => {
    const { q, call } = await withDraft();
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61_000 });
    for (let i = 0; i < 200; i++) {
      vi.setSystemTime(Date.now() + 1500);
      const res = await call('PUT', url(q.id), { answers: { name: `Typed ${i}` } });
      expect(res.statusCode, `save ${i}: ${res.body}`).toBe(200);
    }
    expect((await read(call, q.id))?.answers).toEqual({ name: 'Typed 199' });
    // a minute's limit: 60 saves, however they are spread
    vi.setSystemTime(Date.now() + 61_000);
    const statuses: number[] = [];
    for (let i = 0; i < 70; i++) {
      vi.setSystemTime(Date.now() + 600);
      statuses.push((await call('PUT', url(q.id), { answers: { name: `Fast ${i}` } })).statusCode);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(60);
    expect(statuses.slice(60)).toEqual(Array(10).fill(429));
    expect((await read(call, q.id))?.answers).toEqual({ name: 'Fast 59' });
  });

  it('counts the saves in the database: two servers on one database share the limit', async () => {
    const { me, q } = await withDraft();
    const second = await buildApp(t.config, { logger: false });
    try {
      await second.app.ready();
      const token = await openSession(t.db, t.config, me);
      const sent = Array.from({ length: 100 }, (_, i) => ({ name: `Version ${i}` }));
      const answers = [...(await Promise.all([burst(t.app, token, q.id, sent.slice(0, 50)), burst(second.app, token, q.id, sent.slice(50))]))].flat();
      expect(answers.filter((a) => a.status === 200)).toHaveLength(19);
      expect(answers.filter((a) => a.status === 429)).toHaveLength(81);
    } finally {
      await second.app.close();
    }
  });
});
