import type { CacheVersions } from '../auth/cache-versions.js';
import type { Config } from '../config.js';
import type { DB } from '../db/connect.js';
import type { ImportJobs } from './import-jobs.js';

/** What the master-data routes work with. */
export interface MasterDeps {
  db: DB;
  config: Config;
  /** imports whose passwords are hashed after the answer */
  jobs: ImportJobs;
  /** the cache counters, under which list totals and pages are kept (kept-by-tables.ts) */
  versions: CacheVersions;
}
