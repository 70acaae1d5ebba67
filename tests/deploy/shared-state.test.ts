import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldLabel } from '../../src/shared/master/labels.js';
import { JOB_PASSWORDS } from '../../src/server/master/sheets.js';
import { everyType, goodAnswers, newKey, storedReplies } from '../server/filling/helpers.js';
import { http, startCluster, type Cluster, type Instance } from './cluster.js';

/**
 * What one instance does, every other one sees at once: nothing a user can see lives in one
 * process's memory or on one instance's disk (docs/architecture.md). Each part calls the instances directly
 * (their own ports) or through the balancer, and fails with what it saw rather than waiting:
 * an uploaded image, a backup (also with the instance that made it stopped), a restore's hold on
 * writes during 200 submissions, an import running on another instance, a developer page, the
 * quick-login and login limits. The restore comes last: it ends every session.
 */
const PUPILS = 200;
// a 1×1 PNG
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

let cluster: Cluster;
let admin: string;
let superadmin: string;
let instances: Instance[];

beforeAll(async () => {
  cluster = await startCluster();
  instances = cluster.instances;
  admin = await cluster.session('admin');
  superadmin = await cluster.session('superadmin');
}, 180_000);

afterAll(async () => {
  await cluster?.close();
}, 60_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `rows` new pupils of class 1A, each with a password of their own (an import that runs as a job). */
async function pupilsFile(tag: string, rows: number, firstNumber: number): Promise<Blob> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('students');
  sheet.addRow(['code', 'username', 'password', 'nameHk', 'nameEn', 'classId', 'studentNumber'].map((f) => fieldLabel('student', f, 'en')));
  for (let i = 0; i < rows; i++) sheet.addRow([`S${tag}${i}`, `${tag}${i}`, `Pw-${tag}-${i}`, `匯入${i}`, `Deploy Pupil ${tag} ${i}`, '1A', firstNumber + i]);
  return new Blob([new Uint8Array(await workbook.xlsx.writeBuffer())]);
}

const form = (name: string, file: Blob) => {
  const f = new FormData();
  f.append('file', file, name);
  return f;
};

describe('what one instance does, the others see at once', () => {
  it('an image uploaded through the balancer is served by every instance', async () => {
    const uploaded = await http(cluster.balancer.base, 'POST', '/v1/questionnaires/images', { token: admin, form: form('dot.png', new Blob([new Uint8Array(PNG)], { type: 'image/png' })) });
    expect(uploaded.json, JSON.stringify(uploaded.json)).toMatchObject({ code: 200, data: { path: expect.any(String) } });
    for (const instance of instances) {
      const image = await http(instance.base, 'GET', `/qe/storage/${uploaded.json!.data.path}`);
      expect(image.status, instance.name).toBe(200);
      expect(image.bytes.equals(PNG), instance.name).toBe(true);
    }
  });

  it('a developer page added on one instance is in the page tree of the others at once', async () => {
    const code = `deploy${Date.now() % 100000}`;
    const menu = await http(instances[0].base, 'POST', '/v1/menus/actions/create', { token: superadmin, body: { code, system: 'QE', name: `${code} 頁`, sort: 950 } });
    expect(menu.json, JSON.stringify(menu.json)).toMatchObject({ code: 201 });
    for (const instance of instances.slice(1)) {
      const tree = await http(instance.base, 'GET', '/v1/menu-actions/actions/tree?system=QE', { token: superadmin });
      expect((tree.json!.data as { code: string }[]).map((m) => m.code), instance.name).toContain(code);
    }
  });

  it('two imports at once through two instances: one runs, the other is refused 761', async () => {
    const rows = JOB_PASSWORDS * 2;
    const [a, b] = await Promise.all([
      http(instances[1].base, 'POST', '/v1/students/import', { token: admin, form: form('students.xlsx', await pupilsFile('dpa', rows, 700)) }),
      http(instances[2].base, 'POST', '/v1/students/import', { token: admin, form: form('students.xlsx', await pupilsFile('dpb', rows, 800)) }),
    ]);
    const codes = [a.json?.code, b.json?.code].sort();
    expect(codes, JSON.stringify([a.json, b.json])).toEqual([200, 761]);
    const [accepted, where] = a.json?.code === 200 ? [a, instances[1]] : [b, instances[2]];
    const id = accepted.json!.data.job.id as number;
    for (let i = 0; i < 240; i++) {
      const job = await http(where.base, 'GET', `/v1/import-jobs/${id}`, { token: admin });
      if (job.json?.data?.status !== 'running') {
        expect(job.json).toMatchObject({ code: 200, data: { status: 'done' } });
        return;
      }
      await sleep(250);
    }
    throw new Error('the import job still runs after 60 s');
  });

  it('the quick-login limit (30 a minute from one address) counts over every instance', async () => {
    // the instances believe X-Forwarded-For from 127.0.0.1 (QE_TRUST_PROXY): an address of this test's own
    const from = { 'x-forwarded-for': '203.0.113.39' };
    const answers: number[] = [];
    for (let i = 0; i < 30; i++) answers.push((await http(instances[i % 3].base, 'POST', '/v1/quick-login', { body: { token: 'not-a-link-token' }, headers: from })).status);
    expect(answers.filter((s) => s === 429)).toEqual([]);
    for (const instance of instances) {
      const over = await http(instance.base, 'POST', '/v1/quick-login', { body: { token: 'not-a-link-token' }, headers: from });
      expect(over.status, `${instance.name} after 30 over all instances`).toBe(429);
    }
  });

  it('the login limit of an account counts over every instance', async () => {
    for (let i = 0; i < 10; i++) {
      const wrong = await http(instances[i % 3].base, 'POST', '/v1/login', { body: { username: 'teacher07', password: `wrong-${i}` } });
      expect(wrong.status, `try ${i}`).not.toBe(200);
    }
    for (const instance of instances) {
      const right = await http(instance.base, 'POST', '/v1/login', { body: { username: 'teacher07', password: 'Passw0rd!' } });
      expect(right.json, instance.name).toMatchObject({ code: 702 });
    }
  });
});

describe('backups and restore across instances', () => {
  let archive: string;
  let questionnaireId: number;
  let pupils: { id: number; token: string }[];

  it('a backup made on one instance is listed and downloaded through every instance, also with the one that made it stopped', async () => {
    // a questionnaire in the archive, for the restore below
    const ids = await cluster.db.selectFrom('users').select('id').where('user_type', '=', 'STUDENT').where('active', '=', 1).orderBy('id').limit(PUPILS).execute();
    const teacher = await cluster.session('teacher01');
    const created = await http(cluster.balancer.base, 'POST', '/v1/questionnaires', {
      token: teacher,
      body: { title: 'Deploy: restore', type: 'NAMED', targets: [{ kind: 'USERS', ids: ids.map((r) => r.id) }], definition: everyType(), openDate: new Date(Date.now() - 60_000).toISOString(), endDate: new Date(Date.now() + 86_400_000).toISOString() },
    });
    expect(created.json, JSON.stringify(created.json)).toMatchObject({ code: 201 });
    questionnaireId = created.json!.data.id;
    expect((await http(cluster.balancer.base, 'POST', `/v1/questionnaires/${questionnaireId}/ready`, { token: teacher })).json).toMatchObject({ code: 200 });

    const maker = instances[0];
    const started = await http(maker.base, 'POST', '/v1/backups', { token: superadmin, body: {} });
    expect(started.status, JSON.stringify(started.json)).toBe(202);
    let list: { name: string }[] = [];
    for (let i = 0; i < 240 && !list.length; i++) {
      await sleep(250);
      list = (await http(maker.base, 'GET', '/v1/backups', { token: superadmin })).json!.data.list;
    }
    expect(list, 'the backup was made within 60 s').toHaveLength(1);
    archive = list[0].name;
    const original = await http(maker.base, 'GET', `/v1/backups/${archive}/download`, { token: superadmin });
    expect(original.status).toBe(200);

    const everywhere = async (from: Instance[]) => {
      for (const instance of from) {
        const listed = await http(instance.base, 'GET', '/v1/backups', { token: superadmin });
        expect((listed.json!.data.list as { name: string }[]).map((b) => b.name), instance.name).toContain(archive);
        const download = await http(instance.base, 'GET', `/v1/backups/${archive}/download`, { token: superadmin });
        expect(download.status, instance.name).toBe(200);
        expect(download.bytes.equals(original.bytes), instance.name).toBe(true);
      }
      const through = await http(cluster.balancer.base, 'GET', `/v1/backups/${archive}/download`, { token: superadmin });
      expect(through.bytes.equals(original.bytes), 'through the balancer').toBe(true);
    };
    await everywhere(instances.slice(1));
    await maker.stop();
    await cluster.balancer.waitFor(maker, 'DOWN');
    try {
      await everywhere(instances.slice(1));
    } finally {
      await maker.start();
      await cluster.balancer.waitFor(maker, 'UP');
    }
  }, 180_000);

  it('a restore during 200 submissions: every pupil is told to try again (759), nothing half-stored, and each is stored after logging in again', async () => {
    expect(archive, 'the backup above was made').toBeTruthy();
    const ids = await cluster.db.selectFrom('users').select('id').where('user_type', '=', 'STUDENT').where('active', '=', 1).orderBy('id').limit(PUPILS).execute();
    pupils = [];
    for (const { id } of ids) pupils.push({ id, token: await cluster.sessionOf(id) });
    const keys = pupils.map(() => newKey());
    const submit = (i: number, token: string) => http(instances[i % 3].base, 'POST', `/v1/my/questionnaires/${questionnaireId}/replies`, { token, body: { submissionKey: keys[i], answers: { ...goodAnswers(), name: `R${i}` } } });

    const restoring = http(instances[0].base, 'POST', `/v1/backups/${archive}/restore`, { token: superadmin, body: { confirm: archive } });
    // the hold is on every instance (each one's readiness says RESTORING) before the pupils send: a
    // reply stored before an instance heard of the restore is one the restore rightly replaces
    await expect.poll(async () => (await Promise.all(instances.map(async (instance) => (await http(instance.base, 'GET', '/qe/health/ready')).json?.code))).join(), { timeout: 30_000, interval: 20 }).toBe('759,759,759');
    const first = await Promise.all(pupils.map((_, i) => submit(i, pupils[i].token).catch((e: Error) => e)));
    const restored = await restoring;
    expect(restored.json, JSON.stringify(restored.json)).toMatchObject({ code: 200 });
    const told = first.map((a) => (a instanceof Error ? a.message : a.json?.code));
    // told to try again while writes were held, or logged out by the restore's end: never stored then lost, never an error
    expect(told.filter((c) => c !== 759 && c !== 401 && c !== 444), JSON.stringify(told.slice(0, 5))).toEqual([]);
    expect(told.filter((c) => c === 759).length, 'pupils told 759').toBeGreaterThan(0);
    for (const [n, instance] of instances.entries()) expect(told.filter((c, i) => i % 3 === n && c === 759).length, `${instance.name} held writes`).toBeGreaterThan(0);

    // every instance hears within a moment that the hold is lifted (its readiness 200 again: the balancer's view)
    await expect.poll(async () => (await Promise.all(instances.map(async (instance) => (await http(instance.base, 'GET', '/qe/health/ready')).status))).join(), { timeout: 30_000, interval: 50 }).toBe('200,200,200');
    // logging in again (a new session each) and sending again under the same key stores each reply once
    const again = await Promise.all(pupils.map(async (p, i) => submit(i, await cluster.sessionOf(p.id))));
    expect(again.filter((a) => a.json?.code !== 200).map((a) => a.json).slice(0, 3)).toEqual([]);
    const feedback = await cluster.db.selectFrom('feedback').select(['status', 'submission_key']).where('questionnaire_id', '=', questionnaireId).execute();
    expect(feedback.filter((f) => f.status === 'SUBMITTED')).toHaveLength(PUPILS);
    expect(await storedReplies(cluster.db, questionnaireId)).toHaveLength(PUPILS);
  }, 180_000);
});
