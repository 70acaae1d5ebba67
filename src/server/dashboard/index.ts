import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { DB } from '../db/connect.js';
import { ok } from '../plugins/envelope.js';
import { currentUser } from '../plugins/guard.js';
import { StatisticsService } from '../statistics/service.js';
import { dashboardOf } from './queries.js';
import { DASHBOARD_ANSWERS, type Dashboard } from '../../shared/calls/dashboard.js';

/** The home screen by role: what to answer, how my running questionnaires stand, the school's. */
export async function dashboardRoutes(app: FastifyInstance, { db, config }: { db: DB; config: Config }) {
  const statistics = new StatisticsService(db, config.anonymousMinGroup);
  app.get('/v1/my/dashboard', {
    // any logged-in account: each card is filled only for the permissions it serves (queries.ts)
    config: { permission: '*' },
    schema: {
      tags: ['dashboard'],
      summary: 'The home screen in one call: {toAnswer, running, school}, each null for whom it does not serve (src/shared/calls/dashboard.ts)',
      response: DASHBOARD_ANSWERS.dashboard,
    },
  }, async (request) => ok<Dashboard>(await dashboardOf(db, statistics, currentUser(request))));
}
