// The thread of checkpoint.ts: its own connection to QE's SQLite file, copying what the
// write-ahead log holds into the database file (and syncing it) while the server writes on.
import { parentPort, workerData } from 'node:worker_threads';
import { clearInterval, setInterval } from 'node:timers';
import SQLite from 'better-sqlite3';

const db = new SQLite(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
const timer = setInterval(() => {
  try {
    // PASSIVE: never waits for the writer nor for readers; what it cannot copy now it copies next time
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // a busy file or a file being replaced: the next turn tries again
  }
}, workerData.everyMs);
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
