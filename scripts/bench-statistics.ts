/**
 * `npm run bench:statistics` (part of `npm run bench`): the statistics detail call on
 * questionnaires of 3,000 and 25,000 replies × 40 questions, beside one raw GROUP BY over the
 * same answers, in the same run.
 *
 * Seeds the demo school, then, straight into the database in transactions of a few thousand
 * replies: enough respondent accounts, and per questionnaire (FINISHED, 40 questions of the ten
 * types, owned by teacher01) a feedback record per respondent (5 % not submitted), the replies
 * with random valid answers and their reply_answers rows (answerRows/insertAnswerRows, as the
 * submission does), respondents spread over every grade and class (and a few teachers).
 * Then, per questionnaire, on loopback: GET /v1/statistics/:id as the admin — five sequential
 * calls timed, then autocannon — unfiltered and filtered (role=STUDENT&gradeId=…); the raw
 * `select question_id, item, col, count(*) … group by …` timed on the database and served by a
 * bare Fastify route measured the same way; the xlsx export timed once. And the bare-Fastify
 * yardstick. With BENCH_EXPLAIN=1 the plan and time of every query the detail call runs are added.
 *
 * Prints JSON and writes it to bench-results/bench-statistics-<timestamp>.json. No thresholds.
 * SQLite (a fresh file in a temp folder) unless DATABASE_URL is set, then a fresh PostgreSQL
 * database on that server, dropped at the end. BENCH_DURATION sets the seconds of each run (8).
 */
import { CompiledQuery, sql, type KyselyPlugin } from 'kysely';
import { isPostgres, type DB } from '../src/server/db/connect.js';
import { seedDemoSchool, DEMO_PASSWORD } from '../src/server/demo/seed.js';
import { StatisticsService } from '../src/server/statistics/service.js';
import { answerCounts } from '../src/server/statistics/detail.js';
import type { AuthUser } from '../src/server/plugins/guard.js';
import type { StatisticsFilter } from '../src/shared/statistics/types.js';
import Fastify from 'fastify';
import { api, cannon, DURATION, logger, loopText, round, runBench, serveInProcess, summary, timed, type Measured, type RunResult, type Served } from './bench-support.js';
import { NOT_SUBMITTED_SHARE, seedQuestionnaire, seedRespondents, surveyDefinition, textsAnswers, textsDefinition } from './bench-seed.js';

const SIZES = [3000, 25000];
/** Text answers of the questionnaire whose frequent words are measured (the target: p50 ≤ 50 ms at 25,000, docs/benchmarks.md). */
const TEXTS_SIZE = 25000;
/** The comparison across years: a series of this many questionnaires of SERIES_SIZE replies each. */
const SERIES_YEARS = 3;
const SERIES_SIZE = 25000;
const CONNECTIONS = 4;
const SEQUENTIAL = 5;
/** The export of the larger questionnaire runs only when the smaller one's, scaled, promises less than this. */
const EXPORT_BUDGET_MS = 60_000;
/** A detail call slower than this is timed once and not loaded by autocannon. */
const SLOW_MS = 5000;
const EXPLAIN = process.env.BENCH_EXPLAIN === '1';

const log = logger('bench-statistics');

/** One autocannon run over CONNECTIONS connections (a detail call is slow: long time-outs). */
const statisticsRun = async (name: string, description: string, server: Served, path: string, headers: Record<string, string> = {}): Promise<RunResult> =>
  summary(await cannon(log, name, description, server, path, headers, { connections: CONNECTIONS, timeout: 120 }));

/** The one raw GROUP BY the detail is measured against. */
const rawGroupBy = (db: DB, id: number) =>
  db
    .selectFrom('reply_answers')
    .select((eb) => ['question_id', 'item', 'col', eb.fn.countAll<number>().as('n')])
    .where('questionnaire_id', '=', id)
    .groupBy(['question_id', 'item', 'col'])
    .execute();

/**
 * The plans of the queries GET /v1/statistics/:id runs, caught from StatisticsService.detail
 * itself (so they follow the service as it changes), each with its time run alone.
 */
async function plans(db: DB, admin: AuthUser, minGroupSize: number, id: number, filter: StatisticsFilter): Promise<{ sql: string; ms: number; plan: string[] }[]> {
  const caught: CompiledQuery[] = [];
  const capture: KyselyPlugin = {
    transformQuery: (args) => {
      if (args.node.kind === 'SelectQueryNode') caught.push(db.getExecutor().compileQuery(args.node, args.queryId));
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  const service = new StatisticsService(db.withPlugin(capture), minGroupSize);
  await service.detail(await service.scoped(admin, id), filter, 'en');
  const out = [];
  for (const query of caught) {
    const prefix = isPostgres(db) ? 'explain (analyze, buffers) ' : 'explain query plan ';
    const plan = await db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(prefix + query.sql, [...query.parameters]));
    // the query alone, timed (PostgreSQL's EXPLAIN ANALYZE has run it once already, warming the cache)
    const t0 = performance.now();
    await db.executeQuery(query);
    out.push({
      sql: query.sql,
      ms: round(performance.now() - t0),
      plan: plan.rows.map((row) => (isPostgres(db) ? String(row['QUERY PLAN']) : `${row.id}<-${row.parent} ${row.detail}`)),
    });
  }
  return out;
}

runBench('bench-statistics', async ({ db, config, databaseUrl, serveQe, serveYardstick }) => {
  // the raw GROUP BY served by a bare Fastify route in this process, on the bench's own connection
  const rawApp = Fastify({ logger: false });
  rawApp.get<{ Params: { id: number } }>('/raw/:id', { schema: { params: { type: 'object', properties: { id: { type: 'integer' } } } } }, async (request) => ({ code: 200, msg: 'ok', data: await rawGroupBy(db, request.params.id) }));
  await seedDemoSchool(db);
  const definition = surveyDefinition();
  const year = await db.selectFrom('school_years').select('id').where('year_status', '=', '1').executeTakeFirstOrThrow();
  const places = (await db.selectFrom('classes').select(['id', 'grade_id']).orderBy('id').execute()).map((c) => ({ classId: c.id, gradeId: c.grade_id }));
  const teacher = await db.selectFrom('users').select('id').where('username', '=', 'teacher01').executeTakeFirstOrThrow();
  const t0 = performance.now();
  const respondents = await seedRespondents(db, Math.max(...SIZES) + Math.round(Math.max(...SIZES) * NOT_SUBMITTED_SHARE));
  log(`${respondents.length} respondent accounts seeded in ${Math.round(performance.now() - t0)} ms (${databaseUrl ? 'postgres' : 'sqlite'})`);
  const seeded = [];
  for (const size of SIZES) seeded.push({ size, ...(await seedQuestionnaire(db, size, definition, respondents, places, teacher.id, year.id)) });
  // text answers read: every reply answers the paragraph (TEXTS_SIZE text answers), words counted as they are stored
  const texts = await seedQuestionnaire(db, TEXTS_SIZE, textsDefinition(), respondents, places, teacher.id, year.id, textsAnswers);
  // comparison across years: the 25,000-reply survey copied twice, each copy answered by 25,000 again (a three-year series)
  const seriesFirst = seeded.find((q) => q.size === SERIES_SIZE)!.id;
  const series = [seriesFirst];
  for (let k = 1; k < SERIES_YEARS; k++) {
    const next = await seedQuestionnaire(db, SERIES_SIZE, definition, respondents, places, teacher.id, year.id);
    await db.updateTable('questionnaires').set({ source_id: series[series.length - 1] }).where('id', '=', next.id).execute();
    series.push(next.id);
  }
  // as autovacuum does soon after such a load (it vacuums after many inserts too, since PostgreSQL
  // 13): the planner's statistics and the visibility map, without which no index-only scan is
  // one (the feedback records' grouped read went through all their pages). SQLite has neither.
  if (isPostgres(db)) await sql`vacuum analyze`.execute(db);

  const server = await serveQe();
  const qe = server.url;
  const yardstick = await serveYardstick();
  const rawServer = await serveInProcess(rawApp);
  const { data: session } = await api(qe, '/v1/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: DEMO_PASSWORD }) });
  const auth = { authorization: `Bearer ${session.tk}`, 'accept-language': 'en' };
  const service = new StatisticsService(db, config.anonymousMinGroup);
  // the same call without HTTP and JSON: StatisticsService.detail as the route runs it
  const adminRow = await db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow();
  const admin: AuthUser = { id: adminRow.id, userType: 'ADMIN', sessionId: '', permissions: new Set(['data-statistics.view', 'data-statistics.management']), questionnaireId: null, seen: { auth: 0, calendar: 0, profile: 0, of: () => 0 } };

  const yardstickRun = await statisticsRun('yardstick', 'bare Fastify, one GET answering a small JSON', yardstick, '/hello');
  const results = [];
  let exportPerReplyMs = 0;
  for (const q of seeded) {
    const { data: detail } = await api(qe, `/v1/statistics/${q.id}`, { headers: auth });
    if (detail.replyCount !== q.size || detail.questions.length !== 40) throw new Error(`the detail of questionnaire ${q.id} counts ${detail.replyCount} replies and ${detail.questions.length} questions`);
    const grade = detail.groups.grades[Math.floor(detail.groups.grades.length / 2)];
    const filterQuery = `?role=STUDENT&gradeId=${grade.id}`;
    const f0 = performance.now();
    const { data: filtered } = await api(qe, `/v1/statistics/${q.id}${filterQuery}`, { headers: auth });
    const filteredFirstMs = round(performance.now() - f0);
    const raw = await rawGroupBy(db, q.id);

    const detailSequential = await timed(SEQUENTIAL, () => api(qe, `/v1/statistics/${q.id}`, { headers: auth }));
    // a call slower than SLOW_MS is timed once (the first call above) and not loaded: the run stays minutes long
    const filteredSlow = filteredFirstMs > SLOW_MS;
    const filteredSequential = filteredSlow ? { medianMs: filteredFirstMs, runsMs: [filteredFirstMs] } : await timed(SEQUENTIAL, () => api(qe, `/v1/statistics/${q.id}${filterQuery}`, { headers: auth }));
    const rawDb = await timed(SEQUENTIAL, () => rawGroupBy(db, q.id));
    const rawHttp = await timed(SEQUENTIAL, () => api(rawServer.url, `/raw/${q.id}`));
    const detailInProcess = await timed(SEQUENTIAL, () => service.scoped(admin, q.id).then((scoped) => service.detail(scoped, {}, 'en')));
    const countsInProcess = await timed(SEQUENTIAL, () => answerCounts(db, q.id, {}));
    log(`${q.size} replies: detail ${detailSequential.medianMs} ms (${detailInProcess.medianMs} ms in process), filtered ${filteredSequential.medianMs} ms, its grouped count ${countsInProcess.medianMs} ms, raw GROUP BY ${rawDb.medianMs} ms on the database, ${rawHttp.medianMs} ms over HTTP`);

    const detailRun = await statisticsRun(`detail-${q.size}`, `GET /v1/statistics/:id, ${q.size} replies × 40 questions, as the admin`, server, `/v1/statistics/${q.id}`, auth);
    const filteredName = `detail-filtered-${q.size}`;
    const filteredDescription = `the same, role=STUDENT and grade ${grade.nameEn} (${filtered.replyCount} replies)`;
    const filteredRun = filteredSlow
      ? { name: filteredName, description: filteredDescription, skipped: `one call took ${filteredFirstMs} ms, over ${SLOW_MS} ms: timed once, not loaded` }
      : await statisticsRun(filteredName, filteredDescription, server, `/v1/statistics/${q.id}${filterQuery}`, auth);
    if ('skipped' in filteredRun) log(`${filteredName}: ${filteredRun.skipped}`);

    let exported: ({ ms: number; bytes: number } & Omit<Measured<unknown>, 'value' | 'busyMs'>) | { skipped: string };
    const estimate = exportPerReplyMs * q.size;
    if (!exportPerReplyMs || estimate < EXPORT_BUDGET_MS) {
      const e0 = performance.now();
      // the longest QE's event loop was held meanwhile
      const { value: res, eventLoopMaxMs, eventLoopCpuMaxMs, gcMaxMs, memoryGrowthMb } = await server.measure(async () => {
        const answer = await fetch(`${qe}/v1/statistics/${q.id}/export`, { headers: auth });
        return { status: answer.status, bytes: (await answer.arrayBuffer()).byteLength };
      }, process.env.BENCH_PROFILE === `export-${q.size}` ? `export-${q.size}` : undefined);
      const { bytes } = res;
      const ms = Math.round(performance.now() - e0);
      if (res.status !== 200) throw new Error(`the export of questionnaire ${q.id} answered HTTP ${res.status}`);
      exportPerReplyMs = ms / q.size;
      exported = { ms, bytes, eventLoopMaxMs, eventLoopCpuMaxMs, gcMaxMs, memoryGrowthMb };
      // streamed: the memory it takes does not grow with the replies (the 3,000 and the 25,000 side by side)
      log(`${q.size} replies: xlsx export ${ms} ms, ${Math.round(bytes / 1024)} KiB, ${loopText(exported)}, memory grew at most ${memoryGrowthMb.rss} MB resident, ${memoryGrowthMb.heapAndBuffers} MB of heap and buffers`);
    } else {
      exported = { skipped: `estimated ${Math.round(estimate / 1000)} s from the smaller export, over the ${EXPORT_BUDGET_MS / 1000} s budget` };
      log(`${q.size} replies: xlsx export skipped (${exported.skipped})`);
    }

    const rawRun = await statisticsRun(`raw-group-by-${q.size}`, 'bare Fastify: one select question_id, item, col, count(*) from reply_answers where questionnaire_id = ? group by question_id, item, col', rawServer, `/raw/${q.id}`);
    results.push({
      replies: q.size,
      questions: 40,
      answerRows: q.rows,
      rawGroups: raw.length,
      seedMs: q.ms,
      filter: { query: filterQuery, replies: filtered.replyCount },
      sequentialMs: {
        detail: detailSequential,
        detailFiltered: filteredSequential,
        detailInProcess,
        countsInProcess,
        rawGroupByOnDatabase: rawDb,
        rawGroupByOverHttp: rawHttp,
      },
      runs: [detailRun, filteredRun, rawRun],
      ratios: {
        detailToRawOnDatabaseMs: round(detailSequential.medianMs / rawDb.medianMs, 2),
        detailToRawOverHttpMs: round(detailSequential.medianMs / rawHttp.medianMs, 2),
        rawToDetailRequestsPerSec: round(rawRun.requestsPerSec / detailRun.requestsPerSec, 2),
        detailToYardstickRequestsPerSec: round(detailRun.requestsPerSec / yardstickRun.requestsPerSec, 5),
      },
      export: exported,
      ...(EXPLAIN
        ? {
            plans: {
              detail: await plans(db, admin, config.anonymousMinGroup, q.id, {}),
              detailFiltered: await plans(db, admin, config.anonymousMinGroup, q.id, { role: 'STUDENT', gradeId: grade.id }),
            },
          }
        : {}),
    });
  }

  // the most frequent words of 25,000 text answers, for everyone and for one grade
  const termsPath = `/v1/statistics/${texts.id}/terms?questionId=idea`;
  const t1 = performance.now();
  const { data: top } = await api(qe, termsPath, { headers: auth });
  const termsFirstMs = round(performance.now() - t1);
  const termsGrade = (await api(qe, `/v1/statistics/${texts.id}`, { headers: auth })).data.groups.grades[0];
  const termsRuns = [
    await statisticsRun(`terms-${TEXTS_SIZE}`, `GET /v1/statistics/:id/terms, a paragraph question with ${TEXTS_SIZE} text answers, the 30 most frequent words and phrases`, server, termsPath, auth),
    await statisticsRun(`terms-filtered-${TEXTS_SIZE}`, `the same for grade ${termsGrade.nameEn}`, server, `${termsPath}&role=STUDENT&gradeId=${termsGrade.id}`, auth),
    await statisticsRun(`texts-of-term-${TEXTS_SIZE}`, `GET /v1/statistics/:id/texts?term=${top.list[0].term}, the first page of the answers using the most frequent term (${top.list[0].n})`, server, `/v1/statistics/${texts.id}/texts?questionId=idea&term=${encodeURIComponent(top.list[0].term)}`, auth),
  ];
  log(`${TEXTS_SIZE} text answers: ${top.list.length} terms, the first ${top.list[0].term} (${top.list[0].n}); first call ${termsFirstMs} ms; p50 ${termsRuns.map((r) => `${r.name} ${r.latencyMs?.p50} ms`).join(', ')}`);

  // the comparison of the three, for everyone and for one grade
  const comparePath = `/v1/statistics/${series[series.length - 1]}/comparison`;
  const c0 = performance.now();
  const { data: compared } = await api(qe, comparePath, { headers: auth });
  const compareFirstMs = round(performance.now() - c0);
  if (compared.series.length !== SERIES_YEARS) throw new Error(`the comparison found ${compared.series.length} of the ${SERIES_YEARS} questionnaires`);
  const compareGrade = (await api(qe, `/v1/statistics/${series[0]}`, { headers: auth })).data.groups.grades[0];
  const compareRuns = [
    await statisticsRun(`comparison-${SERIES_YEARS}x${SERIES_SIZE}`, `GET /v1/statistics/:id/comparison, a series of ${SERIES_YEARS} questionnaires of ${SERIES_SIZE} replies × 40 questions`, server, comparePath, auth),
    await statisticsRun(`comparison-filtered-${SERIES_YEARS}x${SERIES_SIZE}`, `the same for grade ${compareGrade.nameEn}`, server, `${comparePath}?role=STUDENT&gradeId=${compareGrade.id}`, auth),
  ];
  log(`comparison of ${SERIES_YEARS} × ${SERIES_SIZE} replies: first call ${compareFirstMs} ms; p50 ${compareRuns.map((r) => `${r.name} ${r.latencyMs?.p50} ms`).join(', ')}`);

  await rawApp.close();
  const result = {
    date: new Date().toISOString(),
    node: process.version,
    database: databaseUrl ? 'postgres' : 'sqlite',
    connections: CONNECTIONS,
    durationSec: DURATION,
    yardstick: yardstickRun,
    questionnaires: results,
    textTerms: { answers: TEXTS_SIZE, seedMs: texts.ms, firstCallMs: termsFirstMs, top: top.list.slice(0, 10), runs: termsRuns },
    comparison: { questionnaires: SERIES_YEARS, repliesEach: SERIES_SIZE, firstCallMs: compareFirstMs, runs: compareRuns },
  };
  return result;
});
