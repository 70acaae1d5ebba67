import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { DB } from '../db/connect.js';
import type { SessionCache } from '../auth/session-cache.js';
import { flowRoutes, SignInFlows } from './flow.js';
import { linkRoutes, SignInLinks } from './links.js';
import { OidcClient } from './oidc.js';
import { PasswordPolicyService, passwordPolicyRoutes } from './password-policy.js';
import { ProviderSettingsService, settingsRoutes } from './settings.js';

/**
 * Sign-in with the school's own accounts (docs/recipes/sign-in-with-school-accounts.md): Microsoft
 * Entra ID, Google Workspace or any OpenID Connect issuer. By concern: the providers' settings
 * (settings.ts), their discovery documents, keys and tokens (oidc.ts), the flow from the login
 * page to a session (flow.ts), the checks it makes (checks.ts) and how it finds the account
 * (matching.ts), the accounts' links (links.ts), and the password login per user type
 * (password-policy.ts, which the password login asks too: src/server/auth/index.ts).
 */
export async function signInRoutes(app: FastifyInstance, { db, config, sessions }: { db: DB; config: Config; sessions: SessionCache }) {
  const policy = new PasswordPolicyService(db);
  const settings = new ProviderSettingsService(db, config, policy);
  const flows = new SignInFlows(db, config, new OidcClient(config), settings);
  await settingsRoutes(app, { config, settings });
  await flowRoutes(app, { flows, sessions });
  await passwordPolicyRoutes(app, { policy });
  await linkRoutes(app, { links: new SignInLinks(db) });
}
