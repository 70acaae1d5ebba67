/**
 * `npm run bench:startup` (part of `npm run bench`): how long `npm start` takes to listen on an
 * existing database. Compiles the server as `npm run build:server` does, seeds the demo school
 * into a fresh database (migrated by the bench before), then starts `node --enable-source-maps
 * dist/node/server/main.js` on it STARTS times, one after another, and times each from the spawn
 * to the log's "Server listening" line.
 *
 * Prints JSON and writes it to bench-results/bench-startup-<timestamp>.json. No thresholds.
 * SQLite (a fresh file in a temp folder) unless DATABASE_URL is set, then a fresh PostgreSQL
 * database on that server, dropped at the end.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { seedDemoSchool } from '../src/server/demo/seed.js';
import { logger, median, round, runBench } from './bench-support.js';

const STARTS = 5;
/** A start that has not listened after this long is a failure, not a slow figure. */
const GIVE_UP_MS = 30_000;

const log = logger('bench-startup');

/** One `npm start` (as package.json runs it) on the bench's database: milliseconds until it listens. */
function timedStart(dataDir: string, databaseUrl: string | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    // no balancer to wait for: each start's SIGTERM closes at once
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', QE_DRAIN_SECONDS: '0' };
    if (databaseUrl) env.DATABASE_URL = databaseUrl;
    else delete env.DATABASE_URL;
    const child = spawn(process.execPath, ['--enable-source-maps', 'dist/node/server/main.js'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`QE did not listen within ${GIVE_UP_MS} ms: ${stderr.slice(0, 500)}`));
    }, GIVE_UP_MS);
    let listened = false;
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (listened || !line.includes('Server listening')) return;
      listened = true;
      const ms = performance.now() - t0;
      clearTimeout(timer);
      child.once('exit', () => resolve(ms));
      child.kill('SIGTERM');
    });
    child.once('exit', (code) => {
      if (listened) return;
      clearTimeout(timer);
      reject(new Error(`QE ended with ${code} before it listened: ${stderr.slice(0, 500)}`));
    });
  });
}

runBench('bench-startup', async ({ db, config, databaseUrl }) => {
  await seedDemoSchool(db);
  log('compiling the server (npm run build:server)');
  execFileSync(process.execPath, ['scripts/build-server.mjs'], { stdio: 'inherit' });
  const startsMs: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    startsMs.push(round(await timedStart(config.dataDir, databaseUrl)));
    log(`start ${i + 1}: listening after ${startsMs.at(-1)} ms`);
  }
  return {
    date: new Date().toISOString(),
    node: process.version,
    database: databaseUrl ? 'postgres' : 'sqlite',
    startsMs,
    medianMs: round(median(startsMs)),
    maxMs: Math.max(...startsMs),
  };
});
