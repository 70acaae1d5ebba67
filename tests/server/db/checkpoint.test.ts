import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withCheckpointsHeld } from '../../../src/server/db/checkpoint.js';
import { scrubRewrittenRows } from '../../../src/server/db/scrub.js';
import { testApp, type TestApp } from '../harness.js';

/**
 * SQLite's log is copied into the database file by a thread of its own (db/checkpoint.ts), not on
 * the event loop at a commit: what was written reaches the file without QE's connection
 * checkpointing, the thread stays out while it is held, and the anonymity scrub truncates the log
 * while the thread is busy.
 */
describe.skipIf(Boolean(process.env.DATABASE_URL))('checkpoints on a thread of their own', () => {
  let t: TestApp;
  const file = () => join(t.config.dataDir, 'qe.sqlite');
  const inFile = (marker: string) => readFileSync(file()).includes(Buffer.from(marker));
  const write = (marker: string) => t.db.updateTable('users').set({ name_en: marker }).where('username', '=', 'student001').execute();

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
  });
  afterAll(async () => t?.close());

  it('copies a small write into the file soon, far below the connection’s own threshold', async () => {
    const marker = `ckpt${crypto.randomUUID().slice(0, 8)}`;
    await write(marker);
    expect(readFileSync(`${file()}-wal`).includes(Buffer.from(marker))).toBe(true);
    await eventually(() => inFile(marker));
  });

  it('copies a transaction’s write once it commits, however long the transaction stayed open', async () => {
    const marker = `trx${crypto.randomUUID().slice(0, 8)}`;
    await t.db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ name_en: marker }).where('username', '=', 'student002').execute();
      // several of the thread's turns with the write not yet committed
      await new Promise((resolve) => setTimeout(resolve, 500));
    });
    await eventually(() => inFile(marker));
  });

  it('copies nothing while held, and what was written meanwhile once released', async () => {
    const marker = `held${crypto.randomUUID().slice(0, 8)}`;
    await withCheckpointsHeld(t.db, async () => {
      await write(marker);
      // several of the thread's turns
      await new Promise((resolve) => setTimeout(resolve, 800));
      expect(inFile(marker)).toBe(false);
    });
    await eventually(() => inFile(marker));
  });

  it('lets the anonymity scrub truncate the log while writes keep the thread copying', async () => {
    let writing = true;
    // every user's row rewritten each time: many pages for the thread to copy and sync
    const writer = (async () => {
      for (let i = 0; writing; i++) {
        await t.db.updateTable('users').set({ name_en: `busy${i}` }).execute();
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    })();
    try {
      for (let round = 0; round < 20; round++) {
        await new Promise((resolve) => setTimeout(resolve, 20 + (round % 5) * 10));
        expect(await scrubRewrittenRows(t.db), `round ${round}`).toBe(true);
      }
    } finally {
      writing = false;
      await writer;
    }
    expect(await scrubRewrittenRows(t.db)).toBe(true);
    expect(statSync(`${file()}-wal`).size).toBe(0);
  });

  it('closes the thread’s connection before QE’s own, which leaves the file with no log beside it', async () => {
    await write(`last${crypto.randomUUID().slice(0, 8)}`);
    await t.app.close();
    expect(existsSync(`${file()}-wal`)).toBe(false);
  });
});

/** Polls `check` until it holds (every 50 ms, 20 s at most on a busy machine). */
async function eventually(check: () => boolean): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(check()).toBe(true);
}
