import type { FastifyInstance } from 'fastify';
import type { Config } from '../../src/server/config.js';
import { testConfig } from '../support/config.js';
import { buildApp } from '../../src/server/app.js';
import type { DB } from '../../src/server/db/connect.js';
import { seedDemoSchool } from '../../src/server/demo/seed.js';
import { createTestDatabase } from '../support/database.js';

export interface TestApp {
  app: FastifyInstance;
  db: DB;
  config: Config;
  close(): Promise<void>;
}

export async function testApp(options: { demo?: boolean; config?: Partial<Config> } = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const config = testConfig(database, options.config);
  const { app, db } = await buildApp(config, { logger: false });
  if (options.demo) await seedDemoSchool(db);
  await app.ready();
  return {
    app,
    db,
    config,
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}

/** Logs in through the API and answers the token and user id. */
export async function login(app: FastifyInstance, username: string, password = 'Passw0rd!'): Promise<{ tk: string; userId: number }> {
  const res = await app.inject({ method: 'POST', url: '/v1/login', payload: { username, password } });
  const body = res.json();
  if (body.code !== 200) throw new Error(`login ${username} failed: ${res.body}`);
  return body.data;
}

export const bearer = (tk: string) => ({ authorization: `Bearer ${tk}` });
