import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, login, testApp, type TestApp } from '../harness.js';
import { isEnvelope } from '../attack/fuzz-support.js';
import { dumpTables } from './dump.js';


// a restore while the school goes on using QE: every call answered (no 5xx, always the envelope),
// and afterwards exactly the archive's data — what was written meanwhile is replaced with it
describe('a restore during traffic', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp({ demo: true });
  });
  afterAll(async () => t?.close());

  it('answers every call meanwhile and leaves exactly the archive', async () => {
    const admin = (await login(t.app, 'superadmin')).tk;
    const call = (method: 'GET' | 'POST' | 'PUT', url: string, token: string | null, payload?: object) =>
      t.app.inject({ method, url, payload, headers: { ...(token ? bearer(token) : {}), 'accept-language': 'en' } });
    const started = await call('POST', '/v1/backups', admin, {});
    const name = started.json().data.name as string;
    while ((await call('GET', '/v1/backups/job', admin)).json().data.state === 'running') await new Promise((r) => setTimeout(r, 20));
    const expected = await dumpTables(t.db);
    const position = (await call('GET', '/v1/positions', admin)).json().data.list[0] as { id: number };
    const teacher = (await login(t.app, 'teacher04')).tk;
    const reader = (await login(t.app, 'admin')).tk;
    // changes after the backup
    await call('PUT', `/v1/positions/${position.id}`, admin, { nameEn: 'Changed before the restore' });

    let restoring = true;
    const answers: { url: string; status: number; body: string }[] = [];
    const traffic = (async () => {
      let n = 0;
      while (restoring) {
        const urls = ['/v1/school-info', '/v1/my/user-info', '/v1/students?size=50&q=chan', `/v1/positions/${position.id}`];
        const batch = await Promise.all([
          call('GET', urls[0], null),
          call('GET', urls[1], teacher),
          call('GET', urls[2], reader),
          call('PUT', urls[3], reader, { nameEn: `Written during the restore ${n++}` }),
        ]);
        batch.forEach((r, i) => answers.push({ url: urls[i], status: r.statusCode, body: r.body }));
      }
    })();
    const restored = await call('POST', `/v1/backups/${name}/restore`, admin, { confirm: name });
    restoring = false;
    await traffic;

    expect(restored.json()).toMatchObject({ code: 200 });
    expect(answers.length).toBeGreaterThan(0);
    for (const a of answers) {
      expect(a.status, `${a.url}: ${a.body}`).toBeLessThan(500);
      expect(isEnvelope(a.body), a.url).toBe(true);
    }
    // a write is saved before the swap (and replaced by it), or refused with "restoring: try again", or
    // refused because the restore ended its session — never saved after the swap
    const writes = answers.filter((a) => a.url.startsWith('/v1/positions/') && JSON.parse(a.body).code !== 200 && a.status !== 200);
    for (const w of writes) expect([759, 401, 444], w.body).toContain(JSON.parse(w.body).code);
    // the sessions of before are over: the calls with them are refused from now on
    expect([401, 444]).toContain((await call('GET', '/v1/my/user-info', teacher)).json().code);
    expect(await dumpTables(t.db)).toEqual(expected);
  });
});
