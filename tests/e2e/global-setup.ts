import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../../src/server/config.js';
import { buildApp } from '../../src/server/app.js';
import { seedDemoSchool } from '../../src/server/demo/seed.js';
import { createTestDatabase } from '../support/database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

/** Starts QE (built client, demo school, fresh database) on a free loopback port for the whole e2e run. */
export default async function setup(project: TestProject) {
  const clientDir = resolve('dist/client');
  if (!existsSync(resolve(clientDir, 'index.html'))) throw new Error('no built client: run "npm run build" (npm run test:e2e does)');
  const database = await createTestDatabase();
  const config = loadConfig({}, { dataDir: database.dataDir, databaseUrl: database.databaseUrl, clientDir, logLevel: 'warn', host: '127.0.0.1', port: 0 });
  const { app, db } = await buildApp(config, { logger: false });
  await seedDemoSchool(db);
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  project.provide('baseUrl', address);
  return async () => {
    await app.close();
    await database.drop();
  };
}
