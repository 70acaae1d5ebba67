import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession } from '../../../src/server/auth/sessions.js';
import { readConfig, type Config } from '../../../src/server/config.js';
import { openDataFolder } from '../../../src/server/data-folder.js';
import { createDb, type DB } from '../../../src/server/db/connect.js';
import type { Definition } from '../../../src/shared/questionnaire/definition.js';
import { createTestDatabase } from '../../support/database.js';
import { call, QeProcess, qeEnv, type Answer } from '../../support/qe-process.js';
import { everyType, goodAnswers, newKey, storedReplies } from '../filling/helpers.js';
import { counters, recount, totals, recountTotals } from '../statistics/helpers.js';

/**
 * The crash test: QE as a real process on a database of its own, 200 students
 * submitting within a moment (waves of 10) over real HTTP, `kill -9` while their submissions are in flight,
 * a restart on the same data; then, for a named and for an anonymous questionnaire: no
 * acknowledged submission is lost, none is doubled, and sending each again with its key answers
 * the first result without storing anything new. Bounded: fixed counts, and every wait has a
 * ceiling (a bound, not a timed assertion). The QE processes are killed at the end, failed or not.
 *
 * Only what a caller and the database's counts show is asserted, so the test holds however
 * anonymous replies are stored, mixed (here every second) or released.
 */
const STUDENTS = 200;
/** the server is killed when this many submissions have been acknowledged */
const KILL_AT = 40;
const SECRET = 'crash-test-secret-0123456789abcdef';

/** One submission's fate: the server's answer, or none (the connection died with the server). */
type Outcome = { answer: Answer } | { error: string };

/** The moment the i-th submission is sent: waves of WAVE, WAVE_MS apart. */
const WAVE = 10;
const WAVE_MS = 30;
const wave = (i: number) => new Promise((resolve) => setTimeout(resolve, Math.floor(i / WAVE) * WAVE_MS));

const acknowledged = (o: Outcome): o is { answer: Answer } => 'answer' in o && o.answer.status === 200 && o.answer.body.code === 200;

describe('kill -9 during 200 concurrent submissions', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let qe: QeProcess;
  let db: DB;
  let config: Config;
  let teacherToken: string;
  /** the students' tokens, opened with the server's own function and secret (logging 200 in would hash 200 passwords) */
  let students: { id: number; token: string }[];

  beforeAll(async () => {
    database = await createTestDatabase();
    // anonymous replies are mixed every second: the counts must hold while that job rewrites them
    const env = await qeEnv(database, SECRET, { QE_ANONYMOUS_MIX_SECONDS: '1' });
    qe = new QeProcess(env, `http://127.0.0.1:${env.PORT}`);
    await qe.start(['--demo']);
    config = openDataFolder(readConfig(env));
    db = createDb(config);
    const user = (username: string) => db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow();
    teacherToken = await openSession(db, config, (await user('teacher01')).id);
    const ids = await db.selectFrom('users').select('id').where('user_type', '=', 'STUDENT').orderBy('id').execute();
    expect(ids.length).toBeGreaterThanOrEqual(STUDENTS);
    students = [];
    for (const { id } of ids.slice(0, STUDENTS)) students.push({ id, token: await openSession(db, config, id) });
  }, 180_000);

  afterAll(async () => {
    await qe?.kill();
    await db?.destroy();
    await database?.drop();
  }, 60_000);

  /** A questionnaire for the students, opened now through the API (PROCESSING, one feedback record each). */
  async function openQuestionnaire(type: 'NAMED' | 'ANONYMOUS', definition: Definition): Promise<number> {
    const created = await call(qe.base, 'POST', '/v1/questionnaires', teacherToken, {
      title: `Crash test (${type})`,
      type,
      targets: [{ kind: 'USERS', ids: students.map((s) => s.id) }],
      definition,
      openDate: new Date(Date.now() - 60_000).toISOString(),
      endDate: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(created.body, JSON.stringify(created.body)).toMatchObject({ code: 201 });
    const id = (created.body.data as unknown as { id: number }).id;
    const ready = await call(qe.base, 'POST', `/v1/questionnaires/${id}/ready`, teacherToken);
    expect(ready.body, JSON.stringify(ready.body)).toMatchObject({ code: 200, data: { status: 'PROCESSING' } });
    return id;
  }

  const submit = (token: string, questionnaireId: number, submissionKey: string, i: number) =>
    call(qe.base, 'POST', `/v1/my/questionnaires/${questionnaireId}/replies`, token, { submissionKey, answers: { ...goodAnswers(), name: `S${i}` } });

  /** What the database holds for the questionnaire: its feedback records and the number of its replies. */
  async function stored(questionnaireId: number) {
    const feedback = await db.selectFrom('feedback').select(['id', 'user_id', 'status', 'submission_key', 'submitted_at']).where('questionnaire_id', '=', questionnaireId).execute();
    const replies = await storedReplies(db, questionnaireId);
    return { feedback: new Map(feedback.map((f) => [f.user_id, f])), replies, submitted: feedback.filter((f) => f.status === 'SUBMITTED').length };
  }

  it.each(['NAMED', 'ANONYMOUS'] as const)(
    '%s: every acknowledged submission is stored once after kill -9 and a restart, and sending again answers the first result',
    async (type) => {
      const questionnaireId = await openQuestionnaire(type, everyType());
      const keys = students.map(() => newKey());

      // 200 in waves of 10 every 30 ms (QE stores the submissions that arrive together in one
      // transaction: sent all at once, every one was acknowledged before a kill could land); the
      // server is killed when the 40th acknowledgement arrives
      let acks = 0;
      let settled = 0;
      let unsettledAtKill = -1;
      let killed: Promise<void> | null = null;
      const outcomes: Outcome[] = await Promise.all(
        students.map((s, i) =>
          wave(i).then(() => submit(s.token, questionnaireId, keys[i], i)).then(
            (answer): Outcome => {
              settled++;
              if (acknowledged({ answer }) && ++acks === KILL_AT) {
                unsettledAtKill = STUDENTS - settled;
                killed = qe.kill();
              }
              return { answer };
            },
            (error: Error): Outcome => {
              settled++;
              return { error: error.message };
            },
          ),
        ),
      );
      expect(killed, 'the server was killed while submissions were in flight').not.toBeNull();
      await killed;
      const acked = outcomes.flatMap((o, i) => (acknowledged(o) ? [i] : []));
      // some acknowledged, not all: the kill came while submissions were in flight
      expect(unsettledAtKill).toBeGreaterThan(0);
      expect(acked.length).toBeGreaterThanOrEqual(KILL_AT);
      expect(acked.length).toBeLessThan(STUDENTS);
      // what was answered before the kill was an acknowledgement; the rest got no answer at all
      const answeredOtherwise = outcomes.filter((o) => 'answer' in o && !acknowledged(o));
      expect(answeredOtherwise, JSON.stringify(answeredOtherwise.slice(0, 3))).toEqual([]);

      await qe.start();
      const after = await stored(questionnaireId);
      // every acknowledged submission is there, with its key and the time it was answered with
      for (const i of acked) {
        const ack = (outcomes[i] as { answer: Answer }).answer.body.data?.submittedAt;
        expect(after.feedback.get(students[i].id), `student ${i}`).toMatchObject({ status: 'SUBMITTED', submission_key: keys[i], submitted_at: ack });
      }
      // nothing doubled, nothing stored under someone else's key
      for (const [i, s] of students.entries()) {
        const f = after.feedback.get(s.id)!;
        if (f.status === 'SUBMITTED') expect(f.submission_key, `student ${i}`).toBe(keys[i]);
        else expect(f.submission_key, `student ${i}`).toBeNull();
      }
      expect(after.replies).toHaveLength(after.submitted);
      expect(after.submitted).toBeGreaterThanOrEqual(acked.length);
      if (type === 'NAMED') {
        const submittedIds = [...after.feedback.values()].filter((f) => f.status === 'SUBMITTED').map((f) => f.id);
        expect(after.replies.map((r) => r.feedback_id).sort()).toEqual(submittedIds.sort());
        // the countable rows and counters of named replies are written in batches after the
        // submission (statistics/counting.ts): what the kill left uncounted is counted at start,
        // none twice — the counters then agree with a recount of the stored replies
        const uncounted = () => db.selectFrom('replies').select('id').where('questionnaire_id', '=', questionnaireId).where('counted', '=', 0).execute();
        await expect.poll(uncounted, { timeout: 60_000, interval: 200 }).toEqual([]);
        const { definition } = await db.selectFrom('questionnaires').select('definition').where('id', '=', questionnaireId).executeTakeFirstOrThrow();
        expect(await counters(db, questionnaireId)).toEqual(await recount(db, questionnaireId, JSON.parse(definition) as Definition));
        expect(await totals(db, questionnaireId)).toEqual(await recountTotals(db, questionnaireId, JSON.parse(definition) as Definition));
      }

      // every submission again with its key: the first result for those stored, a first storing for the rest
      const again = await Promise.all(students.map((s, i) => submit(s.token, questionnaireId, keys[i], i)));
      const notAcknowledged = again.filter((a) => !acknowledged({ answer: a }));
      expect(notAcknowledged, JSON.stringify(notAcknowledged.slice(0, 3))).toEqual([]);
      for (const [i, s] of students.entries()) {
        const before = after.feedback.get(s.id)!;
        if (before.status === 'SUBMITTED') expect(again[i].body.data?.submittedAt, `student ${i}`).toBe(before.submitted_at);
      }
      const final = await stored(questionnaireId);
      expect(final.submitted).toBe(STUDENTS);
      expect(final.replies).toHaveLength(STUDENTS);
      for (const [i, s] of students.entries()) {
        const f = final.feedback.get(s.id)!;
        expect(f, `student ${i}`).toMatchObject({ status: 'SUBMITTED', submission_key: keys[i], submitted_at: again[i].body.data?.submittedAt });
      }
      if (type === 'NAMED') {
        // the replies stored before are the same rows: the repeats stored nothing new
        const kept = new Set(after.replies.map((r) => r.id));
        expect(final.replies.filter((r) => kept.has(r.id))).toHaveLength(after.replies.length);
        expect(new Set(final.replies.map((r) => r.feedback_id)).size).toBe(STUDENTS);
      }
    },
    240_000,
  );
});
