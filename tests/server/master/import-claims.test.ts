import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { fieldLabel } from '../../../src/shared/master/labels.js';
import { JOB_PASSWORDS } from '../../../src/server/master/sheets.js';
import { STALE_MS } from '../../../src/server/master/import-claims.js';
import type { ImportJobView } from '../../../src/server/master/import-jobs.js';
import { bearer, login } from '../harness.js';
import { instances, onPostgres } from '../instances.js';
import { multipart } from './helpers.js';

/**
 * Two imports into one list at once are never both let through: exactly one is refused with 761,
 * every time — on PostgreSQL through two instances on one database (a check-then-insert once
 * let both start in 2 of 6 tries), on SQLite two calls at once on the one app. An import whose
 * instance died (its claim's heartbeat stopped) does not block the list for ever.
 */

const FIELDS = ['code', 'username', 'password', 'nameHk', 'nameEn'];
const ROWS = JOB_PASSWORDS + 2;

/** New pupils each with a password of their own: enough to make the import a job. */
async function pupilsFile(tag: string, rows = ROWS): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('students');
  sheet.addRow(FIELDS.map((f) => fieldLabel('student', f, 'en')));
  for (let i = 0; i < rows; i++) sheet.addRow([`S${tag}x${i}`, `${tag}x${i}`, `Pw-${tag}-${i}`, `並發${i}`, `Claim ${tag} ${i}`]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe(`two imports into one list at once (${onPostgres ? 'two instances on one PostgreSQL' : 'one SQLite app'})`, () => {
  let t: Awaited<ReturnType<typeof instances>>;
  let tk: string;

  beforeAll(async () => {
    t = await instances(2, { demo: true });
    tk = (await login(t.apps[0], 'admin')).tk;
  }, 120_000);
  afterAll(async () => t?.close());

  const upload = (app: FastifyInstance, content: Buffer) => {
    const { payload, headers } = multipart('students.xlsx', content);
    return app.inject({ method: 'POST', url: '/v1/students/import', payload, headers: { ...headers, ...bearer(tk) } });
  };
  const job = async (id: number) => (await t.apps[1].inject({ method: 'GET', url: `/v1/import-jobs/${id}`, headers: bearer(tk) })).json().data as ImportJobView;
  const settled = async (id: number) => {
    for (let i = 0; i < 240; i++) {
      const view = await job(id);
      if (view.status !== 'running') return view;
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error('the import job still runs after 60 s');
  };
  const pupils = async (tag: string) => Number((await t.db.selectFrom('users').select((eb) => eb.fn.countAll().as('n')).where('username', 'like', `${tag}x%`).executeTakeFirstOrThrow()).n);

  it('refuses exactly one with 761, twelve times over, and the other writes every row', async () => {
    for (let round = 0; round < 12; round++) {
      const [a, b] = [`r${round}a`, `r${round}b`];
      const files = [await pupilsFile(a), await pupilsFile(b)];
      const answers = (await Promise.all([upload(t.apps[0], files[0]), upload(t.apps[1], files[1])])).map((r) => r.json());
      const codes = answers.map((r) => r.code).sort();
      expect(codes, JSON.stringify(answers)).toEqual([200, 761]);
      const winner = answers.findIndex((r) => r.code === 200);
      const done = await settled(answers[winner].data.job.id);
      expect(done, `round ${round}`).toMatchObject({ status: 'done', added: ROWS, errors: null });
      expect(await pupils([a, b][winner])).toBe(ROWS);
      expect(await pupils([a, b][1 - winner])).toBe(0);
    }
  }, 300_000);

  it('takes over a list whose import stopped saying it is alive (its instance died), not before', async () => {
    // a claim as a killed instance leaves it: held, its heartbeat just stopped
    await t.db.insertInto('import_claims').values({ resource: 'students', holder: 'dead-instance', heartbeat_at: Date.now() }).execute();
    expect((await upload(t.apps[1], await pupilsFile('deadwait'))).json()).toMatchObject({ code: 761 });
    await t.db.updateTable('import_claims').set({ heartbeat_at: Date.now() - STALE_MS - 1_000 }).where('resource', '=', 'students').execute();
    const answer = (await upload(t.apps[1], await pupilsFile('takeover'))).json();
    expect(answer).toMatchObject({ code: 200, data: { job: { status: 'running' } } });
    expect(await settled(answer.data.job.id)).toMatchObject({ status: 'done', added: ROWS });
    expect(await pupils('takeover')).toBe(ROWS);
    // the list is free again once the job is written
    expect(await t.db.selectFrom('import_claims').selectAll().execute()).toEqual([]);
  }, 120_000);

  it('writes nothing of a job whose claim went stale and was taken over meanwhile', async () => {
    const first = (await upload(t.apps[0], await pupilsFile('lost', JOB_PASSWORDS * 8))).json();
    expect(first).toMatchObject({ code: 200 });
    // (its 128 passwords take seconds to hash) another instance took the list over as if this job's heartbeat had stopped
    await t.db.updateTable('import_claims').set({ holder: 'another-import', heartbeat_at: Date.now() }).where('resource', '=', 'students').execute();
    expect(await settled(first.data.job.id)).toMatchObject({ status: 'failed' });
    expect(await pupils('lost')).toBe(0);
    await t.db.deleteFrom('import_claims').execute();
  }, 120_000);
});
