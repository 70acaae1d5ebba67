import { join } from 'node:path';
import { readConfig, type Config } from '../../src/server/config.js';
import { openDataFolder } from '../../src/server/data-folder.js';

/**
 * QE's settings for a test's database (createTestDatabase): quiet logs, no built client, the data
 * folder made ready as QE's start makes it; `overrides` as the test needs. The environment of the
 * machine running the tests is not read.
 */
export function testConfig(database: { dataDir: string; databaseUrl?: string }, overrides: Partial<Config> = {}): Config {
  return openDataFolder(readConfig({}, { dataDir: database.dataDir, databaseUrl: database.databaseUrl, logLevel: 'silent', clientDir: join(database.dataDir, 'no-client'), ...overrides }));
}
