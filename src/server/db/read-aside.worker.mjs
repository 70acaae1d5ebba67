// The thread of read-aside.ts: its own read-only connection to QE's SQLite file (WAL lets it read
// beside the writer), answering each compiled query's rows.
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

const db = new SQLite(workerData.file, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
db.pragma('mmap_size = 268435456');
db.pragma('cache_size = -16384');
db.pragma('temp_store = MEMORY');
const kept = new Map();

parentPort.on('message', ({ id, sql, parameters }) => {
  try {
    let statement = kept.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      kept.set(sql, statement);
      if (kept.size > 100) kept.delete(kept.keys().next().value);
    }
    parentPort.postMessage({ id, rows: statement.all(parameters) });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
