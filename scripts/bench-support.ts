/**
 * What the bench scripts share (scripts/bench.ts, scripts/bench-statistics.ts, …): a fresh
 * database, QE and a bare Fastify app (the yardstick) each served in a process of its own and
 * measured there (scripts/bench-server.ts), autocannon runs, timing, the API's envelope, and the
 * JSON results file. The bench's own work — seeding, building workbooks, reading results — stays
 * in this process, so its garbage and its turns are not counted against QE's event loop.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import autocannon from 'autocannon';
import type { Config } from '../src/server/config.js';
import { testConfig } from '../tests/support/config.js';
import { buildApp } from '../src/server/app.js';
import type { DB } from '../src/server/db/connect.js';
import { createTestDatabase } from '../tests/support/database.js';
import type { FromServer, ToServer } from './bench-server.js';
import { Measurement, type Measured as ServerMeasured } from './bench-measure.js';

/** Seconds of each autocannon run (BENCH_DURATION, default 8). */
export const DURATION = Number(process.env.BENCH_DURATION) > 0 ? Number(process.env.BENCH_DURATION) : 8;

export const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

export const logger = (name: string) => (message: string) => process.stderr.write(`${name}: ${message}\n`);

export interface RunResult {
  name: string;
  description: string;
  path: string;
  requestsPerSec: number;
  latencyMs: { p50: number; p97_5: number; p99: number };
  requests: number;
  errors: number;
  non2xx: number;
  connections: number;
  /** the longest the server's event loop was held during the run (perf_hooks.monitorEventLoopDelay) */
  eventLoopMaxMs?: number;
  /** the most CPU time the server's thread spent without letting its loop turn (scripts/bench-measure.ts) */
  eventLoopCpuMaxMs?: number;
  /** the longest pause of the server's garbage collector during the run (PerformanceObserver 'gc') */
  gcMaxMs?: number;
  /**
   * the servers' thread's busy milliseconds per answered request during the run
   * (performance.eventLoopUtilization): what a request costs the one thread, far steadier than
   * requests/s on a shared machine
   */
  busyMsPerRequest?: number;
}

/** BENCH_ONLY=students-list,user-info runs only the named runs (and the yardstick); empty runs all. */
export const wanted = (name: string) => {
  const only = (process.env.BENCH_ONLY ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  return only.length === 0 || only.includes(name);
};

/** What a piece of work cost a server's thread (scripts/bench-server.ts measures it where it runs). */
export type Measured<T> = { value: T } & Omit<ServerMeasured, 'profileFile'>;

/**
 * A server of the bench on loopback: its address, and `measure`, which runs some work (a load, a
 * call) and answers the longest delay of that server's event loop meanwhile, its garbage
 * collector's longest pause, and its thread's busy milliseconds; with `profile` a CPU profile of
 * the server is written to bench-results/.
 */
export interface Served {
  url: string;
  measure<T>(work: () => Promise<T>, profile?: string): Promise<Measured<T>>;
}

/**
 * A server in a process of its own (scripts/bench-server.ts), as `npm start` runs QE: `qe` on the
 * bench's database, or `yardstick`. It ends with the bench.
 */
function serveApart(kind: 'qe' | 'yardstick', database: { dataDir: string; databaseUrl?: string }, children: ChildProcess[]): Promise<Served> {
  // fork() passes on this process's Node options: tsx's loader among them
  const child = fork(fileURLToPath(new URL('./bench-server.ts', import.meta.url)), [kind], {
    env: { ...process.env, QE_BENCH_DATA_DIR: database.dataDir, DATABASE_URL: database.databaseUrl ?? '' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.push(child);
  let nextId = 1;
  const waiting = new Map<number, { resolve: (m: ServerMeasured) => void; reject: (e: Error) => void }>();
  const ask = (message: ToServer) =>
    new Promise<ServerMeasured>((resolve, reject) => {
      waiting.set(message.id, { resolve, reject });
      child.send(message);
    });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      const err = new Error(`the bench's ${kind} server ended (exit code ${code})`);
      reject(err);
      for (const w of waiting.values()) w.reject(err);
    });
    child.on('message', (message: FromServer) => {
      if ('port' in message) {
        resolve({
          url: `http://127.0.0.1:${message.port}`,
          async measure(work, profile) {
            const id = nextId++;
            await ask({ id, measure: 'start', profile });
            const value = await work();
            const { profileFile, ...measured } = await ask({ id, measure: 'stop' });
            if (profileFile) process.stderr.write(`${kind}: CPU profile written to ${profileFile}\n`);
            return { value, ...measured };
          },
        });
        return;
      }
      const w = waiting.get(message.id);
      waiting.delete(message.id);
      if ('error' in message) w?.reject(new Error(message.error));
      else w?.resolve(message.measured);
    });
  });
}

/**
 * A server in this process (the attack bench's QE, which it calls in process as well; the
 * statistics bench's raw GROUP BY): measured here, so the bench's own work and garbage count too.
 */
export async function serveInProcess(app: FastifyInstance): Promise<Served> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    async measure(work, profile) {
      const measurement = new Measurement(profile);
      await measurement.startProfile();
      const value = await work();
      const { profileFile, ...measured } = await measurement.stop();
      if (profileFile) process.stderr.write(`CPU profile written to ${profileFile}\n`);
      return { value, ...measured };
    },
  };
}

/** One autocannon run against `server`; the load comes from a worker thread, and the server is measured where it runs. */
export async function cannon(log: (m: string) => void, name: string, description: string, server: Served, path: string, headers: Record<string, string> = {}, more: autocannon.Options | object = {}): Promise<RunResult & { result: autocannon.Result }> {
  const url = server.url + path;
  const options: autocannon.Options = { url, connections: 10, duration: DURATION, headers, workers: 1, ...more };
  log(`${name}: ${options.connections} connections, ${DURATION} s`);
  const profile = process.env.BENCH_PROFILE === name ? name : undefined;
  const { value: r, eventLoopMaxMs, eventLoopCpuMaxMs, gcMaxMs, busyMs } = await server.measure(() => autocannon(options), profile);
  const busyMsPerRequest = round(busyMs / Math.max(1, r['2xx']), 3);
  // autocannon counts requests per sample interval (a second unless the run says otherwise)
  const requestsPerSec = round((r.requests.mean * 1000) / (options.sampleInt ?? 1000));
  log(`${name}: ${requestsPerSec} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, ${loopText({ eventLoopMaxMs, eventLoopCpuMaxMs, gcMaxMs })}, ${busyMsPerRequest} ms of the thread a request`);
  return {
    name,
    description,
    path,
    requestsPerSec,
    latencyMs: { p50: r.latency.p50, p97_5: r.latency.p97_5, p99: r.latency.p99 },
    requests: r.requests.total,
    errors: r.errors,
    non2xx: r.non2xx,
    connections: options.connections!,
    eventLoopMaxMs,
    eventLoopCpuMaxMs,
    gcMaxMs,
    busyMsPerRequest,
    result: r,
  };
}

/** A measurement's event-loop figures for the log. */
export const loopText = (m: { eventLoopMaxMs: number; eventLoopCpuMaxMs: number; gcMaxMs: number }) =>
  `event loop max ${m.eventLoopMaxMs} ms (${m.eventLoopCpuMaxMs} ms of it at most on the CPU, longest GC pause ${m.gcMaxMs} ms)`;

/** A run without autocannon's raw result, for the JSON. */
export const summary = ({ result: _result, ...run }: RunResult & { result: autocannon.Result }): RunResult => run;

/** `count` calls one after another: each one's milliseconds and their median. */
export async function timed(count: number, call: () => Promise<unknown>): Promise<{ medianMs: number; runsMs: number[] }> {
  const runsMs: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await call();
    runsMs.push(round(performance.now() - t0));
  }
  return { medianMs: round(median(runsMs)), runsMs };
}

/** A call of the API that must succeed: the envelope, or an error naming the answer. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the envelope's data varies
export async function api(base: string, path: string, init: RequestInit = {}): Promise<{ code: number; msg?: string; data?: any }> {
  const res = await fetch(base + path, init);
  const body = await res.json();
  if (body.code !== 200 && body.code !== 201) throw new Error(`${init.method ?? 'GET'} ${path} answered HTTP ${res.status}: ${JSON.stringify(body).slice(0, 2000)}`);
  return body;
}

export interface Bench {
  /** QE in this process, not listening: for seeding through its database and for calls in process */
  app: FastifyInstance;
  db: DB;
  config: Config;
  databaseUrl: string | undefined;
  /** QE on this database in a process of its own, as `npm start` runs it */
  serveQe(): Promise<Served>;
  /** a bare Fastify app answering GET /hello, in a process of its own: the yardstick */
  serveYardstick(): Promise<Served>;
}

/**
 * Runs `body` with the real app on a fresh database (SQLite in a temp folder, or a fresh
 * PostgreSQL database when DATABASE_URL is set), dropped afterwards; then writes its result to
 * stdout and to bench-results/<name>-<timestamp>.json and exits.
 */
export function runBench(name: string, body: (bench: Bench) => Promise<{ date: string } & Record<string, unknown>>): void {
  const log = logger(name);
  const main = async () => {
    const started = Date.now();
    const database = await createTestDatabase();
    const config = testConfig(database);
    const { app, db } = await buildApp(config, { logger: false }).catch(async (err) => {
      await database.drop();
      throw err;
    });
    const children: ChildProcess[] = [];
    try {
      const result = await body({
        app,
        db,
        config,
        databaseUrl: database.databaseUrl,
        serveQe: () => serveApart('qe', database, children),
        serveYardstick: () => serveApart('yardstick', database, children),
      });
      const json = JSON.stringify(result, null, 2);
      process.stdout.write(json + '\n');
      mkdirSync('bench-results', { recursive: true });
      const file = join('bench-results', `${name}-${result.date.replace(/[:.]/g, '-')}.json`);
      writeFileSync(file, json + '\n');
      log(`written to ${file} (${Math.round((Date.now() - started) / 1000)} s in all)`);
    } finally {
      for (const child of children) child.kill();
      await app.close();
      // BENCH_KEEP=1 leaves the database for a look at its queries afterwards
      if (process.env.BENCH_KEEP === '1') log(`kept: ${database.databaseUrl ?? join(database.dataDir, 'qe.sqlite')}`);
      else await database.drop();
    }
  };
  main().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
