/**
 * `npm run bench` (DESIGN.md §8): the real QE on loopback with 5,000 students, measured by
 * autocannon next to a bare Fastify app (the yardstick), and the 3,000-row student import timed.
 * Prints JSON and writes it to bench-results/bench-<timestamp>.json. No thresholds: machines are
 * noisy, so compare the ratios to the yardstick rather than the raw numbers.
 *
 * SQLite (a fresh file in a temp folder) unless DATABASE_URL is set, then a fresh PostgreSQL
 * database on that server, dropped at the end. BENCH_DURATION sets the seconds of each run (8).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import autocannon from 'autocannon';
import ExcelJS from 'exceljs';
import { loadConfig } from '../src/server/config.js';
import { buildApp } from '../src/server/app.js';
import type { DB } from '../src/server/db/connect.js';
import type { NewUser } from '../src/server/db/schema.js';
import { seedDemoSchool, DEMO_PASSWORD } from '../src/server/demo/seed.js';
import { demoName } from '../src/server/demo/names.js';
import { hashPassword } from '../src/server/auth/passwords.js';
import { fieldLabel } from '../src/shared/master/labels.js';
import { createTestDatabase } from '../tests/support/database.js';

const STUDENTS = 5000;
const IMPORT_ROWS = 3000;
const IMPORT_RUNS = 3;
const CONNECTIONS = 10;
const DURATION = Number(process.env.BENCH_DURATION) > 0 ? Number(process.env.BENCH_DURATION) : 8;
const LIST_PATH = '/v1/students?page=7&size=50&sort=nameEn&order=asc&status=1&q=chan';

const log = (message: string) => process.stderr.write(`bench: ${message}\n`);

interface RunResult {
  name: string;
  description: string;
  path: string;
  requestsPerSec: number;
  latencyMs: { p50: number; p97_5: number; p99: number };
  errors: number;
  non2xx: number;
}

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

/** One autocannon run; the load comes from a worker thread so the servers have this thread's event loop. */
async function cannon(name: string, description: string, url: string, headers: Record<string, string> = {}): Promise<RunResult> {
  log(`${name}: ${CONNECTIONS} connections, ${DURATION} s`);
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers, workers: 1 });
  return {
    name,
    description,
    path: new URL(url).pathname + new URL(url).search,
    requestsPerSec: round(r.requests.mean),
    latencyMs: { p50: r.latency.p50, p97_5: r.latency.p97_5, p99: r.latency.p99 },
    errors: r.errors,
    non2xx: r.non2xx,
  };
}

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

async function api(base: string, path: string, init: RequestInit = {}): Promise<{ code: number; msg?: string; data?: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any -- the envelope's data varies
  const res = await fetch(base + path, init);
  const body = await res.json();
  if (body.code !== 200) throw new Error(`${init.method ?? 'GET'} ${path} answered HTTP ${res.status}: ${JSON.stringify(body).slice(0, 2000)}`);
  return body;
}

/** A workbook with the template's header row and `rows` new valid students, as .xlsx bytes. */
async function importFile(template: ArrayBuffer, classCodes: string[], run: number, rows: number): Promise<{ bytes: ArrayBuffer; header: string[] }> {
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
    cells[col.password] = DEMO_PASSWORD;
    cells[col.nameHk] = n.nameHk;
    cells[col.nameEn] = n.nameEn;
    cells[col.classId] = classCodes[i % classCodes.length];
    cells[col.studentNumber] = ((i - 1) % 40) + 1;
    cells[col.status] = '1';
    sheet.addRow(cells);
  }
  return { bytes: (await workbook.xlsx.writeBuffer()) as ArrayBuffer, header };
}

async function main() {
  const started = Date.now();
  const database = await createTestDatabase();
  const config = loadConfig({}, { dataDir: database.dataDir, databaseUrl: database.databaseUrl, logLevel: 'silent', clientDir: join(database.dataDir, 'no-client') });
  const { app, db } = await buildApp(config, { logger: false }).catch(async (err) => {
    await database.drop();
    throw err;
  });
  const yardstick = Fastify({ logger: false });
  yardstick.get('/hello', async () => ({ code: 200, msg: 'ok', data: { hello: 'world' } }));
  try {
    await seedDemoSchool(db);
    const students = await seedStudents(db);
    log(`${students} students seeded in ${Date.now() - started} ms (${database.databaseUrl ? 'postgres' : 'sqlite'})`);
    const qe = await listen(app);
    const bare = await listen(yardstick);

    const { data: session } = await api(qe, '/v1/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: DEMO_PASSWORD }) });
    const auth = { authorization: `Bearer ${session.tk}`, 'accept-language': 'en' };

    const page = await api(qe, LIST_PATH, { headers: auth });
    const pageRows = page.data?.list?.length;
    if (!Array.isArray(page.data?.list) || pageRows > 50 || typeof page.data?.total !== 'number') throw new Error(`the student list answered no page: ${JSON.stringify(page).slice(0, 500)}`);
    log(`student list: ${pageRows} rows on page 7 of ${page.data.total} matching`);
    await api(qe, '/v1/my/user-info', { headers: auth });

    const runs = [
      await cannon('yardstick', 'bare Fastify, one GET answering a small JSON', `${bare}/hello`),
      await cannon('students-list', 'page 7 of 50 students of 5,000, sorted by nameEn, status=1, q=chan', qe + LIST_PATH, auth),
      await cannon('user-info', 'the logged-in admin, permissions and calendar', `${qe}/v1/my/user-info`, auth),
    ];
    const base = runs[0].requestsPerSec;
    const ratios = Object.fromEntries(runs.slice(1).map((r) => [r.name, round(r.requestsPerSec / base, 4)]));

    // the 3,000-row import: template header, class codes, then IMPORT_RUNS files of fresh students
    const templateRes = await fetch(`${qe}/v1/students/import-template`, { headers: auth });
    if (!templateRes.ok) throw new Error(`import-template answered HTTP ${templateRes.status}`);
    const template = await templateRes.arrayBuffer();
    const classes = await api(qe, '/v1/classes?size=1000', { headers: auth });
    const classCodes = (classes.data.list as { code: string }[]).map((c) => c.code);
    if (!classCodes.length) throw new Error('no classes to place imported students in');
    const runsMs: number[] = [];
    let header: string[] = [];
    for (let run = 1; run <= IMPORT_RUNS; run++) {
      const file = await importFile(template, classCodes, run, IMPORT_ROWS);
      header = file.header;
      const form = new FormData();
      form.append('file', new Blob([file.bytes], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }), 'students.xlsx');
      const t0 = performance.now();
      const answer = await api(qe, '/v1/students/import', { method: 'POST', headers: auth, body: form });
      const ms = performance.now() - t0;
      if (answer.data?.imported !== IMPORT_ROWS) throw new Error(`import run ${run} imported ${answer.data?.imported}, not ${IMPORT_ROWS}`);
      runsMs.push(Math.round(ms));
      log(`import run ${run}: ${IMPORT_ROWS} rows in ${Math.round(ms)} ms (${Math.round(file.bytes.byteLength / 1024)} KiB)`);
    }
    const medianMs = median(runsMs);

    const result = {
      date: new Date().toISOString(),
      node: process.version,
      database: database.databaseUrl ? 'postgres' : 'sqlite',
      students,
      connections: CONNECTIONS,
      durationSec: DURATION,
      runs,
      ratioToYardstick: ratios,
      import: { rows: IMPORT_ROWS, columns: header, runsMs, medianMs, rowsPerSec: Math.round((IMPORT_ROWS / medianMs) * 1000) },
    };
    const json = JSON.stringify(result, null, 2);
    process.stdout.write(json + '\n');
    mkdirSync('bench-results', { recursive: true });
    const file = join('bench-results', `bench-${result.date.replace(/[:.]/g, '-')}.json`);
    writeFileSync(file, json + '\n');
    log(`written to ${file} (${Math.round((Date.now() - started) / 1000)} s in all)`);
  } finally {
    await yardstick.close();
    await app.close();
    await database.drop();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
