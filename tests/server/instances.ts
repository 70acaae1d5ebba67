import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../src/server/config.js';
import { buildApp } from '../../src/server/app.js';
import { testConfig } from '../support/config.js';
import { testApp, type TestApp } from './harness.js';

/** Whether the tests run on PostgreSQL: only there can several instances share one database. */
export const onPostgres = Boolean(process.env.DATABASE_URL);

/** Why a test of several instances is skipped on SQLite. */
export const SQLITE_ONE_INSTANCE = 'SQLite is one file of one server: QE runs as several instances on PostgreSQL only';

/**
 * `count` QE instances on one database, as behind a load balancer: the first a test app
 * (harness.ts), the others built on the same database with a data folder of their own and the
 * same signing secret (QE_SECRET, as every instance of one school is given). On SQLite there is
 * one instance: `apps` then holds it `count` times.
 */
export async function instances(count: number, options: { demo?: boolean; config?: Partial<Config> } = {}): Promise<TestApp & { apps: FastifyInstance[] }> {
  const first = await testApp(options);
  const apps = [first.app];
  const folders: string[] = [];
  for (let i = 1; i < count; i++) {
    if (!onPostgres) {
      apps.push(first.app);
      continue;
    }
    const dataDir = mkdtempSync(join(tmpdir(), 'qe-instance-'));
    folders.push(dataDir);
    const { app } = await buildApp(testConfig({ dataDir, databaseUrl: first.config.databaseUrl }, { ...options.config, secret: first.config.secret }), { logger: false });
    await app.ready();
    apps.push(app);
  }
  return {
    ...first,
    apps,
    close: async () => {
      for (const app of new Set(apps.slice(1))) if (app !== first.app) await app.close();
      await first.close();
      for (const dataDir of folders) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
