import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Config } from './config.js';
import { createDb, isPostgres, type DB } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { takeInFolders } from './storage/file-store.js';
import { compactDatabase } from './db/scrub.js';
import { clientErrorHandler, errorsPlugin, frameworkErrors } from './plugins/errors.js';
import { bodyPlugin } from './plugins/body.js';
import { boundsPlugin, finiteNumbers } from './plugins/bounds.js';
import { envelopePlugin } from './plugins/envelope.js';
import { guardPlugin } from './plugins/guard.js';
import { addressLimitPlugin } from './plugins/address-limit.js';
import { securityHeadersPlugin } from './plugins/security-headers.js';
import { cacheVersions } from './auth/cache-versions.js';
import { SessionCache } from './auth/session-cache.js';
import { WriteGate, writeGatePlugin } from './plugins/write-gate.js';
import { RestoreHolds, STALE_MS } from './backup/restore-hold.js';
import { removeLeftovers } from './backup/leftovers.js';
import { healthPlugin, InstanceState } from './plugins/health.js';
import { trimPlugin } from './plugins/trim.js';
import { clientPlugin } from './plugins/client.js';
import { logSerializers, logRedact } from './plugins/logging.js';
import { seedPermissionModel } from './developer/seed.js';
import { backgroundJobs } from './background-jobs.js';
import type { MasterPage } from '../shared/master/pages.js';
import { authRoutes } from './auth/index.js';
import { schoolRoutes } from './school/index.js';
import { developerRoutes } from './developer/index.js';
import { masterRoutes } from './master/index.js';
import type { MasterDeps } from './master/crud.js';
import { ImportJobs } from './master/import-jobs.js';
import { ReplyCounting } from './statistics/counting.js';
import { questionnaireRoutes } from './questionnaires/index.js';
import { templateRoutes } from './templates/index.js';
import { questionBankRoutes } from './question-bank/index.js';
import { seedStarterTemplates } from './templates/starters.js';
import { googleRoutes } from './google/index.js';
import { fillingRoutes } from './filling/index.js';
import { statisticsRoutes } from './statistics/index.js';
import { WORKBOOK_LIMITS } from './master/workbook/limits.js';
import { personalDataRoutes } from './personal/index.js';
import { rolloverRoutes } from './school/rollover-routes.js';
import { backupRoutes } from './backup/routes.js';
import { BackupService } from './backup/service.js';
import { dashboardRoutes } from './dashboard/index.js';
import { signInRoutes } from './sign-in/index.js';

/** The client address is the one the `hops`-th proxy (counted from QE) saw. */
function trustHops(hops: number) {
  return (_address: string, index: number) => index < hops;
}

export interface App {
  app: FastifyInstance;
  db: DB;
  /** serving, draining or closing: main.ts moves it on SIGTERM, the readiness check reports it */
  instance: InstanceState;
  /** holds writes back while a restore swaps the data */
  gate: WriteGate;
}

/** Builds QE: database ready (migrated, permission model seeded), every business area registered. */
export interface BuildOptions {
  db?: DB;
  logger?: FastifyServerOptions['logger'];
  /** more master-data routes (the codegen test's fixture entity) */
  extraMasterRoutes?: (app: FastifyInstance, deps: MasterDeps) => Promise<void>;
  /** the permission pages of those routes' entities: seeded and granted as the generated ones are */
  extraMasterPages?: MasterPage[];
}

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<App> {
  const db = options.db ?? createDb(config);
  const applied = await migrateToLatest(db);
  // files written before anonymous replies were scrubbed may hold earlier versions in free space
  if (applied.includes('0008_anonymous_release')) await compactDatabase(db);
  await seedPermissionModel(db, options.extraMasterPages);
  // QE's starter templates, once per school (by their starter key): a new school starts with them
  await seedStarterTemplates(db);
  // PostgreSQL: files this instance kept on its own disk before the file store, into the database
  await takeInFolders(db, config);

  const app = Fastify({
    logger: options.logger ?? { level: config.logLevel, redact: logRedact, serializers: logSerializers },
    // a hop count as a function: Fastify reads a bare number as "trust no proxy" (it cannot check
    // the nearest peer); QE takes the count at its word, as documented for QE_TRUST_PROXY
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    bodyLimit: 2 * 1024 * 1024,
    // a call arriving while closing is answered SERVER_CLOSING by the health plugin, as an envelope
    return503OnClosing: false,
    // what Fastify and Node refuse before a route runs (bad URL, long parameter, a head Node cannot parse) is answered with the envelope too
    frameworkErrors,
    clientErrorHandler,
    ajv: {
      // strict, with every error reported and nothing silently dropped; x-qe is the schemas' own extension (docs/architecture.md#master-data-from-schemas), x-qe-type marks a value typed by code (docs/conventions.md#call-shapes)
      customOptions: { removeAdditional: false, allErrors: true, strict: true, allowUnionTypes: true, verbose: true, keywords: ['x-qe', 'x-qe-rule', 'x-qe-input', 'x-qe-type'] },
      // x-qe-finite: what ajv's coercion makes of "Infinity" is refused (plugins/bounds.ts)
      plugins: [finiteNumbers],
    },
  });
  app.addHook('onClose', async () => db.destroy());

  await app.register(securityHeadersPlugin);
  await app.register(swagger, {
    openapi: {
      info: { title: 'QE API', version: '1', description: 'Every answer is the envelope {code, msg, data}. Send Authorization: Bearer <token>, Accept-Language (zh-HK or en), X-Device and X-System (QE).' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/qe/api-docs' });
  // uploads: Excel imports and questionnaire images, one file per request
  await app.register(multipart, { limits: { fileSize: WORKBOOK_LIMITS.fileBytes, files: 1, fields: 5 } });
  await app.register(errorsPlugin);
  await app.register(envelopePlugin);
  await app.register(bodyPlugin);
  await app.register(boundsPlugin);
  await app.register(trimPlugin);
  const instance = new InstanceState();
  const gate = new WriteGate();
  // before the write gate and the guard: a call reaching a closing instance is refused untouched
  await app.register(healthPlugin, { db, gate, instance });
  // the write gate before the guard: a write is counted in before its session is checked, so a
  // restore's swap cannot come between an old session's check and its write (the write would
  // land after the swap, on data it was not meant for)
  await app.register(writeGatePlugin, { gate });
  // a restore on any instance holds this one's writes back too (PostgreSQL: several instances)
  const holds = new RestoreHolds(db, gate, isPostgres(db), app.log);
  await removeLeftovers(db, config);
  await holds.start();
  if (isPostgres(db)) {
    // a restore's schema whose instance was killed just before this start looked alive then
    const again = setTimeout(() => void removeLeftovers(db, config, { schemasOnly: true }).catch((err: unknown) => app.log.error({ err }, 'removing leftovers failed')), STALE_MS + 2_000);
    again.unref();
    app.addHook('onClose', async () => clearTimeout(again));
  }
  app.addHook('onClose', async () => holds.stop());
  const versions = cacheVersions(db);
  const sessions = new SessionCache(db, config.secret, versions);
  // after the write gate: a call it holds back is not counted
  await app.register(addressLimitPlugin, { db });
  await app.register(guardPlugin, { sessions });

  await app.register(authRoutes, { db, config, sessions });
  await app.register(signInRoutes, { db, config, sessions });
  await app.register(schoolRoutes, { db, config });
  await app.register(developerRoutes, { db });
  const jobs = new ImportJobs(db, gate);
  await jobs.markInterrupted();
  app.addHook('onClose', async () => jobs.close());
  await app.register(masterRoutes, { db, config, jobs, versions, extraRoutes: options.extraMasterRoutes });
  await app.register(questionnaireRoutes, { db, config });
  await app.register(templateRoutes, { db });
  await app.register(questionBankRoutes, { db });
  await app.register(googleRoutes, { db, config });
  const counting = new ReplyCounting(db, app.log);
  counting.start();
  app.addHook('onClose', async () => counting.close());
  await app.register(fillingRoutes, { db, config, counting });
  await app.register(statisticsRoutes, { db, config });
  await app.register(dashboardRoutes, { db, config });
  await app.register(personalDataRoutes, { db, config });
  await app.register(rolloverRoutes, { db });
  const backups = new BackupService(db, config, gate);
  await app.register(backupRoutes, { db, config, service: backups });
  await app.register(backgroundJobs, { db, config, backups });

  await app.register(clientPlugin, { config, db });
  return { app, db, instance, gate };
}
