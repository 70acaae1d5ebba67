import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Every setting QE reads, with its default. The README lists them. */
export interface Config {
  /** HTTP port (PORT, default 8080) */
  port: number;
  /** address to listen on (HOST, default 0.0.0.0) */
  host: string;
  /** folder for the SQLite file, the signing secret and uploads (DATA_DIR, default ./data) */
  dataDir: string;
  /** postgres://… selects PostgreSQL; unset means SQLite in dataDir (DATABASE_URL) */
  databaseUrl?: string;
  /** secret that signs session tokens (QE_SECRET; generated once into dataDir when unset) */
  secret: string;
  /** how long a login lasts, in hours (QE_SESSION_HOURS, default 12) */
  sessionHours: number;
  /** failed logins allowed per account within the window (QE_LOGIN_MAX_FAILURES, default 10) */
  loginMaxFailures: number;
  /** failed logins allowed per client address within the window (QE_LOGIN_MAX_FAILURES_PER_ADDRESS, default 100) */
  loginMaxFailuresPerAddress: number;
  /** the failure window in minutes (QE_LOGIN_WINDOW_MINUTES, default 15) */
  loginWindowMinutes: number;
  /** folder of the built client (QE_CLIENT_DIR, default dist/client) */
  clientDir: string;
  /** where uploaded files are kept (QE_STORAGE_DIR, default DATA_DIR/storage) */
  storageDir: string;
  /** log level: fatal, error, warn, info, debug, trace or silent (LOG_LEVEL, default info) */
  logLevel: string;
  /** the tutorial page the help link opens (QE_TUTORIAL_URL, default /qe/tutorial) */
  tutorialUrl: string;
  /** trust X-Forwarded-For from a reverse proxy (QE_TRUST_PROXY=1) */
  trustProxy: boolean;
  /** how often questionnaires due to open or finish are looked for, in seconds; 0 = never (QE_SCHEDULER_SECONDS, default 30) */
  schedulerSeconds: number;
  /** anonymous questionnaires: a filtered group with fewer replies than this is withheld in statistics (QE_ANONYMOUS_MIN_GROUP, default 5) */
  anonymousMinGroup: number;
  /** Google account binding (spec §1): the OAuth client and the provider's endpoints (Google's by default) */
  google: {
    clientId: string;
    clientSecret: string;
    authUrl: string;
    tokenUrl: string;
    userInfoUrl: string;
  };
  /** the address users reach QE at, for the OAuth redirect (QE_PUBLIC_URL; default: from the request) */
  publicUrl: string | undefined;
}

function int(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isFinite(n) ? n : fallback;
}

/** The signing secret: given, or generated once and kept in the data folder so restarts keep sessions. */
function loadSecret(dataDir: string, given?: string): string {
  if (given) return given;
  const file = join(dataDir, 'secret.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  return secret;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const dataDir = resolve(overrides.dataDir ?? env.DATA_DIR ?? './data');
  mkdirSync(dataDir, { recursive: true });
  const config: Config = {
    port: int(env.PORT, 8080),
    host: env.HOST || '0.0.0.0',
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    secret: '',
    sessionHours: int(env.QE_SESSION_HOURS, 12),
    loginMaxFailures: int(env.QE_LOGIN_MAX_FAILURES, 10),
    loginMaxFailuresPerAddress: int(env.QE_LOGIN_MAX_FAILURES_PER_ADDRESS, 100),
    loginWindowMinutes: int(env.QE_LOGIN_WINDOW_MINUTES, 15),
    clientDir: resolve(env.QE_CLIENT_DIR || 'dist/client'),
    storageDir: resolve(env.QE_STORAGE_DIR || join(dataDir, 'storage')),
    logLevel: env.LOG_LEVEL || 'info',
    tutorialUrl: env.QE_TUTORIAL_URL || '/qe/tutorial',
    trustProxy: env.QE_TRUST_PROXY === '1',
    schedulerSeconds: int(env.QE_SCHEDULER_SECONDS, 30),
    anonymousMinGroup: Math.max(1, int(env.QE_ANONYMOUS_MIN_GROUP, 5)),
    google: {
      clientId: env.QE_GOOGLE_CLIENT_ID || '',
      clientSecret: env.QE_GOOGLE_CLIENT_SECRET || '',
      authUrl: env.QE_GOOGLE_AUTH_URL || 'https://accounts.google.com/o/oauth2/v2/auth',
      tokenUrl: env.QE_GOOGLE_TOKEN_URL || 'https://oauth2.googleapis.com/token',
      userInfoUrl: env.QE_GOOGLE_USERINFO_URL || 'https://openidconnect.googleapis.com/v1/userinfo',
    },
    publicUrl: env.QE_PUBLIC_URL || undefined,
    ...overrides,
  };
  config.secret = loadSecret(dataDir, overrides.secret ?? env.QE_SECRET);
  return config;
}
