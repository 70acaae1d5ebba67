import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';

/** What a QE process answered: the HTTP status and the envelope. */
export interface Answer {
  status: number;
  body: { code: number; msg: string; data: { submittedAt?: string } | null };
}

/** A QE server process: `tsx src/server/main.ts` in a process group of its own, so kill -9 reaches the server itself (tsx runs it in a child). */
export class QeProcess {
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  private output: string[] = [];
  /** the exit code of the last process that ended (null when a signal ended it) */
  exitCode: number | null = null;

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    readonly base: string,
  ) {}

  get running() {
    return this.child !== null;
  }

  /** Starts QE and waits until it answers HTTP (at most a minute). */
  async start(args: string[] = [], { signals = false }: { signals?: boolean } = {}): Promise<void> {
    // `signals`: the server is the process itself (tsx as a loader), so a signal reaches QE alone
    // — tsx's own CLI relays one and kills its child when the child is slow to acknowledge it
    const child = signals
      ? spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts', ...args], { env: this.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn('node_modules/.bin/tsx', ['src/server/main.ts', ...args], { env: this.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    live.add(child.pid!);
    const keep = (chunk: Buffer) => {
      this.output.push(...chunk.toString().split('\n').filter(Boolean));
      this.output.splice(0, Math.max(0, this.output.length - 40));
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    let gone = false;
    this.exited = new Promise((resolve) =>
      child.once('exit', (code) => {
        this.exitCode = code;
        gone = true;
        live.delete(child.pid!);
        resolve();
      }),
    );
    for (let attempt = 0; attempt < 240; attempt++) {
      if (gone) throw new Error(`QE stopped while starting:\n${this.output.join('\n')}`);
      try {
        await call(this.base, 'GET', '/v1/no-such-route');
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    throw new Error(`QE did not answer within a minute:\n${this.output.join('\n')}`);
  }

  /** kill -9 of the whole group (tsx and the server it runs); resolves once it is gone. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = null;
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
    await this.exited;
  }

  /** A signal to the whole group, as a terminal's Ctrl-C or a service manager's stop reaches it. */
  signal(signal: NodeJS.Signals): void {
    if (this.child) process.kill(-this.child.pid!, signal);
  }

  /** Resolves once the process has exited (at most `ms`; rejects after that). */
  async waitExit(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`QE still runs ${ms} ms later:\n${this.output.join('\n')}`)), ms)));
    try {
      await Promise.race([this.exited, late]);
      this.child = null;
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Process groups still running: killed when the test process ends, whatever happened. */
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

/** One HTTP request on a connection of its own; rejects when the connection fails or dies (no answer within two minutes counts as none). */
export function call(base: string, method: string, path: string, token?: string, body?: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(`${base}${path}`, {
      method,
      agent: false,
      headers: {
        'accept-language': 'en',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
      },
    });
    req.setTimeout(120_000, () => req.destroy(new Error('no answer')));
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        try {
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) });
        } catch (e) {
          reject(e);
        }
      });
    });
    req.end(payload);
  });
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The environment of a QE process of its own on a test database, listening on a free port of loopback. */
export async function qeEnv(database: { dataDir: string; databaseUrl?: string }, secret: string, more: NodeJS.ProcessEnv = {}): Promise<NodeJS.ProcessEnv> {
  return {
    ...process.env,
    DATA_DIR: database.dataDir,
    PORT: String(await freePort()),
    HOST: '127.0.0.1',
    QE_SECRET: secret,
    LOG_LEVEL: 'warn',
    QE_CLIENT_DIR: join(database.dataDir, 'no-client'),
    DATABASE_URL: database.databaseUrl ?? '',
    ...more,
  };
}
