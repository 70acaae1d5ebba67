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
import { pageOwners, places } from '../../support/sqlite-pages.js';

/**
 * An administrator reads SQLite's main file after a mixing round, looking for anonymous replies as
 * they arrived. A b-tree balance leaves the bytes of the cells it moved in a page's unallocated
 * space, which secure_delete does not zero (docs/security.md#anonymous-means-unlinkable): so new
 * replies wait in `waiting_replies` until their batch is released, many pages of them here, and
 * each round that changes anything clears that table whole and writes back what still waits.
 * Every page it had is then free and zeroed, its root page too; a waiting reply lies only in the
 * waiting table's pages, and a released one only in the pages of the released replies.
 */
describe.skipIf(Boolean(process.env.DATABASE_URL))('the pages anonymous replies waited in', () => {
  let t: TestApp;
  const markers: string[] = [];
  let questionnaireId = 0;
  let pupils: number[] = [];
  const waiting = () => t.db.selectFrom('waiting_replies').select(['id', 'mixed']).where('questionnaire_id', '=', questionnaireId).execute();
  const released = () => t.db.selectFrom('replies').select('id').where('questionnaire_id', '=', questionnaireId).execute();

  /** Each pupil sends a reply of about 800 bytes, all at once: in random key order, so the waiting table splits and rebalances its pages many times over. */
  const send = (from: number, to: number) =>
    Promise.all(
      pupils.slice(from, to).map(async (pupil, i) => {
        const marker = `um${from + i}q${crypto.randomUUID().slice(0, 8)}`;
        markers.push(marker);
        const call = caller(t.app, await openSession(t.db, t.config, pupil));
        data(await call('POST', `/v1/my/questionnaires/${questionnaireId}/replies`, { submissionKey: newKey(), answers: { ...goodAnswers(), story: `${marker} ${'word '.repeat(140)}` } }));
      }),
    );

  /** Where each marker lies in the main file: the table or index of each page holding it ('free' for a page of none). */
  async function placesOf() {
    const main = readFileSync(join(t.config.dataDir, 'qe.sqlite'));
    expect(readFileSync(join(t.config.dataDir, 'qe.sqlite-wal')).length).toBe(0);
    const { size, pages, owner } = await pageOwners(t.db);
    return { main, size, pages, places: new Map(markers.map((marker) => [marker, places(main, marker).map(owner)])) };
  }

  beforeAll(async () => {
    // the app's own rounds keep away (a minute apart, the first one at start before any reply)
    t = await testApp({ demo: true, config: { schedulerSeconds: 0, anonymousMixSeconds: 60 } });
    const teacher = await as(t, 'teacher01');
    const q = await opened(teacher, [{ kind: 'ALL_STUDENTS' }], { type: 'ANONYMOUS', title: 'Long answers' });
    questionnaireId = q.id;
    pupils = (await t.db.selectFrom('feedback').select('user_id').where('questionnaire_id', '=', q.id).execute()).map((f) => f.user_id).slice(0, 120);
  }, 120_000);
  afterAll(async () => t?.close());

  it('keeps a batch not yet complete apart, rewritten in random order round after round, never among the released replies', async () => {
    await send(0, 60);
    expect((await waiting()).map((r) => r.mixed)).toEqual(Array(60).fill(0));
    // a batch of 1,000 is not reached: the replies wait, mixed
    expect(await mixAnonymousReplies(t.db, 1000)).toEqual({ mixed: 60, released: 0, clean: true });
    expect((await waiting()).map((r) => r.mixed)).toEqual(Array(60).fill(1));
    expect(await released()).toEqual([]);
    for (const [marker, found] of (await placesOf()).places) {
      expect(found.length, marker).toBeGreaterThan(0);
      expect(found.filter((p) => p !== 'waiting_replies'), marker).toEqual([]);
    }
    // a round with nothing new changes nothing
    expect(await mixAnonymousReplies(t.db, 1000)).toEqual({ mixed: 0, released: 0, clean: true });
    await send(60, 120);
    expect(await mixAnonymousReplies(t.db, 1000)).toEqual({ mixed: 120, released: 0, clean: true });
    expect(await released()).toEqual([]);
  });

  it('releases the batch into the replies and empties the table it waited in', async () => {
    expect(await waiting()).toHaveLength(markers.length);
    const { rows: [pages] } = await sql<{ n: number }>`select count(*) as n from dbstat where name = 'waiting_replies'`.execute(t.db);
    expect(pages.n).toBeGreaterThan(10);
    expect(await mixAnonymousReplies(t.db, t.config.anonymousMinGroup)).toEqual({ mixed: markers.length, released: markers.length, clean: true });
    expect(await waiting()).toEqual([]);
    expect(await released()).toHaveLength(markers.length);
  });

  const RELEASED_PLACES = ['replies', 'reply_answers', 'text_terms', 'text_terms_reply_idx', 'term_counts', 'term_totals', 'term_totals_top_idx'];

  it('leaves no byte of them in the pages they waited in, nor in free pages', async () => {
    const { main, size, pages, places } = await placesOf();
    // the table is one empty root page again: nothing in it but its header
    const { rows: [{ rootpage: root }] } = await sql<{ rootpage: number }>`select rootpage from sqlite_master where name = 'waiting_replies'`.execute(t.db);
    expect(pages.filter((r) => r.name === 'waiting_replies').map((r) => r.pageno)).toEqual([root]);
    expect(main.subarray((root - 1) * size, root * size).subarray(8).every((b) => b === 0)).toBe(true);
    for (const [marker, found] of places) {
      expect(found.length, marker).toBeGreaterThan(0);
      // where released replies live: the replies, their texts, and the words of those texts (statistics/terms.ts)
      expect(found.filter((p) => !RELEASED_PLACES.includes(p)), marker).toEqual([]);
    }
  });
});
