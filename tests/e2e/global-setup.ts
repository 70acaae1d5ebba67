import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { OAuth2Server } from 'oauth2-mock-server';
import type { TestProject } from 'vitest/node';
import { readConfig } from '../../src/server/config.js';
import { openDataFolder } from '../../src/server/data-folder.js';
import { buildApp } from '../../src/server/app.js';
import { seedDemoSchool } from '../../src/server/demo/seed.js';
import { createTestDatabase } from '../support/database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    /** the e-mail the loopback OAuth server answers for whoever signs in */
    googleMail: string;
  }
}

const E2E_GOOGLE_MAIL = 'e2e.teacher@google-mock.example';

/**
 * Starts QE (built client, demo school, fresh database) on a free loopback port for the whole
 * e2e run, with a real OAuth server on loopback (oauth2-mock-server) as its Google provider.
 */
export default async function setup(project: TestProject) {
  const clientDir = resolve('dist/client');
  if (!existsSync(resolve(clientDir, 'index.html'))) throw new Error('no built client: run "npm run build" (npm run test:e2e does)');
  const oauth = new OAuth2Server();
  await oauth.issuer.keys.generate('RS256');
  await oauth.start(0, '127.0.0.1');
  const issuer = oauth.issuer.url!;
  oauth.service.on('beforeUserinfo', (response) => {
    response.body = { sub: 'e2e-google-user', email: E2E_GOOGLE_MAIL, email_verified: true };
  });
  const database = await createTestDatabase();
  const config = openDataFolder(readConfig(
    {},
    {
      dataDir: database.dataDir,
      databaseUrl: database.databaseUrl,
      clientDir,
      logLevel: 'warn',
      // mail stays in the development outbox (mail/outbox.ts): the mail setting screen shows it
      mailOutbox: true,
      host: '127.0.0.1',
      port: 0,
      google: { clientId: 'qe-e2e', clientSecret: 'qe-e2e-secret', authUrl: `${issuer}/authorize`, tokenUrl: `${issuer}/token`, userInfoUrl: `${issuer}/userinfo` },
    },
  ));
  // errors only (a 500's stack in the CI log), not every request
  const { app, db } = await buildApp(config, { logger: { level: 'error' } });
  await seedDemoSchool(db);
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  project.provide('baseUrl', address);
  project.provide('googleMail', E2E_GOOGLE_MAIL);
  return async () => {
    await app.close();
    await oauth.stop();
    await database.drop();
  };
}
