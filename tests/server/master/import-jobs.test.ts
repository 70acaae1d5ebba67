import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldLabel } from '../../../src/shared/master/labels.js';
import { fieldMessage } from '../../../src/shared/field-messages.js';
import { JOB_PASSWORDS } from '../../../src/server/master/sheets.js';
import type { ImportJobView } from '../../../src/server/master/import-jobs.js';
import { bearer, login, testApp, type TestApp } from '../harness.js';
import { createTestDatabase } from '../../support/database.js';
import { call, QeProcess, qeEnv } from '../../support/qe-process.js';
import { caller, multipart } from './helpers.js';

/**
 * Imports whose pupils each bring their own initial password: the upload is checked
 * and answered at once with a job; the passwords are hashed afterwards; the rows are written in
 * one transaction with the job's outcome — so a class number taken meanwhile fails the job with
 * the row named and nothing written, and a `kill -9` mid-way leaves the job "interrupted" with
 * none of the file imported, while the next import goes through whole. Waits are bounded.
 */

const FIELDS = ['code', 'username', 'password', 'nameHk', 'nameEn', 'classId', 'studentNumber'];

/** `rows` new pupils of class 1A, each with a password of their own; `tag` keeps runs apart. */
async function pupilsFile(tag: string, rows: number, firstNumber: number): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('students');
  sheet.addRow(FIELDS.map((f) => fieldLabel('student', f, 'en')));
  for (let i = 0; i < rows; i++) sheet.addRow([`S${tag}${i}`, `${tag}${i}`, `Pw-${tag}-${i}`, `匯入${i}`, `Job Pupil ${tag} ${i}`, '1A', firstNumber + i]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** Polls a job until it is no longer running (at most `seconds`). */
async function settled(read: () => Promise<ImportJobView>, seconds = 180): Promise<ImportJobView> {
  for (let i = 0; i < seconds * 4; i++) {
    const job = await read();
    if (job.status !== 'running') return job;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the import job still runs after ${seconds} s`);
}

describe('an import of pupils with their own passwords runs as a job', () => {
  let t: TestApp;
  let admin: string;
  let api: ReturnType<typeof caller>;

  beforeAll(async () => {
    t = await testApp({ demo: true });
    admin = (await login(t.app, 'admin')).tk;
    api = caller(t.app, admin);
  });
  afterAll(async () => t?.close());

  const upload = (content: Buffer, lang = 'en') => {
    const { payload, headers } = multipart('students.xlsx', content);
    return t.app.inject({ method: 'POST', url: '/v1/students/import', payload, headers: { ...headers, ...bearer(admin), 'accept-language': lang } });
  };
  const job = async (id: number, as = api) => (await as('GET', `/v1/import-jobs/${id}`)).json().data as ImportJobView;
  const found = async (q: string) => (await api('GET', `/v1/students?q=${q}&size=200`)).json().data.total as number;

  it('answers once the file is checked, refuses a second import meanwhile, then writes every row and each pupil logs in with their own password', async () => {
    const rows = JOB_PASSWORDS * 4;
    const res = await upload(await pupilsFile('jobs', rows, 700));
    const answer = res.json();
    expect(answer, res.body).toMatchObject({ code: 200, data: { imported: rows, added: rows, job: { status: 'running', rows, passwords: rows } } });
    const id = answer.data.job.id as number;

    const again = await upload(await pupilsFile('other', rows, 800));
    expect(again.json()).toMatchObject({ code: 761 });
    expect(await found('Job%20Pupil%20other')).toBe(0);

    const done = await settled(() => job(id));
    expect(done).toMatchObject({ status: 'done', rows, passwords: rows, hashed: rows, added: rows, updated: 0, skipped: 0, errors: null });
    expect(await found('Job%20Pupil%20jobs')).toBe(rows);
    await login(t.app, 'jobs7', 'Pw-jobs-7');
    await expect(login(t.app, 'jobs7', 'Pw-jobs-8')).rejects.toThrow();
    expect((await api('GET', '/v1/import-jobs/latest?resource=students')).json().data).toMatchObject({ id, status: 'done' });

    // only the one who imported sees the job
    const other = caller(t.app, (await login(t.app, 'teacher01')).tk);
    expect((await other('GET', `/v1/import-jobs/${id}`)).json()).toMatchObject({ code: 404 });
    expect((await other('GET', '/v1/import-jobs/latest?resource=students')).json()).toMatchObject({ code: 200, data: null });
  }, 240_000);

  it('fails as a whole, naming the row, when a class number is given to someone else while the passwords are hashed', async () => {
    const rows = JOB_PASSWORDS * 4;
    const res = await upload(await pupilsFile('clash', rows, 900), 'zh-HK');
    const id = res.json().data.job.id as number;
    const classId = (await t.db.selectFrom('classes').select('id').where('code', '=', '1A').executeTakeFirstOrThrow()).id;
    // the pupil of the file's fourth row (spreadsheet row 5) loses their number meanwhile
    const taken = await api('POST', '/v1/students', { code: 'S99903', username: 'taker903', password: 'abc12345', nameHk: '甲', nameEn: 'Taker', classId, studentNumber: 903 });
    expect(taken.json(), taken.body).toMatchObject({ code: 201 });
    const failed = await settled(() => job(id));
    expect(failed.status).toBe('failed');
    expect(failed.errors).toEqual([`第 5 行，${fieldLabel('student', 'studentNumber', 'zh-hk')}：${fieldMessage('classNumberTaken', 'zh-hk')}`]);
    expect(await found('Job%20Pupil%20clash')).toBe(0);
  }, 240_000);
});

describe('kill -9 while an import job hashes', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let qe: QeProcess;

  beforeAll(async () => {
    database = await createTestDatabase();
    const env = await qeEnv(database, 'import-job-test-secret-0123456789ab');
    qe = new QeProcess(env, `http://127.0.0.1:${env.PORT}`);
    await qe.start(['--demo']);
  }, 180_000);

  afterAll(async () => {
    await qe?.kill();
    await database?.drop();
  }, 60_000);

  const token = async () => {
    const answer = await call(qe.base, 'POST', '/v1/login', undefined, { username: 'admin', password: 'Passw0rd!' });
    return (answer.body.data as unknown as { tk: string }).tk;
  };
  const upload = async (tk: string, content: Buffer) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(content)]), 'students.xlsx');
    const res = await fetch(`${qe.base}/v1/students/import`, { method: 'POST', headers: { ...bearer(tk), 'accept-language': 'en' }, body: form });
    return (await res.json()) as { code: number; data: { job: ImportJobView } };
  };
  const read = async (tk: string, path: string) => (await call(qe.base, 'GET', path, tk)).body.data as unknown as ImportJobView;
  const pupils = async (tk: string, q: string) => (await call(qe.base, 'GET', `/v1/students?q=${q}`, tk)).body.data as unknown as { total: number };

  it('leaves none of the file imported and says so after the restart; the file imported again goes through whole', async () => {
    const rows = 400;
    let tk = await token();
    const started = await upload(tk, await pupilsFile('killed', rows, 500));
    expect(started).toMatchObject({ code: 200, data: { job: { status: 'running', rows } } });
    const id = started.data.job.id;
    // killed once some, not all, of the passwords are hashed (the heartbeat writes the count every 2 s)
    for (let i = 0; i < 240; i++) {
      const now = await read(tk, `/v1/import-jobs/${id}`);
      if (now.hashed > 0) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const before = await read(tk, `/v1/import-jobs/${id}`);
    expect(before.status).toBe('running');
    expect(before.hashed).toBeGreaterThan(0);
    expect(before.hashed).toBeLessThan(rows);
    await qe.kill();
    await qe.start();

    tk = await token();
    const after = await settled(() => read(tk, `/v1/import-jobs/${id}`), 60);
    expect(after.status).toBe('interrupted');
    expect((await read(tk, '/v1/import-jobs/latest?resource=students')).id).toBe(id);
    expect((await pupils(tk, 'Job%20Pupil%20killed')).total).toBe(0);

    const again = await upload(tk, await pupilsFile('killed', rows, 500));
    expect(again, JSON.stringify(again)).toMatchObject({ code: 200, data: { job: { status: 'running' } } });
    const done = await settled(() => read(tk, `/v1/import-jobs/${again.data.job.id}`));
    expect(done).toMatchObject({ status: 'done', added: rows, hashed: rows });
    expect((await pupils(tk, 'Job%20Pupil%20killed')).total).toBe(rows);
    const login = await call(qe.base, 'POST', '/v1/login', undefined, { username: 'killed123', password: 'Pw-killed-123' });
    expect(login.body.code).toBe(200);
  }, 480_000);
});
