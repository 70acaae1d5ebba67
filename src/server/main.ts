import { loadConfig } from './config.js';
import { buildApp } from './app.js';
import { seedDemoSchool } from './demo/seed.js';
import { seedDemoQuestionnaires } from './demo/questionnaires.js';

/** `node dist/node/server/main.js [--demo]` (npm start, npm run demo; tsx src/server/main.ts in development): migrate, optionally load the demo school, serve. */
async function main() {
  const config = loadConfig();
  const { app, db } = await buildApp(config);
  if (process.argv.includes('--demo')) {
    const loaded = await seedDemoSchool(db);
    if (loaded) await seedDemoQuestionnaires(db, config.anonymousMinGroup);
    app.log.info(loaded ? 'demo school loaded: log in as superadmin, admin, teacher01 or student001 with Passw0rd!' : 'the school already exists: demo not loaded');
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      app.log.info(`${signal}: closing`);
      app.close().then(() => process.exit(0), () => process.exit(1));
    });
  }
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`QE is at http://localhost:${config.port}/qe/ (${config.databaseUrl ? 'PostgreSQL' : `SQLite in ${config.dataDir}`})`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
