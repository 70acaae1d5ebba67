// The thread of checkpoint.ts: its own connection to QE's SQLite file, copying what the
// write-ahead log holds into the database file (with the file's sync) while the server writes on.
import { parentPort, workerData } from 'node:worker_threads';
import { clearInterval, setInterval } from 'node:timers';
import SQLite from 'better-sqlite3';

const { file, everyMs, idleMs, shared } = workerData;
// the words of `shared` (checkpoint.ts): the state and the server's count of writes
const STATE = 0;
const WRITES = 1;
const CLOSED = 2;
const FREE = 0;
const CHECKPOINTING = 1;

const db = new SQLite(file, { fileMustExist: true });
let seen = -1;
/** turns still to checkpoint: two after each change seen, as the write that moved the count may commit just after it */
let due = 0;
let lastWrite = Date.now();

const timer = setInterval(() => {
  const writes = Atomics.load(shared, WRITES);
  if (writes !== seen) {
    seen = writes;
    due = 2;
    lastWrite = Date.now();
  }
  if (due === 0) {
    if (Date.now() - lastWrite > idleMs) end();
    return;
  }
  // the server holds the thread (the anonymity scrub truncates the log itself): the next turn tries again
  if (Atomics.compareExchange(shared, STATE, FREE, CHECKPOINTING) !== FREE) return;
  try {
    // PASSIVE: never waits for the writer nor for readers; what it cannot copy now it copies next time
    const [result] = db.pragma('wal_checkpoint(PASSIVE)');
    if (result && result.busy === 0 && result.log === result.checkpointed) due--;
  } catch {
    // a busy or replaced file: the next turn tries again
  } finally {
    Atomics.store(shared, STATE, FREE);
  }
}, everyMs);

let ended = false;
function end() {
  if (ended) return;
  ended = true;
  clearInterval(timer);
  try {
    db.close();
  } finally {
    Atomics.store(shared, CLOSED, 1);
    Atomics.notify(shared, CLOSED);
    parentPort.close();
  }
}

parentPort.on('message', (message) => {
  if (message === 'stop') end();
});
