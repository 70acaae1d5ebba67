// A restore in a process of its own, frozen at a point and killed there by restore-kill.test.ts:
// what kill -9 leaves is what this process had made up to that point.
import { join } from 'node:path';
import { createDb } from '../../../src/server/db/connect.js';
import { restoreArchive } from '../../../src/server/backup/restore.js';
import { writeBackup } from '../../../src/server/backup/write.js';
import { RestoreHolds } from '../../../src/server/backup/restore-hold.js';
import { WriteGate } from '../../../src/server/plugins/write-gate.js';
import type { Config } from '../../../src/server/config.js';

const config = JSON.parse(process.env.QE_CHILD_CONFIG!) as Config;
const stopAt = process.env.QE_STOP_AT;
const db = createDb(config);
const gate = new WriteGate();
const holds = new RestoreHolds(db, gate, Boolean(config.databaseUrl));
await holds.start();
const freeze = (marker: string) => {
  process.stdout.write(`${marker}\n`);
  // the whole process stops here (no heartbeat either) until the kill
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 120_000);
};
let loaded = 0;
if (stopAt === 'backup') {
  // a backup killed while it writes: its .partial file stays
  // a few tables in: the file is open and written to by then (a first page can come before its open)
  let pages = 0;
  await writeBackup(config, join(config.dataDir, 'backups', 'qe-20261124-030405.qe.zip'), { onProgress: ({ done }) => done > 0 && ++pages === 4 && freeze('STOPPED') });
}
await restoreArchive(db, config, process.env.QE_ARCHIVE!, {
  passphrase: process.env.QE_PASSPHRASE,
  instanceId: holds.instanceId,
  onProgress: () => {
    if (stopAt === 'load' && ++loaded === 2) freeze('STOPPED');
  },
  holdWrites: async () => {
    const release = await gate.holdEverywhere(60_000);
    if (stopAt === 'hold') freeze('STOPPED');
    return release;
  },
});
process.stdout.write('FINISHED\n');
process.exit(0);
