import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Page } from 'playwright-core';
import { readConfig, type Config } from '../../src/server/config.js';
import { openDataFolder } from '../../src/server/data-folder.js';
import { buildApp } from '../../src/server/app.js';
import { seedDemoSchool } from '../../src/server/demo/seed.js';
import { createTestDatabase } from '../support/database.js';

type Envelope<T> = { code: number; msg: string; data: T };

/**
 * A QE of a test file's own — the built client, the demo school, a fresh database — for what
 * would disturb the shared one of the other e2e files: no Google settings, a roll-over that
 * changes the current year, a restore that ends every session.
 */
export interface OwnQe {
  base: string;
  dataDir: string;
  config: Config;
  at(path: string): string;
  /** an API call as a script makes it */
  api<T = unknown>(path: string, token: string | null, method?: string, body?: unknown): Promise<Envelope<T>>;
  token(username: string, password?: string): Promise<string>;
  loginAs(page: Page, username: string, password?: string): Promise<void>;
  close(): Promise<void>;
}

/** `demo: false`: an empty database, as a school's first start finds it (/qe/init). */
export async function startOwnQe(overrides: Partial<Config> = {}, { demo = true }: { demo?: boolean } = {}): Promise<OwnQe> {
  const database = await createTestDatabase();
  const config = openDataFolder(readConfig({}, { dataDir: database.dataDir, databaseUrl: database.databaseUrl, clientDir: resolve('dist/client'), logLevel: 'warn', host: '127.0.0.1', port: 0, ...overrides }));
  const built = await buildApp(config, { logger: false });
  const app: FastifyInstance = built.app;
  if (demo) await seedDemoSchool(built.db);
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const at = (path: string) => `${base}/qe${path}`;
  const api = async <T>(path: string, token: string | null, method = 'GET', body?: unknown) => {
    const res = await fetch(`${base}${path}`, { method, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
    return (await res.json()) as Envelope<T>;
  };
  return {
    base,
    dataDir: database.dataDir,
    config,
    at,
    api,
    token: async (username, password = 'Passw0rd!') => (await api<{ tk: string }>('/v1/login', null, 'POST', { username, password })).data.tk,
    loginAs: async (page, username, password = 'Passw0rd!') => {
      await page.goto(at('/login'));
      // the staff-edit-personal question asked once after login is not what these journeys are about
      await page.evaluate(() => localStorage.setItem('qe-staff-edit-personal', '1'));
      await page.getByTestId('login-username').fill(username);
      await page.getByTestId('login-password').fill(password);
      await page.getByTestId('login-submit').click();
      await page.getByTestId('welcome').waitFor();
    },
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}
