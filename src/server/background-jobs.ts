import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import type { DB } from './db/connect.js';
import { startMixing } from './filling/mixing.js';
import { startScheduler } from './questionnaires/lifecycle.js';

/**
 * The work QE does by the clock rather than on a request: questionnaires opened and ended on
 * time, anonymous replies released in mixed batches. Started with the app, stopped when it
 * closes — as a plugin of its own, before the database closes (a child's onClose runs first),
 * the mixing's last round finished.
 */
export async function backgroundJobs(app: FastifyInstance, { db, config }: { db: DB; config: Config }): Promise<void> {
  const stopScheduler = startScheduler(db, config.schedulerSeconds, app.log);
  const stopMixing = startMixing(db, config.anonymousMixSeconds, config.anonymousMinGroup, app.log);
  app.addHook('onClose', async () => {
    stopScheduler();
    await stopMixing();
  });
}
