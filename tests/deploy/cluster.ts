import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { openSession } from '../../src/server/auth/sessions.js';
import { readConfig } from '../../src/server/config.js';
import { openDataFolder } from '../../src/server/data-folder.js';
import { createDb, type DB } from '../../src/server/db/connect.js';
import { createTestDatabase } from '../support/database.js';
import { freePort } from '../support/qe-process.js';

/**
 * Three QE instances as a school runs them (`node dist/node/server/main.js`, built once by
 * `npm run build`) on one PostgreSQL database, each with its own data folder and port, behind a
 * real HAProxy started with the shipped deploy/haproxy.cfg (its ports changed, a stats socket
 * added so the test can see which instances the balancer has in service). Every wait is bounded;
 * every process is killed at close and when the test process ends, whatever happened.
 */

export const SECRET = 'deploy-suite-secret-0123456789abcdefghij';
/** short, so a rolling restart stays within the suite's time; longer than the checks need (inter 1 s × fall 2) */
export const DRAIN_SECONDS = 4;
const HAPROXY = '/usr/sbin/haproxy';
const MAIN = resolve('dist/node/server/main.js');

/** Process groups still running: killed when the test process ends, failed or not. */
const live = new Set<number>();
process.once('exit', () => {
  for (const pid of live) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A process in a group of its own, its last lines of output kept for a failure's message. */
class Proc {
  child: ChildProcess | null = null;
  exited: Promise<number | null> = Promise.resolve(null);
  output: string[] = [];

  spawn(command: string, args: string[], env: NodeJS.ProcessEnv) {
    const child = spawn(command, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    live.add(child.pid!);
    const keep = (chunk: Buffer) => {
      this.output.push(...chunk.toString().split('\n').filter(Boolean));
      this.output.splice(0, Math.max(0, this.output.length - 60));
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    this.exited = new Promise((done) =>
      child.once('exit', (code) => {
        live.delete(child.pid!);
        if (this.child === child) this.child = null;
        done(code);
      }),
    );
  }

  signal(signal: NodeJS.Signals) {
    if (this.child) process.kill(this.child.pid!, signal);
  }

  async kill() {
    const child = this.child;
    if (!child) return;
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
    await this.exited;
  }

  tail() {
    return this.output.join('\n');
  }
}

/** One HTTP call: status, headers and the envelope (or the bytes of a download). Rejects when no answer comes (connection died, 60 s). */
export async function http(base: string, method: string, path: string, options: { token?: string; body?: unknown; form?: FormData; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { 'accept-language': 'en', ...(options.token ? { authorization: `Bearer ${options.token}` } : {}), ...options.headers };
  let body: string | FormData | undefined;
  if (options.form) body = options.form;
  else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const res = await fetch(`${base}${path}`, { method, headers, body, signal: AbortSignal.timeout(60_000) });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, json: envelope(bytes), bytes };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Envelope = { code: number; msg: string; data: any };

function envelope(bytes: Buffer): Envelope | null {
  try {
    return JSON.parse(bytes.toString()) as Envelope;
  } catch {
    return null; // a download or a static file
  }
}

export class Instance {
  readonly proc = new Proc();
  readonly base: string;

  constructor(
    readonly name: string,
    readonly port: number,
    readonly env: NodeJS.ProcessEnv,
  ) {
    this.base = `http://127.0.0.1:${port}`;
  }

  get running() {
    return this.proc.child !== null;
  }

  /** Starts the built server and waits until its readiness answers 200 (at most 90 s). */
  async start(args: string[] = []) {
    this.proc.spawn(process.execPath, [MAIN, ...args], this.env);
    let gone = false;
    void this.proc.exited.then(() => (gone = true));
    for (let i = 0; i < 360; i++) {
      if (gone) throw new Error(`${this.name} stopped while starting:\n${this.proc.tail()}`);
      const ready = await http(this.base, 'GET', '/qe/health/ready').catch(() => null);
      if (ready?.status === 200) return;
      await sleep(250);
    }
    throw new Error(`${this.name} was not ready within 90 s:\n${this.proc.tail()}`);
  }

  /** SIGTERM as a service manager sends it: resolves with the exit code (the drain and close take at most 60 s). */
  async stop(): Promise<number | null> {
    this.proc.signal('SIGTERM');
    const code = await Promise.race([this.proc.exited, sleep(60_000).then(() => 'late' as const)]);
    if (code === 'late') throw new Error(`${this.name} did not exit within 60 s of SIGTERM:\n${this.proc.tail()}`);
    return code;
  }

  kill() {
    return this.proc.kill();
  }
}

export class Balancer {
  readonly proc = new Proc();
  readonly base: string;
  readonly socket: string;

  constructor(
    readonly port: number,
    readonly folder: string,
    readonly instances: Instance[],
  ) {
    this.base = `http://127.0.0.1:${port}`;
    this.socket = join(folder, 'haproxy.sock');
  }

  /** The shipped configuration, with this run's ports and a stats socket for the test to read. */
  config(): string {
    let text = readFileSync(resolve('deploy/haproxy.cfg'), 'utf8');
    const replace = (from: RegExp, to: string) => {
      if (!from.test(text)) throw new Error(`deploy/haproxy.cfg no longer has ${String(from)}: the deploy suite templates it`);
      text = text.replace(from, to);
    };
    replace(/^(\s*)bind :8080$/m, `$1bind 127.0.0.1:${this.port}`);
    this.instances.forEach((instance, i) => replace(new RegExp(`127\\.0\\.0\\.1:${8081 + i}$`, 'm'), `127.0.0.1:${instance.port}`));
    replace(/^global$/m, `global\n    stats socket ${this.socket} mode 600 level admin`);
    return text;
  }

  async start() {
    const file = join(this.folder, 'haproxy.cfg');
    writeFileSync(file, this.config());
    this.proc.spawn(HAPROXY, ['-db', '-f', file], process.env);
    for (let i = 0; i < 120 && !existsSync(this.socket); i++) {
      if (!this.proc.child) break;
      await sleep(250);
    }
    if (!existsSync(this.socket)) throw new Error(`HAProxy did not start:\n${this.proc.tail()}`);
  }

  /** `show stat` on the stats socket: a row of CSV columns per frontend, server and backend. */
  private async stat(): Promise<string[][]> {
    const text = await new Promise<string>((done, fail) => {
      const chunks: Buffer[] = [];
      const s = connect(this.socket, () => s.end('show stat\n'));
      s.on('data', (c: Buffer) => chunks.push(c));
      s.on('end', () => done(Buffer.concat(chunks).toString()));
      s.on('error', fail);
    });
    return text.split('\n').filter((l) => l.startsWith('qe,')).map((l) => l.split(','));
  }

  /** The balancer's view of each instance: UP, DOWN, MAINT… */
  async states(): Promise<Record<string, string>> {
    return Object.fromEntries((await this.stat()).filter((c) => c[1].startsWith('qe')).map((c) => [c[1], c[17]]));
  }

  /** How many times the balancer sent a call again (retries and redispatches, columns wretr and wredis). */
  async resent(): Promise<number> {
    const backend = (await this.stat()).find((c) => c[1] === 'BACKEND');
    return backend ? Number(backend[15]) + Number(backend[16]) : 0;
  }

  /** Waits (at most 60 s) until the balancer sees the instance `state` ("UP" or "DOWN"). */
  async waitFor(instance: Instance, state: 'UP' | 'DOWN') {
    let seen: Record<string, string> = {};
    for (let i = 0; i < 240; i++) {
      seen = await this.states();
      if (seen[instance.name]?.startsWith(state)) return;
      await sleep(250);
    }
    throw new Error(`HAProxy did not see ${instance.name} ${state} within 60 s: ${JSON.stringify(seen)}`);
  }
}

export interface Cluster {
  instances: Instance[];
  balancer: Balancer;
  /** the database itself, for counting rows and opening sessions as QE does */
  db: DB;
  databaseUrl: string;
  /** a session for a user, opened as QE's login opens one (logging 200 pupils in would hash 200 passwords) */
  session(username: string): Promise<string>;
  sessionOf(userId: number): Promise<string>;
  close(): Promise<void>;
}

/** Three instances (the first loads the demo school), HAProxy in front, every instance in service. */
export async function startCluster(): Promise<Cluster> {
  if (!process.env.DATABASE_URL) throw new Error('the deploy suite needs PostgreSQL: set DATABASE_URL (several instances share one PostgreSQL)');
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run npm run build first`);
  if (!existsSync(HAPROXY)) throw new Error(`${HAPROXY} is missing: install Debian's haproxy package`);
  const database = await createTestDatabase();
  const instances: Instance[] = [];
  let balancer: Balancer | undefined;
  let db: DB | undefined;
  const close = async () => {
    await Promise.all([...instances.map((i) => i.kill()), balancer?.proc.kill()]);
    await db?.destroy();
    await database.drop();
  };
  try {
    for (const n of [1, 2, 3]) {
      const dataDir = join(database.dataDir, `qe${n}`);
      mkdirSync(dataDir);
      const port = await freePort();
      instances.push(
        new Instance(`qe${n}`, port, {
          ...process.env,
          DATA_DIR: dataDir,
          PORT: String(port),
          HOST: '127.0.0.1',
          DATABASE_URL: database.databaseUrl!,
          QE_SECRET: SECRET,
          QE_TRUST_PROXY: '127.0.0.1',
          QE_DRAIN_SECONDS: String(DRAIN_SECONDS),
          QE_CLIENT_DIR: resolve('dist/client'),
          LOG_LEVEL: 'warn',
        }),
      );
    }
    // the demo school once, by the first; the others start on the database it made
    await instances[0].start(['--demo']);
    await Promise.all(instances.slice(1).map((i) => i.start()));
    balancer = new Balancer(await freePort(), database.dataDir, instances);
    await balancer.start();
    for (const instance of instances) await balancer.waitFor(instance, 'UP');
    const config = openDataFolder(readConfig(instances[0].env));
    db = createDb(config);
    const opened = db;
    const sessionOf = (userId: number) => openSession(opened, config, userId);
    return {
      instances,
      balancer,
      db,
      databaseUrl: database.databaseUrl!,
      sessionOf,
      session: async (username) => sessionOf((await opened.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
