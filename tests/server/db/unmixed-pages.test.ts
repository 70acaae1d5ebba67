import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession } from '../../../src/server/auth/sessions.js';
import { mixAnonymousReplies } from '../../../src/server/filling/mixing.js';
import { caller } from '../master/helpers.js';
import { as, data } from '../questionnaires/helpers.js';
import { goodAnswers, newKey, opened } from '../filling/helpers.js';
import { testApp, type TestApp } from '../harness.js';

/**
 * An administrator reads SQLite's main file after a mixing round, looking for anonymous replies as
 * they arrived. A b-tree balance leaves the bytes of the cells it moved in a page's unallocated
 * space, which secure_delete does not zero (docs/security.md#anonymous-means-unlinkable): so new
 * replies wait in `unmixed_replies`, many pages of them here, and the round clears that table
 * whole. Every page it had is then free and zeroed, its root page too, and each answer lies only
 * in the pages of the mixed replies.
 */
describe.skipIf(Boolean(process.env.DATABASE_URL))('the pages anonymous replies waited in', () => {
  let t: TestApp;
  const markers: string[] = [];
  let questionnaireId = 0;

  beforeAll(async () => {
    // the app's own rounds keep away (a minute apart, the first one at start before any reply)
    t = await testApp({ demo: true, config: { schedulerSeconds: 0, anonymousMixSeconds: 60 } });
    const teacher = await as(t, 'teacher01');
    const q = await opened(teacher, [{ kind: 'ALL_STUDENTS' }], { type: 'ANONYMOUS', title: 'Long answers' });
    questionnaireId = q.id;
    const pupils = (await t.db.selectFrom('feedback').select('user_id').where('questionnaire_id', '=', q.id).execute()).map((f) => f.user_id).slice(0, 120);
    // about 800 bytes a reply, 120 replies in random key order: the waiting table splits and
    // rebalances its pages many times over
    await Promise.all(
      pupils.map(async (pupil, i) => {
        const marker = `um${i}q${crypto.randomUUID().slice(0, 8)}`;
        markers.push(marker);
        const call = caller(t.app, await openSession(t.db, t.config, pupil));
        data(await call('POST', `/v1/my/questionnaires/${q.id}/replies`, { submissionKey: newKey(), answers: { ...goodAnswers(), story: `${marker} ${'word '.repeat(140)}` } }));
      }),
    );
  }, 120_000);
  afterAll(async () => t?.close());

  it('holds every new reply apart until the round, then none', async () => {
    const waiting = () => t.db.selectFrom('unmixed_replies').select('id').where('questionnaire_id', '=', questionnaireId).execute();
    expect(await waiting()).toHaveLength(markers.length);
    const { rows: [pages] } = await sql<{ n: number }>`select count(*) as n from dbstat where name = 'unmixed_replies'`.execute(t.db);
    expect(pages.n).toBeGreaterThan(10);

    const round = await mixAnonymousReplies(t.db, t.config.anonymousMinGroup);
    expect(round).toMatchObject({ mixed: markers.length, clean: true });
    expect(await waiting()).toEqual([]);
    expect(await t.db.selectFrom('replies').select('id').where('questionnaire_id', '=', questionnaireId).execute()).toHaveLength(markers.length);
  });

  it('leaves no byte of them in the pages they waited in, nor in free pages', async () => {
    const main = readFileSync(join(t.config.dataDir, 'qe.sqlite'));
    expect(readFileSync(join(t.config.dataDir, 'qe.sqlite-wal')).length).toBe(0);
    const { rows: [{ page_size: size }] } = await sql<{ page_size: number }>`pragma page_size`.execute(t.db);
    const { rows } = await sql<{ pageno: number; name: string }>`select pageno, name from dbstat`.execute(t.db);
    const owner = new Map(rows.map((r) => [r.pageno, r.name]));

    // the table is one empty root page again: nothing in it but its header
    const { rows: [{ rootpage: root }] } = await sql<{ rootpage: number }>`select rootpage from sqlite_master where name = 'unmixed_replies'`.execute(t.db);
    expect(rows.filter((r) => r.name === 'unmixed_replies').map((r) => r.pageno)).toEqual([root]);
    const rootPage = main.subarray((root - 1) * size, root * size);
    expect(rootPage.subarray(8).every((b) => b === 0)).toBe(true);

    for (const marker of markers) {
      const needle = Buffer.from(marker);
      const places: string[] = [];
      for (let at = main.indexOf(needle); at !== -1; at = main.indexOf(needle, at + 1)) places.push(owner.get(Math.floor(at / size) + 1) ?? 'free');
      expect(places.length, marker).toBeGreaterThan(0);
      expect(places.filter((p) => p !== 'replies' && p !== 'reply_answers'), marker).toEqual([]);
    }
  });
});
