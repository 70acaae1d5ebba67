import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DB } from '../../../src/server/db/connect.js';
import { migrateToLatest } from '../../../src/server/db/migrate.js';
import { RestoreHolds } from '../../../src/server/backup/restore-hold.js';
import { WriteGate } from '../../../src/server/plugins/write-gate.js';
import { BusinessError } from '../../../src/server/plugins/errors.js';
import { createTestDatabase } from '../../support/database.js';

const until = async (what: () => boolean, ms = 5_000) => {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error('not within time');
    await new Promise((r) => setTimeout(r, 20));
  }
};

// The write hold of a restore across instances on one PostgreSQL (restore-hold.ts): the other
// instance's gate closes (isClosed, what readiness reads), its calls inside finish first, and it
// opens when the restore lets go. PostgreSQL only: on SQLite the gate alone holds.
describe.skipIf(!process.env.DATABASE_URL)('a restore hold across instances (PostgreSQL)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db1: DB;
  let db2: DB;
  beforeAll(async () => {
    database = await createTestDatabase();
    db1 = createDb(database);
    db2 = createDb(database);
    await migrateToLatest(db1);
  });
  afterAll(async () => {
    await db1?.destroy();
    await db2?.destroy();
    await database?.drop();
  });

  it('closes every instance\'s gate, waits for their calls inside, and opens them again', async () => {
    const gate1 = new WriteGate();
    const gate2 = new WriteGate();
    const one = new RestoreHolds(db1, gate1, true);
    const two = new RestoreHolds(db2, gate2, true);
    await one.start();
    await two.start();
    try {
      gate2.enter(); // a write under way on the second instance
      let held = false;
      const holding = gate1.holdEverywhere(10_000).then((release) => {
        held = true;
        return release;
      });
      await until(() => gate2.isClosed);
      expect(() => gate2.enter()).toThrow(BusinessError);
      await new Promise((r) => setTimeout(r, 600));
      expect(held).toBe(false);
      gate2.leave();
      const release = await holding;
      expect(gate1.isClosed).toBe(true);
      // a second restore meanwhile, from the other instance: refused
      await expect(gate2.holdEverywhere(1_000)).rejects.toMatchObject({ key: 'BACKUP_RUNNING' });
      await release();
      expect(gate1.isClosed).toBe(false);
      await until(() => !gate2.isClosed);
      expect(() => gate2.enter()).not.toThrow();
      gate2.leave();
    } finally {
      await one.stop();
      await two.stop();
    }
  });

  it('gives up with RESTORE_WAITED when another instance\'s call does not finish, and holds nothing', async () => {
    const gate1 = new WriteGate();
    const gate2 = new WriteGate();
    const one = new RestoreHolds(db1, gate1, true);
    const two = new RestoreHolds(db2, gate2, true);
    await one.start();
    await two.start();
    try {
      gate2.enter();
      await expect(gate1.holdEverywhere(1_000)).rejects.toMatchObject({ key: 'RESTORE_WAITED' });
      expect(gate1.isClosed).toBe(false);
      await until(() => !gate2.isClosed);
      gate2.leave();
      expect(await db1.selectFrom('restore_holds').selectAll().execute()).toEqual([]);
    } finally {
      await one.stop();
      await two.stop();
    }
  });

  it('lets go of a hold whose instance stopped beating (killed while restoring)', async () => {
    const gate2 = new WriteGate();
    await db1.insertInto('instances').values({ id: 'dead0000', started_at: 0, seen_at: Date.now() - 60_000, held_for: null }).execute();
    await db1.insertInto('restore_holds').values({ slot: 1, id: 'gone', instance_id: 'dead0000', started_at: 0 }).execute();
    const two = new RestoreHolds(db2, gate2, true);
    await two.start();
    try {
      expect(gate2.isClosed).toBe(false);
      expect(await db1.selectFrom('restore_holds').selectAll().execute()).toEqual([]);
    } finally {
      await two.stop();
    }
  });
});
