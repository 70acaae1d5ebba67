/**
 * `npm run bench:backup`: what a backup costs everyone else. The demo school topped up
 * with 5,000 student accounts and a questionnaire of 25,000 replies (scripts/bench-seed.ts), then
 * on loopback: a light authenticated call (GET /v1/my/user-info, 10 connections) measured alone,
 * and again while a backup made through the API (POST /v1/backups, the admin's screen's call) runs,
 * polled until done; the backup's time and size, and the event loop's longest delay meanwhile;
 * then the restore of that archive timed, and (SQLite) a plain copy of the database file beside it.
 * Prints JSON and writes it to bench-results/bench-backup-<timestamp>.json. No thresholds.
 */
import { copyFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { seedDemoSchool, DEMO_PASSWORD } from '../src/server/demo/seed.js';
import { restoreArchive } from '../src/server/backup/restore.js';
import { api, cannon, logger, loopText, round, runBench, summary } from './bench-support.js';
import { NOT_SUBMITTED_SHARE, seedQuestionnaire, seedRespondents, surveyDefinition } from './bench-seed.js';

const REPLIES = 25_000;
const STUDENTS = 5_000;
const log = logger('bench-backup');

runBench('bench-backup', async ({ db, config, databaseUrl, serveQe, serveYardstick }) => {
  await seedDemoSchool(db);
  const year = await db.selectFrom('school_years').select('id').where('year_status', '=', '1').executeTakeFirstOrThrow();
  const places = (await db.selectFrom('classes').select(['id', 'grade_id']).orderBy('id').execute()).map((c) => ({ classId: c.id, gradeId: c.grade_id }));
  const teacher = await db.selectFrom('users').select('id').where('username', '=', 'teacher01').executeTakeFirstOrThrow();
  const respondents = await seedRespondents(db, Math.max(STUDENTS, REPLIES + Math.round(REPLIES * NOT_SUBMITTED_SHARE)));
  const seeded = await seedQuestionnaire(db, REPLIES, surveyDefinition(), respondents, places, teacher.id, year.id);
  log(`${respondents.length} accounts, ${REPLIES} replies (${seeded.rows} answer rows) seeded (${databaseUrl ? 'postgres' : 'sqlite'})`);

  const server = await serveQe();
  const qe = server.url;
  const yardstick = await serveYardstick();
  const { data: session } = await api(qe, '/v1/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'superadmin', password: DEMO_PASSWORD }) });
  const auth = { authorization: `Bearer ${session.tk}`, 'accept-language': 'en' };
  const light = '/v1/my/user-info';

  const yardstickRun = summary(await cannon(log, 'yardstick', 'bare Fastify, one GET answering a small JSON', yardstick, '/hello'));
  const alone = summary(await cannon(log, 'light-alone', 'GET /v1/my/user-info, nothing else running', server, light, auth));

  // the backup, started as the screen starts it, and the same light call while it runs
  const t0 = performance.now();
  let backupMs = 0;
  const { value: [job, duringRun], eventLoopMaxMs, eventLoopCpuMaxMs, gcMaxMs } = await server.measure(async () => {
    const started = await api(qe, '/v1/backups', { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{}' });
    if (started.code !== 202 && started.code !== 200) throw new Error(`POST /v1/backups answered ${JSON.stringify(started)}`);
    let job = started.data as { state: string; name: string | null; error: unknown } | null;
    const during = cannon(log, 'light-during-backup', 'GET /v1/my/user-info while a backup of the whole school runs', server, light, auth);
    while (job?.state === 'running') {
      await new Promise((resolve) => setTimeout(resolve, 100));
      job = (await api(qe, '/v1/backups/job', { headers: auth })).data;
    }
    backupMs = Math.round(performance.now() - t0);
    return [job, summary(await during)] as const;
  }, process.env.BENCH_PROFILE === 'backup' ? 'backup' : undefined);
  if (job?.state !== 'done' || !job.name) throw new Error(`the backup did not finish: ${JSON.stringify(job)}`);
  const bytes = statSync(join(config.dataDir, 'backups', job.name)).size;
  log(`backup ${job.name}: ${backupMs} ms, ${Math.round(bytes / 1024)} KiB, ${loopText({ eventLoopMaxMs, eventLoopCpuMaxMs, gcMaxMs })}; light call p99 ${alone.latencyMs.p99} ms alone, ${duringRun.latencyMs.p99} ms during`);

  // the restore of the same archive (in process: it ends every session, the bench's too)
  const r0 = performance.now();
  const restored = await restoreArchive(db, config, join(config.dataDir, 'backups', job.name));
  const restoreMs = Math.round(performance.now() - r0);
  // what an administrator would otherwise do: copy the database file (SQLite; it misses what the WAL holds)
  let fileCopy: { ms: number; bytes: number } | null = null;
  if (!databaseUrl) {
    const from = join(config.dataDir, 'qe.sqlite');
    const to = join(config.dataDir, 'copy-of-qe.sqlite');
    const c0 = performance.now();
    copyFileSync(from, to);
    fileCopy = { ms: Math.round(performance.now() - c0), bytes: statSync(to).size };
    rmSync(to, { force: true });
  }
  log(`restore: ${restoreMs} ms (${restored.rows} rows)${fileCopy ? `; a plain copy of the SQLite file: ${fileCopy.ms} ms, ${Math.round(fileCopy.bytes / 2 ** 20)} MiB` : ''}`);

  return {
    date: new Date().toISOString(),
    node: process.version,
    database: databaseUrl ? 'postgres' : 'sqlite',
    accounts: respondents.length,
    replies: REPLIES,
    answerRows: seeded.rows,
    backup: { ms: backupMs, bytes, file: job.name, eventLoopMaxMs, eventLoopCpuMaxMs, gcMaxMs },
    restore: { ms: restoreMs, rows: restored.rows },
    sqliteFileCopy: fileCopy,
    runs: [yardstickRun, alone, duringRun],
    ratioToYardstick: { 'light-alone': round(alone.requestsPerSec / yardstickRun.requestsPerSec, 4), 'light-during-backup': round(duringRun.requestsPerSec / yardstickRun.requestsPerSec, 4) },
  };
});
