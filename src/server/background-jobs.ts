import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import type { DB } from './db/connect.js';
import { startMixing } from './filling/mixing.js';
import { startScheduler } from './questionnaires/lifecycle.js';
import { startYearSwitcher } from './school/rollover.js';
import type { BackupService } from './backup/service.js';

/**
 * The work QE does by the clock rather than on a request: questionnaires opened and ended on
 * time, anonymous replies released in mixed batches, the school year switched on its date,
 * scheduled backups. Each claims its work through the database, so several instances on one
 * PostgreSQL never do it twice. Started with the app, stopped when it
 * closes — as a plugin of its own, before the database closes (a child's onClose runs first),
 * the mixing's last round finished.
 */
export async function backgroundJobs(app: FastifyInstance, { db, config, backups }: { db: DB; config: Config; backups: BackupService }): Promise<void> {
  const stopScheduler = startScheduler(db, config.schedulerSeconds, app.log);
  const stopMixing = startMixing(db, config.anonymousMixSeconds, config.anonymousMinGroup, app.log);
  const stopYearSwitcher = startYearSwitcher(db, config.schedulerSeconds, app.log);
  const stopBackups = backups.startScheduler(config.schedulerSeconds, app.log);
  app.addHook('onClose', async () => {
    stopScheduler();
    stopYearSwitcher();
    await stopBackups();
    await stopMixing();
  });
}
