/**
 * What the bench measures of a server's thread while some work runs (scripts/bench-server.ts in
 * QE's own process, scripts/bench-support.ts for a server in the bench's): the event loop's
 * longest delay, the CPU time of its longest stretch, the garbage collector's longest pause, the
 * thread's busy milliseconds, how far the process's memory grew, and with a profile name a CPU
 * profile written to bench-results/.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance, PerformanceObserver, type EventLoopUtilization } from 'node:perf_hooks';
import { Session } from 'node:inspector/promises';

export type Measured = {
  eventLoopMaxMs: number;
  eventLoopCpuMaxMs: number;
  gcMaxMs: number;
  busyMs: number;
  /** the most the process's resident memory and its JavaScript heap with buffers grew over what they were at the start, in MB */
  memoryGrowthMb: { rss: number; heapAndBuffers: number };
  profileFile?: string;
};

const round = (n: number) => Math.round(n * 10) / 10;

/** One measurement, from its construction to stop(). */
export class Measurement {
  private readonly delay = monitorEventLoopDelay({ resolution: 10 });
  private gcMaxMs = 0;
  private readonly gc = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) this.gcMaxMs = Math.max(this.gcMaxMs, entry.duration);
  });
  private readonly busyBefore: EventLoopUtilization;
  private session: Session | null = null;
  /**
   * The most CPU time this thread spent between two ticks of a 5 ms timer: how long QE's own work
   * (and its garbage collector) held the loop, where the delay above also counts the time the
   * thread waited for a core — on 2 cores shared with zlib's and SQLite's threads, the hash
   * workers and the bench's load, tens of milliseconds.
   */
  private cpuMaxMs = 0;
  private readonly ticker: NodeJS.Timeout;
  /** memory read every fourth tick: whether a long piece of work (an export of 25,000 replies) keeps it flat */
  private readonly memoryBefore = process.memoryUsage();
  private rssMax = 0;
  private heapMax = 0;
  private ticks = 0;

  constructor(private readonly profile: string | undefined) {
    this.gc.observe({ entryTypes: ['gc'] });
    this.delay.enable();
    this.busyBefore = performance.eventLoopUtilization();
    let last = process.threadCpuUsage();
    this.ticker = setInterval(() => {
      const now = process.threadCpuUsage();
      this.cpuMaxMs = Math.max(this.cpuMaxMs, (now.user - last.user + now.system - last.system) / 1000);
      last = now;
      if (this.ticks++ % 4 === 0) this.sampleMemory();
    }, 5);
  }

  private sampleMemory() {
    const m = process.memoryUsage();
    this.rssMax = Math.max(this.rssMax, m.rss);
    this.heapMax = Math.max(this.heapMax, m.heapUsed + m.external);
  }

  async startProfile() {
    if (!this.profile) return;
    this.session = new Session();
    this.session.connect();
    await this.session.post('Profiler.enable');
    await this.session.post('Profiler.setSamplingInterval', { interval: Number(process.env.BENCH_PROFILE_INTERVAL_US) || 100 });
    await this.session.post('Profiler.start');
  }

  async stop(): Promise<Measured> {
    const busyMs = performance.eventLoopUtilization(this.busyBefore).active;
    clearInterval(this.ticker);
    this.sampleMemory();
    const before = this.memoryBefore;
    const mb = (bytes: number) => round(Math.max(0, bytes) / 1e6);
    const memoryGrowthMb = { rss: mb(this.rssMax - before.rss), heapAndBuffers: mb(this.heapMax - before.heapUsed - before.external) };
    this.delay.disable();
    this.gc.disconnect();
    let profileFile: string | undefined;
    if (this.session) {
      const { profile } = await this.session.post('Profiler.stop');
      mkdirSync('bench-results', { recursive: true });
      profileFile = join('bench-results', `${this.profile}-${new Date().toISOString().replace(/[:.]/g, '-')}.cpuprofile`);
      writeFileSync(profileFile, JSON.stringify(profile));
      this.session.disconnect();
    }
    return { eventLoopMaxMs: round(this.delay.max / 1e6), eventLoopCpuMaxMs: round(this.cpuMaxMs), gcMaxMs: round(this.gcMaxMs), busyMs: round(busyMs), memoryGrowthMb, profileFile };
  }
}

