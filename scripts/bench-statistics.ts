/**
 * `npm run bench:statistics` (part of `npm run bench`; issue 6): the statistics detail call on
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
import { randomBytes, randomUUID } from 'node:crypto';
import { CompiledQuery, sql, type KyselyPlugin } from 'kysely';
import { isPostgres, type DB } from '../src/server/db/connect.js';
import type { NewUser } from '../src/server/db/schema.js';
import { seedDemoSchool, DEMO_PASSWORD } from '../src/server/demo/seed.js';
import { demoName } from '../src/server/demo/names.js';
import { hashPassword } from '../src/server/auth/passwords.js';
import { answerRows, insertAnswerRows, type ReplyAnswerRow } from '../src/server/statistics/answerRows.js';
import { StatisticsService } from '../src/server/statistics/service.js';
import type { AuthUser } from '../src/server/plugins/guard.js';
import type { StatisticsFilter } from '../src/shared/statistics/types.js';
import type { Definition, Question, QuestionType } from '../src/shared/questionnaire/definition.js';
import { OTHER, replyProblems, type Answer, type Answers } from '../src/shared/questionnaire/answers.js';
import { api, cannon, DURATION, listen, logger, round, runBench, summary, timed, type RunResult } from './bench-support.js';
import { seededRandom } from '../tests/support/random.js';

const SIZES = [3000, 25000];
/** Respondents who were asked but did not submit, as a share of those who did. */
const NOT_SUBMITTED_SHARE = 0.05;
/** Replies a transaction of the seed holds. */
const BATCH = 2000;
const CONNECTIONS = 4;
const SEQUENTIAL = 5;
/** The export of the larger questionnaire runs only when the smaller one's, scaled, promises less than this. */
const EXPORT_BUDGET_MS = 60_000;
/** A detail call slower than this is timed once and not loaded by autocannon. */
const SLOW_MS = 5000;
const EXPLAIN = process.env.BENCH_EXPLAIN === '1';

const log = logger('bench-statistics');

/** The seeded generator (tests/support/random.ts), so every run seeds the same answers. */
function generator(seed: number) {
  const r = seededRandom(seed);
  const int = (n: number) => Math.floor(r.next() * n);
  /** Index 0..n-1, skewed towards the low end (a survey's answers are rarely uniform). */
  const skewed = (n: number) => Math.min(n - 1, Math.floor(n * r.next() ** 1.6));
  return { next: r.next, int, skewed };
}
type Random = ReturnType<typeof generator>;

/** The mix of a school survey: mostly choices, scales and grids; a few texts, one date, one time. */
const MIX: [QuestionType, number][] = [
  ['GRID_RADIO', 6],
  ['GRID_CHECKBOX', 3],
  ['RADIO', 8],
  ['CHECKBOX', 5],
  ['DROPDOWN', 4],
  ['LINEAR_SCALE', 8],
  ['SHORT_TEXT', 2],
  ['PARAGRAPH', 2],
  ['DATE', 1],
  ['TIME', 1],
];

/** 40 questions over the ten types, interleaved, in four sections; the texts optional. */
function surveyDefinition(): Definition {
  const choices = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i + 1}`, label: `${prefix.toUpperCase()} ${i + 1}` }));
  const left = MIX.map(([type, n]) => [type, n] as [QuestionType, number]);
  const types: QuestionType[] = [];
  while (left.some(([, n]) => n > 0)) for (const entry of left) if (entry[1]-- > 0) types.push(entry[0]);
  const seen: Partial<Record<QuestionType, number>> = {};
  const questions = types.map((type, i): Question => {
    const k = (seen[type] = (seen[type] ?? 0) + 1);
    const q: Question = { id: `q${i + 1}`, type, title: `Question ${i + 1} (${type})`, required: true };
    if (type === 'RADIO') Object.assign(q, { options: choices('o', 4 + (k % 2)), other: k % 3 === 0 });
    if (type === 'DROPDOWN') q.options = choices('o', 8 + 2 * (k % 3));
    if (type === 'CHECKBOX') Object.assign(q, { options: choices('o', 6), other: k % 2 === 1, choiceRule: { kind: 'atMost', count: 3 } });
    if (type === 'GRID_RADIO') Object.assign(q, { rows: choices('r', 5), columns: choices('c', 5) });
    if (type === 'GRID_CHECKBOX') Object.assign(q, { rows: choices('r', 4), columns: choices('c', 5), choiceRule: { kind: 'atMost', count: 3 } });
    if (type === 'LINEAR_SCALE') q.scale = k % 4 === 0 ? { min: 0, max: 10, minLabel: 'Not at all', maxLabel: 'Completely' } : { min: 1, max: 5, minLabel: 'Disagree', maxLabel: 'Agree' };
    if (type === 'SHORT_TEXT') Object.assign(q, { required: false, textRule: { kind: 'length', min: 2, max: 50 } });
    if (type === 'PARAGRAPH') q.required = false;
    if (type === 'DATE' || type === 'TIME') q.required = k % 2 === 0;
    return q;
  });
  return { version: 1, sections: [0, 1, 2, 3].map((s) => ({ id: `s${s + 1}`, title: `Part ${s + 1}`, questions: questions.slice(s * 10, s * 10 + 10) })) };
}

const SHORT = ['Chan Tai Man', 'More sports', 'Library hours', 'Canteen food', 'Homework load', 'Nothing', 'The new lab', 'Music room'];
const LONG = [
  'The library should open earlier in the morning, and the canteen could offer more vegetarian dishes on weekdays.',
  'I enjoyed the science week very much; more experiments and fewer worksheets would help.',
  'Please keep the air-conditioning on during the summer exams.',
  '希望學校增加課外活動的選擇，並延長圖書館的開放時間。',
];
const pad = (n: number) => String(n).padStart(2, '0');

/** A random reply that passes every rule of `surveyDefinition`. */
function randomAnswers(definition: Definition, r: Random): Answers {
  const answers: Answers = {};
  for (const q of definition.sections.flatMap((s) => s.questions)) {
    if (!q.required && r.next() < 0.6) continue;
    const options = q.options ?? [];
    const columns = q.columns ?? [];
    const some = (n: number, max: number) => {
      const picked = new Set<number>();
      const want = 1 + r.int(max);
      while (picked.size < want) picked.add(r.skewed(n));
      return [...picked].sort((a, b) => a - b);
    };
    let a: Answer;
    switch (q.type) {
      case 'RADIO':
        a = q.other && r.next() < 0.05 ? { choice: OTHER, otherText: SHORT[r.int(SHORT.length)] } : { choice: options[r.skewed(options.length)].id };
        break;
      case 'DROPDOWN':
        a = { choice: options[r.skewed(options.length)].id };
        break;
      case 'CHECKBOX': {
        const choices = some(options.length, 3).map((i) => options[i].id);
        a = q.other && choices.length < 3 && r.next() < 0.1 ? { choices: [...choices, OTHER], otherText: SHORT[r.int(SHORT.length)] } : { choices };
        break;
      }
      case 'GRID_RADIO':
        a = Object.fromEntries((q.rows ?? []).map((row) => [row.id, columns[r.skewed(columns.length)].id]));
        break;
      case 'GRID_CHECKBOX':
        a = Object.fromEntries((q.rows ?? []).map((row) => [row.id, some(columns.length, 3).map((i) => columns[i].id)]));
        break;
      case 'LINEAR_SCALE': {
        const { min, max } = q.scale!;
        a = max - r.skewed(max - min + 1);
        break;
      }
      case 'SHORT_TEXT':
        a = SHORT[r.int(SHORT.length)];
        break;
      case 'PARAGRAPH':
        a = LONG[r.int(LONG.length)];
        break;
      case 'DATE':
        a = `2025-${pad(1 + r.int(12))}-${pad(1 + r.int(28))}`;
        break;
      case 'TIME':
        a = `${pad(7 + r.int(12))}:${pad(5 * r.int(12))}`;
        break;
    }
    answers[q.id] = a;
  }
  return answers;
}

interface Place {
  classId: number;
  gradeId: number;
}

/** Respondent accounts enough for the largest questionnaire: one in twelve a teacher, the rest students. */
async function seedRespondents(db: DB, count: number): Promise<{ id: number; teacher: boolean }[]> {
  const hash = await hashPassword(DEMO_PASSWORD);
  const now = new Date().toISOString();
  const out: { id: number; teacher: boolean }[] = [];
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < count; start += 500) {
      const users: NewUser[] = [];
      for (let i = start; i < Math.min(start + 500, count); i++) {
        const n = demoName(20_000 + i);
        const teacher = i % 12 === 11;
        const no = String(i + 1).padStart(6, '0');
        users.push({
          username: `stat${no}`,
          password_hash: hash,
          user_type: teacher ? 'TEACHER' : 'STUDENT',
          user_no: `${teacher ? 'T' : 'S'}7${no}`,
          name_hk: n.nameHk,
          name_en: n.nameEn,
          gender: i % 2 ? 'M' : 'F',
          active: 1,
          status: '1',
          seq: 100_000 + i,
          created_at: now,
          updated_at: now,
        });
      }
      const ids = await trx.insertInto('users').values(users).returning(['id', 'user_type']).execute();
      out.push(...ids.map((u) => ({ id: u.id, teacher: u.user_type === 'TEACHER' })));
    }
  });
  return out;
}

/** One FINISHED questionnaire with `size` replies (and 5 % more respondents who did not submit). */
async function seedQuestionnaire(db: DB, size: number, definition: Definition, respondents: { id: number; teacher: boolean }[], places: Place[], inChargeId: number, yearId: number): Promise<{ id: number; rows: number; ms: number }> {
  const t0 = performance.now();
  const now = new Date();
  const day = (d: number) => new Date(now.getTime() + d * 86_400_000).toISOString();
  const { id } = await db
    .insertInto('questionnaires')
    .values({
      title: `Bench: school survey, ${size.toLocaleString('en')} replies`,
      school_year_id: yearId,
      in_charge_id: inChargeId,
      type: 'NAMED',
      status: 'FINISHED',
      open_date: day(-30),
      end_date: day(-2),
      create_date: day(-40),
      last_notice_time: null,
      targets: JSON.stringify([{ kind: 'ALL_STUDENTS' }, { kind: 'ALL_TEACHERS' }]),
      definition: JSON.stringify(definition),
      updated_at: day(-2),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const total = size + Math.round(size * NOT_SUBMITTED_SHARE);
  if (respondents.length < total) throw new Error(`${respondents.length} respondent accounts for ${total} respondents`);
  const r = generator(size);
  let rows = 0;
  let checked = 0;
  for (let start = 0; start < total; start += BATCH) {
    await db.transaction().execute(async (trx) => {
      const batch = respondents.slice(start, Math.min(start + BATCH, total)).map((u, k) => {
        const i = start + k;
        const place = u.teacher ? null : places[i % places.length];
        const submitted = i < size;
        const at = day(-30 + ((i * 28) / total));
        return { u, place, submitted, at };
      });
      const feedbackIds: number[] = [];
      for (let i = 0; i < batch.length; i += 500) {
        const values = batch.slice(i, i + 500).map(({ u, place, submitted, at }) => ({
          questionnaire_id: id,
          user_id: u.id,
          respondent_role: u.teacher ? 'TEACHER' : 'STUDENT',
          designated_code: randomBytes(6).toString('base64url').toUpperCase(),
          status: submitted ? 'SUBMITTED' : 'NOT_SUBMITTED',
          submitted_at: submitted ? at : null,
          notified_at: null,
          submission_key: submitted ? randomUUID() : null,
          grade_id: place?.gradeId ?? null,
          class_id: place?.classId ?? null,
        }));
        feedbackIds.push(...(await trx.insertInto('feedback').values(values).returning('id').execute()).map((f) => f.id));
      }
      const replies = [];
      const answerRowsOfBatch: ReplyAnswerRow[] = [];
      for (const [k, { u, place, submitted, at }] of batch.entries()) {
        if (!submitted) continue;
        const answers = randomAnswers(definition, r);
        if (checked < 200) {
          const problems = replyProblems(definition, answers);
          if (Object.keys(problems).length) throw new Error(`a seeded reply is not valid: ${JSON.stringify(problems)} in ${JSON.stringify(answers)}`);
          checked++;
        }
        const reply = { id: randomUUID(), questionnaire_id: id, respondent_role: u.teacher ? 'TEACHER' : 'STUDENT', grade_id: place?.gradeId ?? null, class_id: place?.classId ?? null };
        replies.push({ ...reply, feedback_id: feedbackIds[k], submitted_on: at.slice(0, 10), answers: JSON.stringify(answers) });
        answerRowsOfBatch.push(...answerRows(definition, reply, answers));
      }
      for (let i = 0; i < replies.length; i += 500) await trx.insertInto('replies').values(replies.slice(i, i + 500)).execute();
      await insertAnswerRows(trx, answerRowsOfBatch);
      rows += answerRowsOfBatch.length;
    });
  }
  const ms = Math.round(performance.now() - t0);
  log(`questionnaire ${id}: ${size} replies (${total} respondents), ${rows} answer rows seeded in ${ms} ms`);
  return { id, rows, ms };
}

/** One autocannon run over CONNECTIONS connections (a detail call is slow: long time-outs). */
const statisticsRun = async (name: string, description: string, url: string, headers: Record<string, string> = {}): Promise<RunResult> =>
  summary(await cannon(log, name, description, url, headers, { connections: CONNECTIONS, timeout: 120 }));

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

runBench('bench-statistics', async ({ app, db, config, databaseUrl, yardstick }) => {
  yardstick.get<{ Params: { id: number } }>('/raw/:id', { schema: { params: { type: 'object', properties: { id: { type: 'integer' } } } } }, async (request) => ({ code: 200, msg: 'ok', data: await rawGroupBy(db, request.params.id) }));
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
  // as autovacuum would soon after such a load: the planner's statistics (SQLite has none unless ANALYZE is run, which QE does not)
  if (isPostgres(db)) await sql`analyze`.execute(db);

  const qe = await listen(app);
  const bare = await listen(yardstick);
  const { data: session } = await api(qe, '/v1/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: DEMO_PASSWORD }) });
  const auth = { authorization: `Bearer ${session.tk}`, 'accept-language': 'en' };
  const service = new StatisticsService(db, config.anonymousMinGroup);
  // the same call without HTTP and JSON: StatisticsService.detail as the route runs it
  const adminRow = await db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow();
  const admin: AuthUser = { id: adminRow.id, userType: 'ADMIN', sessionId: '', permissions: new Set(['data-statistics.view', 'data-statistics.management']), questionnaireId: null };

  const yardstickRun = await statisticsRun('yardstick', 'bare Fastify, one GET answering a small JSON', `${bare}/hello`);
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
    const rawHttp = await timed(SEQUENTIAL, () => api(bare, `/raw/${q.id}`));
    const detailInProcess = await timed(SEQUENTIAL, () => service.scoped(admin, q.id).then((scoped) => service.detail(scoped, {}, 'en')));
    const countsInProcess = await timed(SEQUENTIAL, () => service.counts(q.id, {}));
    log(`${q.size} replies: detail ${detailSequential.medianMs} ms (${detailInProcess.medianMs} ms in process), filtered ${filteredSequential.medianMs} ms, its grouped count ${countsInProcess.medianMs} ms, raw GROUP BY ${rawDb.medianMs} ms on the database, ${rawHttp.medianMs} ms over HTTP`);

    const detailRun = await statisticsRun(`detail-${q.size}`, `GET /v1/statistics/:id, ${q.size} replies × 40 questions, as the admin`, `${qe}/v1/statistics/${q.id}`, auth);
    const filteredName = `detail-filtered-${q.size}`;
    const filteredDescription = `the same, role=STUDENT and grade ${grade.nameEn} (${filtered.replyCount} replies)`;
    const filteredRun = filteredSlow
      ? { name: filteredName, description: filteredDescription, skipped: `one call took ${filteredFirstMs} ms, over ${SLOW_MS} ms: timed once, not loaded` }
      : await statisticsRun(filteredName, filteredDescription, `${qe}/v1/statistics/${q.id}${filterQuery}`, auth);
    if ('skipped' in filteredRun) log(`${filteredName}: ${filteredRun.skipped}`);
    const rawRun = await statisticsRun(`raw-group-by-${q.size}`, 'bare Fastify: one select question_id, item, col, count(*) from reply_answers where questionnaire_id = ? group by question_id, item, col', `${bare}/raw/${q.id}`);

    let exported: { ms: number; bytes: number } | { skipped: string };
    const estimate = exportPerReplyMs * q.size;
    if (!exportPerReplyMs || estimate < EXPORT_BUDGET_MS) {
      const e0 = performance.now();
      const res = await fetch(`${qe}/v1/statistics/${q.id}/export`, { headers: auth });
      const bytes = (await res.arrayBuffer()).byteLength;
      const ms = Math.round(performance.now() - e0);
      if (res.status !== 200) throw new Error(`the export of questionnaire ${q.id} answered HTTP ${res.status}`);
      exportPerReplyMs = ms / q.size;
      exported = { ms, bytes };
      log(`${q.size} replies: xlsx export ${ms} ms, ${Math.round(bytes / 1024)} KiB`);
    } else {
      exported = { skipped: `estimated ${Math.round(estimate / 1000)} s from the smaller export, over the ${EXPORT_BUDGET_MS / 1000} s budget` };
      log(`${q.size} replies: xlsx export skipped (${exported.skipped})`);
    }

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

  const result = {
    date: new Date().toISOString(),
    node: process.version,
    database: databaseUrl ? 'postgres' : 'sqlite',
    connections: CONNECTIONS,
    durationSec: DURATION,
    yardstick: yardstickRun,
    questionnaires: results,
  };
  return result;
});
