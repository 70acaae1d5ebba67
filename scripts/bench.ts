/**
 * `npm run bench` (docs/conventions.md#tests): the real QE on loopback with 5,000 students, measured by
 * autocannon next to a bare Fastify app (the yardstick): two reads, logins (50 at once), and the
 * submission of a 30-question reply by every student at once (100 connections, each request another student);
 * then the 3,000-row student import timed.
 * Prints JSON and writes it to bench-results/bench-<timestamp>.json. No thresholds: machines are
 * noisy, so compare the ratios to the yardstick rather than the raw numbers.
 *
 * SQLite (a fresh file in a temp folder) unless DATABASE_URL is set, then a fresh PostgreSQL
 * database on that server, dropped at the end. BENCH_DURATION sets the seconds of each run (8).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import type { DB } from '../src/server/db/connect.js';
import type { NewUser } from '../src/server/db/schema.js';
import { seedDemoSchool, DEMO_PASSWORD } from '../src/server/demo/seed.js';
import { demoName } from '../src/server/demo/names.js';
import { hashPassword } from '../src/server/auth/passwords.js';
import { openSession } from '../src/server/auth/sessions.js';
import type { Config } from '../src/server/config.js';
import { QUESTION_TYPES, type Definition, type Question } from '../src/shared/questionnaire/definition.js';
import { replyProblems, type Answers } from '../src/shared/questionnaire/answers.js';
import { sampleAnswers } from '../src/shared/questionnaire/sample-answers.js';
import { seededRandom } from '../tests/support/random.js';
import { fieldLabel } from '../src/shared/master/labels.js';
import { api, cannon, DURATION, logger, loopText, median, round, runBench, summary, wanted, type RunResult, type Served } from './bench-support.js';

const STUDENTS = 5000;
const IMPORT_ROWS = 3000;
const IMPORT_RUNS = 3;
const CONNECTIONS = 10;
/** The submission run: a questionnaire of this many questions, answered over this many connections. */
const QUESTIONS = 30;
const SUBMIT_CONNECTIONS = 100;
const LIST_PATH = '/v1/students?page=7&size=50&sort=nameEn&order=asc&status=1&q=chan';

const log = logger('bench');

/**
 * Tops the demo school up to STUDENTS students: accounts, this year's classes, the STUDENT role.
 * One in eight is a Chan (Hong Kong's commonest surname), so page 7 of the q=chan search is full.
 */
async function seedStudents(db: DB): Promise<number> {
  const existing = Number((await db.selectFrom('users').select((eb) => eb.fn.countAll().as('n')).where('user_type', '=', 'STUDENT').executeTakeFirstOrThrow()).n);
  const year = await db.selectFrom('school_years').select('id').where('year_status', '=', '1').executeTakeFirstOrThrow();
  const classIds = (await db.selectFrom('classes').select('id').orderBy('id').execute()).map((c) => c.id);
  const role = await db.selectFrom('roles').select('id').where('role_code', '=', 'STUDENT').executeTakeFirstOrThrow();
  const hash = await hashPassword(DEMO_PASSWORD);
  const now = new Date().toISOString();
  const toAdd = STUDENTS - existing;
  const BATCH = 500;
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < toAdd; start += BATCH) {
      const users: NewUser[] = [];
      for (let i = start; i < Math.min(start + BATCH, toAdd); i++) {
        const n = demoName(10_000 + i);
        const chan = i % 8 === 0;
        const no = String(i + 1).padStart(5, '0');
        users.push({
          username: `bench${no}`,
          password_hash: hash,
          user_type: 'STUDENT',
          user_no: `S8${no}`,
          name_hk: chan ? `陳${n.nameHk.slice(1)}` : n.nameHk,
          name_en: chan ? n.nameEn.replace(/^\S+/, 'CHAN') : n.nameEn,
          gender: i % 2 ? 'M' : 'F',
          active: 1,
          status: '1',
          seq: existing + i + 1,
          created_at: now,
          updated_at: now,
        });
      }
      const ids = (await trx.insertInto('users').values(users).returning('id').execute()).map((r) => r.id);
      await trx.insertInto('student_classes').values(ids.map((userId, k) => {
        const i = start + k;
        return { user_id: userId, school_year_id: year.id, class_id: classIds[i % classIds.length], student_number: 100 + Math.floor(i / classIds.length) };
      })).execute();
      await trx.insertInto('user_roles').values(ids.map((userId) => ({ user_id: userId, role_id: role.id }))).execute();
    }
  });
  return existing + toAdd;
}


/** QUESTIONS questions, the ten types in turn, every one required, in three sections. */
function benchDefinition(): Definition {
  const choices = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i + 1}`, label: `${prefix.toUpperCase()} ${i + 1}` }));
  const questions: Question[] = Array.from({ length: QUESTIONS }, (_, i) => {
    const type = QUESTION_TYPES[i % QUESTION_TYPES.length];
    const q: Question = { id: `q${i + 1}`, type, title: `Question ${i + 1} (${type})`, required: true };
    if (type === 'RADIO' || type === 'DROPDOWN') q.options = choices('o', type === 'RADIO' ? 4 : 8);
    if (type === 'CHECKBOX') Object.assign(q, { options: choices('o', 6), other: true, choiceRule: { kind: 'atLeast', count: 2 } });
    if (type === 'GRID_RADIO' || type === 'GRID_CHECKBOX') Object.assign(q, { rows: choices('r', 4), columns: choices('c', 5) });
    if (type === 'LINEAR_SCALE') q.scale = { min: 1, max: 5, minLabel: 'Not at all', maxLabel: 'Very much' };
    if (type === 'SHORT_TEXT') q.textRule = { kind: 'length', min: 2, max: 50 };
    return q;
  });
  return { version: 1, sections: [0, 1, 2].map((s) => ({ id: `s${s + 1}`, title: `Part ${s + 1}`, questions: questions.slice(s * 10, s * 10 + 10) })) };
}

/** A reply to `benchDefinition` that passes every rule: every student sends this one (the same seed each run). */
function benchAnswers(definition: Definition): Answers {
  return sampleAnswers(definition, seededRandom(1).next, { other: 0.5 });
}

/**
 * Every student replies at once: a 30-question questionnaire for ALL_STUDENTS opened now, a
 * session per student, then SUBMIT_CONNECTIONS connections POSTing replies, each request the
 * next student's (scripts/bench-submission.cjs), until the students run out or the time is up.
 */
async function submissionRun(server: Served, db: DB, config: Config): Promise<RunResult & { submissionsPerSec: number; counting: { allCountedAfterMs: number; busyMsPerReply: number }; questions: number; students: number; stored: number; submitted: number }> {
  const qe = server.url;
  const { data: teacher } = await api(qe, '/v1/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'teacher01', password: DEMO_PASSWORD }) });
  const headers = { authorization: `Bearer ${teacher.tk}`, 'accept-language': 'en', 'content-type': 'application/json' };
  const definition = benchDefinition();
  const { data: created } = await api(qe, '/v1/questionnaires', {
    method: 'POST',
    headers,
    body: JSON.stringify({ title: 'Bench: every student replies', type: 'NAMED', targets: [{ kind: 'ALL_STUDENTS' }], definition, openDate: new Date(Date.now() - 60_000).toISOString(), endDate: new Date(Date.now() + 86_400_000).toISOString() }),
  });
  const t0 = performance.now();
  const { data: ready } = await api(qe, `/v1/questionnaires/${created.id}/ready`, { method: 'POST', headers: { authorization: headers.authorization } });
  if (ready.status !== 'PROCESSING') throw new Error(`the bench questionnaire is ${ready.status}, not PROCESSING`);
  const students = (await db.selectFrom('feedback').select('user_id').where('questionnaire_id', '=', created.id).orderBy('id').execute()).map((f) => f.user_id);
  log(`questionnaire ${created.id} opened for ${students.length} students in ${Math.round(performance.now() - t0)} ms`);
  const tokens: string[] = [];
  for (let i = 0; i < students.length; i += 100) tokens.push(...(await Promise.all(students.slice(i, i + 100).map((id) => openSession(db, config, id)))));
  const answers = benchAnswers(definition);
  const problems = replyProblems(definition, answers);
  if (Object.keys(problems).length) throw new Error(`the bench reply is not valid: ${JSON.stringify(problems)}`);
  const file = join(config.dataDir, 'bench-submissions.json');
  writeFileSync(file, JSON.stringify({ tokens, answers }));
  // the worker thread copies this process's environment when it starts
  process.env.QE_BENCH_SUBMISSIONS = file;

  const run = await cannon(log, 'submissions', `a ${QUESTIONS}-question reply, each request another of ${students.length} students, ${SUBMIT_CONNECTIONS} connections`, server, `/v1/my/questionnaires/${created.id}/replies`, { 'content-type': 'application/json', 'accept-language': 'en' }, {
    method: 'POST',
    connections: SUBMIT_CONNECTIONS,
    maxOverallRequests: tokens.length,
    // autocannon sees that the students ran out at its next sample: every 10 ms, not every second,
    // or a run of 1.25 s would count as 2 (at 100 ms, as 1.3: 4 % of the rate)
    sampleInt: 10,
    requests: [{ setupRequest: fileURLToPath(new URL('./bench-submission.cjs', import.meta.url)) }],
  });
  const count = async (table: 'replies' | 'feedback') => {
    let q = db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).where('questionnaire_id', '=', created.id);
    if (table === 'feedback') q = q.where('status', '=', 'SUBMITTED');
    return Number((await q.executeTakeFirstOrThrow()).n);
  };
  const countingStarted = performance.now();
  // the counting (src/server/statistics/counting.ts) waits for the submissions to pause: how long
  // after the burst (from the end of the run) every reply was counted, and what that cost QE's thread, reply by reply
  const { value: [stored, submitted], busyMs } = await server.measure(async () => {
    // requests in flight when the time ran out are still stored after autocannon let go of them: wait until all is written
    let stored = await count('replies');
    for (let before = -1; stored !== before; stored = await count('replies')) {
      before = stored;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    const uncounted = async () => Number((await db.selectFrom('replies').select((eb) => eb.fn.countAll().as('n')).where('questionnaire_id', '=', created.id).where('counted', '=', 0).executeTakeFirstOrThrow()).n);
    while ((await uncounted()) > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    return [stored, await count('feedback')];
  });
  const counting = { allCountedAfterMs: Math.round(performance.now() - countingStarted), busyMsPerReply: round(busyMs / Math.max(1, stored), 3) };
  log(`submissions: every reply counted ${counting.allCountedAfterMs} ms after the burst, ${counting.busyMsPerReply} ms of the thread a reply`);
  const ok = run.result['2xx'];
  log(`submissions: ${ok} answered 2xx in ${run.result.duration} s; ${stored} replies stored, ${submitted} feedback records SUBMITTED`);
  if (stored !== submitted || stored < ok || stored > ok + SUBMIT_CONNECTIONS) throw new Error(`${ok} submissions succeeded but ${stored} replies and ${submitted} submitted feedback records are stored`);
  const submissionsPerSec = round(ok / run.result.duration);
  return { ...summary(run), requestsPerSec: submissionsPerSec, submissionsPerSec, counting, questions: QUESTIONS, students: students.length, stored, submitted };
}

const ownPassword = (run: number, i: number) => `Own${run}-${i}x`;

/** A workbook with the template's header row and `rows` new valid students, as .xlsx bytes. */
async function importFile(template: ArrayBuffer, classCodes: string[], run: number, rows: number, ownPasswords = false): Promise<{ bytes: ArrayBuffer; header: string[] }> {
  const source = new ExcelJS.Workbook();
  await source.xlsx.load(template);
  const header = (source.worksheets[0].getRow(1).values as unknown[]).slice(1).map((v) => String(v ?? ''));
  // each header cell back to its field, through the labels the server writes the template with
  const normal = (t: string) => t.replace(/\s+/g, '').toLowerCase();
  const fields = ['code', 'username', 'password', 'nameHk', 'nameEn', 'classId', 'studentNumber', 'status'] as const;
  const col = Object.fromEntries(fields.map((f) => {
    const names = [f, fieldLabel('student', f, 'en'), fieldLabel('student', f, 'zh-hk')].map(normal);
    const i = header.findIndex((h) => names.includes(normal(h)));
    if (i < 0) throw new Error(`the template has no ${f} column: ${header.join(', ')}`);
    return [f, i];
  })) as Record<(typeof fields)[number], number>;
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('students');
  sheet.addRow(header);
  for (let i = 1; i <= rows; i++) {
    const n = demoName(50_000 + i);
    const no = String(i).padStart(5, '0');
    const cells: (string | number | null)[] = header.map(() => null);
    cells[col.code] = `S9${run}${no}`;
    cells[col.username] = `import${run}_${no}`;
    // a school's usual file: one initial password for all, or each pupil their own
    cells[col.password] = ownPasswords ? ownPassword(run, i) : DEMO_PASSWORD;
    cells[col.nameHk] = n.nameHk;
    cells[col.nameEn] = n.nameEn;
    cells[col.classId] = classCodes[i % classCodes.length];
    // a class number is one pupil's in a class and year: numbers above the seeded ones (100-499)
    cells[col.studentNumber] = 500 + Math.floor(i / classCodes.length);
    cells[col.status] = '1';
    sheet.addRow(cells);
  }
  return { bytes: (await workbook.xlsx.writeBuffer()) as ArrayBuffer, header };
}

/**
 * The student list's pages read from the database, not from the pages kept (src/server/master/kept-by-tables.ts):
 * 260 different pages of the same search (page sizes 41–60, pages 1–13), one after another on one
 * connection — more than the 200 pages kept, in a cycle, so none is found kept.
 */
async function pagesNotKept(qe: string, auth: Record<string, string>) {
  const ms: number[] = [];
  for (let i = 0; i < 260; i++) {
    const path = `/v1/students?page=${1 + (Math.floor(i / 20) % 13)}&size=${41 + (i % 20)}&sort=nameEn&order=asc&status=1&q=chan`;
    const t0 = performance.now();
    const res = await fetch(qe + path, { headers: auth });
    if (!res.ok) throw new Error(`${path} answered HTTP ${res.status}`);
    await res.arrayBuffer();
    ms.push(performance.now() - t0);
  }
  const sorted = [...ms].sort((a, b) => a - b);
  return { pages: ms.length, p50: round(sorted[Math.floor(sorted.length / 2)]), p99: round(sorted[Math.floor(sorted.length * 0.99)]) };
}

/**
 * Logins at LOGIN_CONNECTIONS at once, each another student (so no account's limit is reached),
 * for DURATION seconds: a worker thread sends them with fetch, as autocannon cannot vary the
 * body per connection, and answers each one's milliseconds. Meanwhile one connection asks for
 * user-info: what a logged-in user's calls get while the hashes fill the cores.
 */
const LOGIN_CONNECTIONS = 50;
async function loginRun(server: Served, usernames: string[], auth: Record<string, string>): Promise<RunResult & { userInfoMeanwhile: RunResult }> {
  const { Worker } = await import('node:worker_threads');
  log(`logins: ${LOGIN_CONNECTIONS} connections, ${DURATION} s`);
  const code = `
    const { parentPort, workerData: { url, usernames, password, connections, ms } } = require('node:worker_threads');
    const latencies = []; let next = 0; let failed = 0; const end = Date.now() + ms;
    async function loop() {
      while (Date.now() < end) {
        const username = usernames[next++ % usernames.length];
        const t0 = performance.now();
        const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
        const body = await res.json();
        if (body.code === 200) latencies.push(performance.now() - t0); else failed++;
      }
    }
    Promise.all(Array.from({ length: connections }, loop)).then(() => parentPort.postMessage({ latencies, failed }));
  `;
  const started = Date.now();
  const logins = new Promise<{ latencies: number[]; failed: number }>((resolve, reject) => {
    const worker = new Worker(code, { eval: true, workerData: { url: `${server.url}/v1/login`, usernames, password: DEMO_PASSWORD, connections: LOGIN_CONNECTIONS, ms: DURATION * 1000 } });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  const meanwhile = summary(await cannon(log, 'user-info-during-logins', 'the logged-in admin, one connection, while the logins run', server, '/v1/my/user-info', auth, { connections: 1 }));
  const { latencies, failed } = await logins;
  const seconds = (Date.now() - started) / 1000;
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
  return {
    name: 'logins',
    description: `POST /v1/login, ${LOGIN_CONNECTIONS} at once, each another student`,
    path: '/v1/login',
    requestsPerSec: round(latencies.length / seconds),
    latencyMs: { p50: at(0.5), p97_5: at(0.975), p99: at(0.99) },
    requests: latencies.length + failed,
    errors: 0,
    non2xx: failed,
    connections: LOGIN_CONNECTIONS,
    userInfoMeanwhile: meanwhile,
  };
}

runBench('bench', async ({ db, config, databaseUrl, serveQe, serveYardstick }) => {
  const started = Date.now();
  await seedDemoSchool(db);
  const students = await seedStudents(db);
  log(`${students} students seeded in ${Date.now() - started} ms (${databaseUrl ? 'postgres' : 'sqlite'})`);
  const server = await serveQe();
  const qe = server.url;
  const yardstick = await serveYardstick();

  const { data: session } = await api(qe, '/v1/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: DEMO_PASSWORD }) });
  const auth = { authorization: `Bearer ${session.tk}`, 'accept-language': 'en' };

  const page = await api(qe, LIST_PATH, { headers: auth });
  const pageRows = page.data?.list?.length;
  if (!Array.isArray(page.data?.list) || pageRows > 50 || typeof page.data?.total !== 'number') throw new Error(`the student list answered no page: ${JSON.stringify(page).slice(0, 500)}`);
  log(`student list: ${pageRows} rows on page 7 of ${page.data.total} matching`);
  await api(qe, '/v1/my/user-info', { headers: auth });

  const runs: RunResult[] = [summary(await cannon(log, 'yardstick', 'bare Fastify, one GET answering a small JSON', yardstick, '/hello'))];
  if (wanted('students-list')) runs.push(summary(await cannon(log, 'students-list', 'page 7 of 50 students of 5,000, sorted by nameEn, status=1, q=chan', server, LIST_PATH, auth)));
  const listNotKept = wanted('students-list') ? await pagesNotKept(qe, auth) : null;
  if (wanted('user-info')) runs.push(summary(await cannon(log, 'user-info', 'the logged-in admin, permissions and calendar', server, '/v1/my/user-info', auth)));
  const benchStudents = (await db.selectFrom('users').select('username').where('username', 'like', 'bench%').orderBy('id').limit(2000).execute()).map((u) => u.username);
  if (wanted('logins')) runs.push(await loginRun(server, benchStudents, auth));
  // before the import, which would add students to ALL_STUDENTS
  const submissions = wanted('submissions') ? await submissionRun(server, db, config) : null;
  if (submissions) runs.push(submissions);
  // the home screen after the whole school replied: an administrator's counts every running questionnaire's
  // respondents (5,000 here); a pupil's is what is left to answer
  if (wanted('dashboard')) {
    runs.push(summary(await cannon(log, 'dashboard-admin', "the administrator's home screen: the school's running questionnaires counted, latest imports", server, '/v1/my/dashboard', auth)));
    const pupil = await db.selectFrom('users').select('id').where('username', 'like', 'bench%').orderBy('id', 'desc').executeTakeFirstOrThrow();
    const pupilAuth = { authorization: `Bearer ${await openSession(db, config, pupil.id)}`, 'accept-language': 'en' };
    runs.push(summary(await cannon(log, 'dashboard-student', "a pupil's home screen: what is left to answer", server, '/v1/my/dashboard', pupilAuth)));
  }
  const base = runs[0].requestsPerSec;
  if (listNotKept) log(`students-list, pages not kept: p50 ${listNotKept.p50} ms, p99 ${listNotKept.p99} ms (${listNotKept.pages} pages one after another)`);
  // submissions: the successful ones over the run's real length (it ends early when the students run out)
  const ratios = Object.fromEntries(runs.slice(1).map((r) => [r.name, round((r === submissions ? submissions.submissionsPerSec : r.requestsPerSec) / base, 4)]));

  // the 3,000-row import: template header, class codes, then IMPORT_RUNS files of fresh students
  const runsMs: number[] = [];
  let header: string[] = [];
  const importLoop = { eventLoopMaxMs: 0, eventLoopCpuMaxMs: 0, gcMaxMs: 0 };
  if (wanted('import')) {
    const templateRes = await fetch(`${qe}/v1/students/import-template`, { headers: auth });
    if (!templateRes.ok) throw new Error(`import-template answered HTTP ${templateRes.status}`);
    const template = await templateRes.arrayBuffer();
    const classes = await api(qe, '/v1/classes?size=1000', { headers: auth });
    const classCodes = (classes.data.list as { code: string }[]).map((c) => c.code);
    if (!classCodes.length) throw new Error('no classes to place imported students in');
    for (let run = 1; run <= IMPORT_RUNS; run++) {
      // each run places its pupils in the same numbers: the previous run's leave them first (not timed)
      await db.deleteFrom('student_classes').where('student_number', '>=', 500).execute();
      const file = await importFile(template, classCodes, run, IMPORT_ROWS);
      header = file.header;
      const form = new FormData();
      form.append('file', new Blob([file.bytes], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }), 'students.xlsx');
      const t0 = performance.now();
      const { value: answer, ...measured } = await server.measure(() => api(qe, '/v1/students/import', { method: 'POST', headers: auth, body: form }), process.env.BENCH_PROFILE === `import-${run}` ? `import-${run}` : undefined);
      const ms = performance.now() - t0;
      if (answer.data?.imported !== IMPORT_ROWS) throw new Error(`import run ${run} imported ${answer.data?.imported}, not ${IMPORT_ROWS}`);
      runsMs.push(Math.round(ms));
      for (const k of ['eventLoopMaxMs', 'eventLoopCpuMaxMs', 'gcMaxMs'] as const) importLoop[k] = Math.max(importLoop[k], measured[k]);
      log(`import run ${run}: ${IMPORT_ROWS} rows in ${Math.round(ms)} ms (${Math.round(file.bytes.byteLength / 1024)} KiB), ${loopText(measured)}`);
    }
  }
  const medianMs = runsMs.length ? median(runsMs) : 0;

  // 3,000 pupils each with their own password: answered once checked, hashed as a job; the light
  // call measured while it runs, then the job followed to its end and one pupil logged in
  let ownPasswords: Record<string, unknown> | null = null;
  if (wanted('import')) {
    const run = IMPORT_RUNS + 1;
    await db.deleteFrom('student_classes').where('student_number', '>=', 500).execute();
    const templateRes = await fetch(`${qe}/v1/students/import-template`, { headers: auth });
    const classes = await api(qe, '/v1/classes?size=1000', { headers: auth });
    const file = await importFile(await templateRes.arrayBuffer(), (classes.data.list as { code: string }[]).map((c) => c.code), run, IMPORT_ROWS, true);
    const form = new FormData();
    form.append('file', new Blob([file.bytes], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }), 'students.xlsx');
    const t0 = performance.now();
    const { value: outcome, eventLoopMaxMs, eventLoopCpuMaxMs, gcMaxMs } = await server.measure(async () => {
      const answer = await api(qe, '/v1/students/import', { method: 'POST', headers: auth, body: form });
      const answeredMs = performance.now() - t0;
      if (answer.data?.job?.status !== 'running') throw new Error(`the own-password import answered no running job: ${JSON.stringify(answer).slice(0, 300)}`);
      const meanwhile = summary(await cannon(log, 'user-info-during-import', 'the logged-in admin while 3,000 passwords are hashed', server, '/v1/my/user-info', auth));
      let job = answer.data.job;
      while (job.status === 'running') {
        await new Promise((r) => setTimeout(r, 250));
        job = (await api(qe, `/v1/import-jobs/${job.id}`, { headers: auth })).data;
      }
      return { answeredMs, doneMs: performance.now() - t0, job, meanwhile };
    });
    if (outcome.job.status !== 'done' || outcome.job.added !== IMPORT_ROWS) throw new Error(`the own-password import ended ${JSON.stringify(outcome.job).slice(0, 300)}`);
    const login = await api(qe, '/v1/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: `import${run}_${String(IMPORT_ROWS).padStart(5, '0')}`, password: ownPassword(run, IMPORT_ROWS) }) });
    if (login.code !== 200) throw new Error(`an imported pupil could not log in: ${JSON.stringify(login).slice(0, 300)}`);
    ownPasswords = { rows: IMPORT_ROWS, answeredMs: Math.round(outcome.answeredMs), doneMs: Math.round(outcome.doneMs), eventLoopMaxMs, eventLoopCpuMaxMs, gcMaxMs, userInfoMeanwhile: outcome.meanwhile };
    log(`own-password import: answered in ${Math.round(outcome.answeredMs)} ms, all ${IMPORT_ROWS} hashed and written in ${Math.round(outcome.doneMs / 1000)} s, ${loopText({ eventLoopMaxMs, eventLoopCpuMaxMs, gcMaxMs })}; user-info meanwhile ${outcome.meanwhile.requestsPerSec} req/s, p99 ${outcome.meanwhile.latencyMs.p99} ms`);
  }

  const result = {
    date: new Date().toISOString(),
    node: process.version,
    database: databaseUrl ? 'postgres' : 'sqlite',
    students,
    connections: CONNECTIONS,
    durationSec: DURATION,
    runs,
    ratioToYardstick: ratios,
    studentListPagesNotKept: listNotKept,
    import: runsMs.length ? { rows: IMPORT_ROWS, columns: header, runsMs, medianMs, rowsPerSec: Math.round((IMPORT_ROWS / medianMs) * 1000), ...importLoop } : null,
    importOwnPasswords: ownPasswords,
  };
  return result;
});
