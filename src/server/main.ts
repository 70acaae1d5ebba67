import { ConfigError, readConfig } from './config.js';
import { openDataFolder } from './data-folder.js';
import { buildApp } from './app.js';
import { seedDemoSchool } from './demo/seed.js';
import { seedDemoQuestionnaires } from './demo/questionnaires.js';
import { seedDemoExtras } from './demo/extras.js';
import { olderNodeProblem } from './node-version.js';

/** `node dist/node/server/main.js [--demo]` (npm start, npm run demo; tsx src/server/main.ts in development): migrate, optionally load the demo school, serve. */
async function main() {
  const older = olderNodeProblem();
  if (older) {
    console.error(older);
    process.exit(1);
  }
  const demo = process.argv.includes('--demo');
  // the demo keeps its mails in the outbox (shown on the mail setting screen), and its reminders'
  // links point at this machine unless QE_PUBLIC_URL says otherwise
  const settings = readConfig(process.env);
  const config = openDataFolder(demo ? { ...settings, mailOutbox: true, publicUrl: settings.publicUrl ?? `http://localhost:${settings.port}` } : settings);
  const { app, db, instance } = await buildApp(config);
  // the last resort: what escaped every handler is logged where the school's logs are read, and
  // QE stops (its supervisor starts it again) rather than carry on in an unknown state. The
  // faults a server meets (the database away, a full disk) are handled where they arise.
  for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
    process.on(event, (err: unknown) => {
      app.log.fatal({ err }, `${event}: QE stops`);
      process.exit(1);
    });
  }
  if (demo) {
    const loaded = await seedDemoSchool(db);
    if (loaded) {
      await seedDemoQuestionnaires(db, config.anonymousMinGroup);
      await seedDemoExtras(db);
    }
    app.log.info(loaded ? 'demo school loaded: log in as superadmin, admin, teacher01 or student001 with Passw0rd!' : 'the school already exists: demo not loaded');
  }
  // a secret generated into one instance's data folder is that instance's alone: tokens signed
  // by one would be refused by the others behind the same load balancer
  if (config.databaseUrl && !settings.secret) app.log.warn('QE_SECRET is unset: this instance signs with DATA_DIR/secret.key. Give every instance on this PostgreSQL the same QE_SECRET, or a login on one is refused by the others');
  if (config.mailOutbox) app.log.warn("mail is kept in the database's outbox and shown on the mail setting screen, not sent (QE_MAIL_OUTBOX or npm run demo): not for a school's real use");
  // npm and QE's Node launcher (scripts/qe-node.mjs) pass a Ctrl-C on to the process the terminal
  // already told: a repeat while closing must not cut the close short. Behind a load balancer the
  // readiness check answers 503 at once, calls are served for QE_DRAIN_SECONDS while the balancer
  // takes this instance out, then it stops accepting and lets the calls inside finish. A Ctrl-C
  // (SIGINT) is a person at the terminal, not a service manager: no wait, only the calls inside finish.
  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (closing) return;
      closing = true;
      instance.drain();
      const seconds = signal === 'SIGTERM' ? config.drainSeconds : 0;
      app.log.info(seconds ? `${signal}: draining for ${seconds} s, then closing` : `${signal}: closing`);
      setTimeout(() => {
        instance.close();
        app.close().then(() => process.exit(0), () => process.exit(1));
      }, seconds * 1000);
    });
  }
  await app.listen({ port: config.port, host: config.host }).catch(async (error: NodeJS.ErrnoException) => {
    const problem = listenProblem(error.code, config);
    if (!problem) throw error;
    await app.close();
    throw new ConfigError([problem]);
  });
  app.log.info(`QE is at http://localhost:${config.port}/qe/ (${config.databaseUrl ? 'PostgreSQL' : `SQLite in ${config.dataDir}`})`);
}

/** PORT or HOST as the system refused them to listen: one sentence naming the variable and what to give. */
function listenProblem(code: string | undefined, { port, host }: { port: number; host: string }): string | undefined {
  if (code === 'EADDRINUSE') return `PORT=${port} is in use by another program on ${host}: give a free port, or stop that program`;
  if (code === 'EACCES') return `PORT=${port} may not be opened by this user (ports below 1024 need privileges): give a port above 1023, such as 8080`;
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `HOST="${host}" is not an address of this machine: give 0.0.0.0 (every interface), 127.0.0.1 or one of its own addresses`;
  return undefined;
}

main().catch((err) => {
  // a setting to put right: its message says which and how, without a stack
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
