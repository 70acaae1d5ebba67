import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.js';
import { openSession } from '../../../src/server/auth/sessions.js';
import { ERRORS } from '../../../src/shared/errors.js';
import { bearer, login, testApp, type TestApp } from '../harness.js';
import { as, classStudents } from '../questionnaires/helpers.js';
import { goodAnswers, newKey, opened, storedReplies } from '../filling/helpers.js';

// A restore run on one instance holds back the writes of every instance on the same
// PostgreSQL. Pupils submitting through the second instance meanwhile are told RESTORING (759) —
// never "already submitted" with nothing stored — and a retry after logging in again is stored once.
// PostgreSQL only: on SQLite one process is the whole QE.
describe.skipIf(!process.env.DATABASE_URL)('a restore across instances (PostgreSQL)', () => {
  let t: TestApp;
  let app2: FastifyInstance;
  let dir2: string;
  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    dir2 = mkdtempSync(join(tmpdir(), 'qe-test-2-'));
    app2 = (await buildApp({ ...t.config, dataDir: dir2, storageDir: join(dir2, 'storage') }, { logger: false })).app;
    await app2.ready();
  });
  afterAll(async () => {
    await app2?.close();
    await t?.close();
    rmSync(dir2, { recursive: true, force: true });
  });

  it('tells every pupil submitting through another instance RESTORING; a retry after it is stored once', async () => {
    const teacher = await as(t, 'teacher01');
    const pupils = [...(await classStudents(t.db, '1A')), ...(await classStudents(t.db, '1B')), ...(await classStudents(t.db, '2A'))];
    expect(pupils.length).toBeGreaterThan(20);
    const q = await opened(teacher, [{ kind: 'USERS', ids: pupils }]);
    const admin = (await login(t.app, 'superadmin')).tk;
    const started = await t.app.inject({ method: 'POST', url: '/v1/backups', headers: bearer(admin), payload: {} });
    const name = started.json().data.name as string;
    while ((await t.app.inject({ method: 'GET', url: '/v1/backups/job', headers: bearer(admin) })).json().data.state === 'running') await new Promise((r) => setTimeout(r, 20));

    const tokens = new Map<number, string>();
    for (const id of pupils) tokens.set(id, await openSession(t.db, t.config, id));
    const submit = (app: FastifyInstance, id: number) =>
      app.inject({ method: 'POST', url: `/v1/my/questionnaires/${q.id}/replies`, headers: { ...bearer(tokens.get(id)!), 'accept-language': 'en' }, payload: { submissionKey: newKey(), answers: goodAnswers() } });

    let restoring = true;
    const answers: { pupil: number; status: number; code: number; body: string }[] = [];
    // pupils who may still send (not stored yet, session alive)
    const free = [...pupils];
    const traffic = (async () => {
      // from the moment the restore holds writes (its row in restore_holds): before it, on a busy
      // machine, every pupil could have sent and been stored while the copy still loaded
      while (restoring && !(await t.db.selectFrom('restore_holds').select('id').executeTakeFirst())) await new Promise((r) => setTimeout(r, 5));
      let i = 0;
      while (restoring) {
        const pupil = free[i++ % free.length];
        const res = await submit(app2, pupil);
        const code = res.json().code as number;
        answers.push({ pupil, status: res.statusCode, code, body: res.body });
        if (code !== ERRORS.RESTORING.code) free.splice(free.indexOf(pupil), 1);
        if (!free.length) break;
        await new Promise((r) => setTimeout(r, 2));
      }
    })();
    const restored = await t.app.inject({ method: 'POST', url: `/v1/backups/${name}/restore`, headers: bearer(admin), payload: { confirm: name } });
    restoring = false;
    await traffic;
    expect(restored.json(), restored.body).toMatchObject({ code: 200 });

    for (const a of answers) {
      expect(a.status, a.body).toBeLessThan(500);
      // stored before the hold (and replaced by the swap), held back, or the session ended by the restore
      expect([200, ERRORS.RESTORING.code, 401, 444], a.body).toContain(a.code);
    }
    expect(answers.filter((a) => a.code === ERRORS.ALREADY_SUBMITTED.code)).toEqual([]);
    expect(answers.some((a) => a.code === ERRORS.RESTORING.code), `no submission came during the hold: ${answers.length} answers`).toBe(true);
    // nothing half-stored: the archive had no reply
    expect(await storedReplies(t.db, q.id)).toEqual([]);

    // everyone logs in again and sends once more: each stored exactly once
    for (const id of pupils) tokens.set(id, await openSession(t.db, t.config, id));
    // the other instance opens its gate at its next look for a restore (within a poll, later on a busy
    // machine): until then it still answers RESTORING, and the pupil's retry is what stores the reply
    const untilStored = async (app: FastifyInstance, id: number) => {
      for (let tries = 0; ; tries++) {
        const res = await submit(app, id);
        if (res.json().code !== ERRORS.RESTORING.code || tries >= 200) return res;
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const again = await Promise.all(pupils.map((id, n) => untilStored(n % 2 ? app2 : t.app, id)));
    for (const res of again) expect(res.json(), res.body).toMatchObject({ code: 200 });
    const stored = await storedReplies(t.db, q.id);
    expect(stored).toHaveLength(pupils.length);
    expect(new Set(stored.map((r) => r.feedback_id)).size).toBe(pupils.length);
  });
});
