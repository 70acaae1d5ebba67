/**
 * One server of a bench run in a process of its own, as `npm start` runs QE: the bench's seeding,
 * its workbooks and autocannon's results stay in the bench's process and heap, so the event loop
 * and the garbage collector measured here are this server's alone (scripts/bench-support.ts,
 * `serveApart`). Started with fork(): `qe` builds QE on the bench's database (QE_BENCH_DATA_DIR,
 * DATABASE_URL), `yardstick` is the bare Fastify route. It answers its port, then measures on
 * request: the event loop's longest delay, the garbage collector's longest pause, the thread's
 * busy milliseconds, and with a profile name a CPU profile written to bench-results/.
 */
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { buildApp } from '../src/server/app.js';
import { testConfig } from '../tests/support/config.js';
import { Measurement, type Measured } from './bench-measure.js';

/** Measurements may nest (a run inside a longer one): each has the id the bench gave it. */
export type ToServer = { id: number; measure: 'start'; profile?: string } | { id: number; measure: 'stop' };
export type FromServer = { port: number } | { id: number; measured: Measured } | { id: number; error: string };

const send = (message: FromServer) => process.send!(message);

async function build(kind: string): Promise<FastifyInstance> {
  if (kind === 'yardstick') {
    const yardstick = Fastify({ logger: false });
    yardstick.get('/hello', async () => ({ code: 200, msg: 'ok', data: { hello: 'world' } }));
    return yardstick;
  }
  const dataDir = process.env.QE_BENCH_DATA_DIR;
  if (!dataDir) throw new Error('QE_BENCH_DATA_DIR is not set');
  return (await buildApp(testConfig({ dataDir, databaseUrl: process.env.DATABASE_URL || undefined }), { logger: false })).app;
}

async function main() {
  const app = await build(process.argv[2]);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const measurements = new Map<number, Measurement>();
  process.on('message', (message: ToServer) => {
    const answer = async (): Promise<Measured> => {
      if (message.measure === 'start') {
        const measurement = new Measurement(message.profile);
        measurements.set(message.id, measurement);
        await measurement.startProfile();
        return { eventLoopMaxMs: 0, eventLoopCpuMaxMs: 0, gcMaxMs: 0, busyMs: 0, memoryGrowthMb: { rss: 0, heapAndBuffers: 0 } };
      }
      const measurement = measurements.get(message.id);
      if (!measurement) throw new Error(`measure ${message.id}: stop without a start`);
      measurements.delete(message.id);
      return measurement.stop();
    };
    answer().then(
      (measured) => send({ id: message.id, measured }),
      (err: Error) => send({ id: message.id, error: err.stack ?? String(err) }),
    );
  });
  // the bench ends or dies: so does this server
  process.once('disconnect', () => {
    app.close().finally(() => process.exit(0));
  });
  send({ port: (app.server.address() as AddressInfo).port });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
