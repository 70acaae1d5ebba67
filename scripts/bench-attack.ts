/**
 * `npm run bench:attack` (part of `npm run bench`): what an attack costs everybody else, on the
 * real QE on loopback, beside the bare Fastify yardstick of the same run.
 *
 * - Login flood: a light authenticated GET (/v1/my/user-info) measured by autocannon alone, then
 *   again while 200 wrong logins arrive at once from one address (each a password hash), with
 *   the event loop's delay; and how long a real login from another address waits meanwhile.
 * - Pattern rule: a submission whose short-text rule is `(a+)+b` (catastrophic on a backtracking
 *   engine) with a 32- and a 5,000-character answer: milliseconds until it is answered.
 *
 * No thresholds: machines are noisy, so compare with the baseline and the yardstick.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { openSession } from '../src/server/auth/sessions.js';
import { seedDemoSchool, DEMO_PASSWORD } from '../src/server/demo/seed.js';
import { openQuestionnaire } from '../src/server/questionnaires/lifecycle.js';
import type { Definition } from '../src/shared/questionnaire/definition.js';
import { api, cannon, logger, median, round, runBench, serveInProcess, summary, timed } from './bench-support.js';

const FLOOD = 200;
const log = logger('bench-attack');

runBench('bench-attack', async ({ app, db, config, databaseUrl, serveYardstick }) => {
  await seedDemoSchool(db);
  // QE in this process: the flood below comes through inject(), from an address of its own
  const server = await serveInProcess(app);
  const qe = server.url;
  const yardstick = await serveYardstick();
  const { data: admin } = await api(qe, '/v1/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: DEMO_PASSWORD }) });
  const auth = { authorization: `Bearer ${admin.tk}` };

  const yard = summary(await cannon(log, 'yardstick', 'bare Fastify, one GET answering a small JSON', yardstick, '/hello'));
  const quiet = summary(await cannon(log, 'user-info', 'the logged-in admin, nothing else going on', server, '/v1/my/user-info', auth));

  // the flood: 200 wrong logins for made-up names from one address (no account limit stops them:
  // each is a hash); a real pupil logs in from another address while it lasts
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const floodStart = performance.now();
  let floodMs = 0;
  const flood = Promise.all(
    Array.from({ length: FLOOD }, (_, i) =>
      app.inject({ method: 'POST', url: '/v1/login', remoteAddress: '203.0.113.66', payload: { username: `guess-${i}`, password: 'wrong-password' } }),
    ),
  ).then((answers) => {
    floodMs = performance.now() - floodStart;
    return answers.map((a) => a.json().code as number);
  });
  const realLogin = (async () => {
    await new Promise((r) => setTimeout(r, 200));
    const t0 = performance.now();
    const res = await app.inject({ method: 'POST', url: '/v1/login', remoteAddress: '198.51.100.20', payload: { username: 'student001', password: DEMO_PASSWORD } });
    return { code: res.json().code as number, ms: round(performance.now() - t0) };
  })();
  const during = summary(await cannon(log, 'user-info-during-login-flood', `the same GET while ${FLOOD} wrong logins arrive at once`, server, '/v1/my/user-info', auth));
  const codes = await flood;
  delay.disable();
  const real = await realLogin;
  log(`flood: ${FLOOD} wrong logins answered in ${Math.round(floodMs)} ms; a real login from another address took ${real.ms} ms`);

  // the pattern rule
  const definition: Definition = {
    version: 1,
    sections: [{ id: 's1', title: 'One', questions: [{ id: 'code', type: 'SHORT_TEXT', title: 'Code', required: true, textRule: { kind: 'pattern', pattern: '(a+)+b' } }] }],
  };
  const teacher = await db.selectFrom('users').select('id').where('username', '=', 'teacher01').executeTakeFirstOrThrow();
  const year = await db.selectFrom('school_years').select('id').where('year_status', '=', '1').executeTakeFirstOrThrow();
  const now = new Date().toISOString();
  const { id } = await db
    .insertInto('questionnaires')
    .values({ title: 'Bench: a hostile pattern', school_year_id: year.id, in_charge_id: teacher.id, type: 'NAMED', status: 'NOT_OPEN', open_date: now, end_date: new Date(Date.now() + 86_400_000).toISOString(), create_date: now, last_notice_time: null, targets: JSON.stringify([{ kind: 'ALL_STUDENTS' }]), definition: JSON.stringify(definition), updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  await openQuestionnaire(db, id);
  const pupil = await db.selectFrom('users').select('id').where('username', '=', 'student002').executeTakeFirstOrThrow();
  const pupilAuth = { authorization: `Bearer ${await openSession(db, config, pupil.id)}`, 'content-type': 'application/json' };
  const patternRun = async (length: number) =>
    timed(21, async () => {
      const res = await fetch(`${qe}/v1/my/questionnaires/${id}/replies`, { method: 'POST', headers: pupilAuth, body: JSON.stringify({ submissionKey: `bench-${crypto.randomUUID()}`, answers: { code: 'a'.repeat(length) } }) });
      const body = await res.json();
      if (res.status !== 422) throw new Error(`the hostile pattern answered HTTP ${res.status}: ${JSON.stringify(body)}`);
    });
  await patternRun(8); // warm up: the first calls of any route pay for compiling it
  const pattern32 = await patternRun(32);
  const pattern5000 = await patternRun(5000);
  log(`pattern (a+)+b: 32 characters ${pattern32.medianMs} ms, 5,000 characters ${pattern5000.medianMs} ms`);

  return {
    date: new Date().toISOString(),
    node: process.version,
    database: databaseUrl ? 'postgres' : 'sqlite',
    runs: [yard, quiet, during],
    ratioToYardstick: { 'user-info': round(quiet.requestsPerSec / yard.requestsPerSec, 4), 'user-info-during-login-flood': round(during.requestsPerSec / yard.requestsPerSec, 4) },
    loginFlood: {
      wrongLogins: FLOOD,
      answered: { failed: codes.filter((c) => c === 700).length, refused: codes.filter((c) => c === 702).length },
      floodMs: Math.round(floodMs),
      lightGetP99Ms: { quiet: quiet.latencyMs.p99, duringFlood: during.latencyMs.p99, added: round(during.latencyMs.p99 - quiet.latencyMs.p99) },
      eventLoopDelayMs: { p50: round(delay.percentile(50) / 1e6), p99: round(delay.percentile(99) / 1e6), max: round(delay.max / 1e6) },
      realLoginFromAnotherAddress: real,
      hashSlots: 'one per core (src/server/auth/hash-queue.ts)',
    },
    patternRule: { pattern: '(a+)+b', medianMs: { chars32: pattern32.medianMs, chars5000: pattern5000.medianMs, both: median([pattern32.medianMs, pattern5000.medianMs]) } },
  };
});
