import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { ownerOnlyFile, ownerOnlyFolder } from './db/files.js';

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
  /**
   * which reverse proxies' X-Forwarded-For is believed (QE_TRUST_PROXY): their addresses or
   * subnets (a list), or how many proxies stand in front of QE (a number); unset: none
   */
  trustProxy: false | number | string[];
  /** how often questionnaires due to open or finish are looked for, in seconds; 0 = never (QE_SCHEDULER_SECONDS, default 30) */
  schedulerSeconds: number;
  /**
   * how often new anonymous replies are mixed in among the others, in seconds, 1 to 60
   * (QE_ANONYMOUS_MIX_SECONDS, default 30): never off, see src/server/filling/mixing.ts
   */
  anonymousMixSeconds: number;
  /** anonymous questionnaires: a filtered group with fewer replies than this is withheld in statistics (QE_ANONYMOUS_MIN_GROUP, default 5) */
  anonymousMinGroup: number;
  /** Google account binding: the OAuth client and the provider's endpoints (Google's by default) */
  google: {
    clientId: string;
    clientSecret: string;
    authUrl: string;
    tokenUrl: string;
    userInfoUrl: string;
  };
  /**
   * the address users reach QE at, without a trailing slash (QE_PUBLIC_URL): the origin of every
   * link in a mail (required for reminders) and of the Google sign-in redirect
   */
  publicUrl: string | undefined;
  /**
   * mails are kept in DATA_DIR/outbox and shown on the mail setting screen instead of being sent
   * (QE_MAIL_OUTBOX=1; on for `npm run demo`): for trying reminders without a mail server, never
   * for a school's real use
   */
  mailOutbox: boolean;
}

/**
 * QE_PUBLIC_URL checked at start-up: an absolute http(s) address (a path is allowed, for QE
 * behind a proxy under one), without user, query or fragment; the trailing slash trimmed.
 * A mistake here would put a broken address into every reminder mail, so it stops QE starting.
 */
export function publicUrl(value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const wrong = (why: string) => new Error(`QE_PUBLIC_URL "${value}" ${why}: give the address users reach QE at, such as https://qe.school.edu.hk`);
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw wrong('is not an absolute address');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw wrong('must start with https:// or http://');
  if (url.username || url.password) throw wrong('must not hold a user name or password');
  if (url.search || url.hash || /[?#]/.test(value)) throw wrong('must not have a query (?…) or fragment (#…)');
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

function int(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isFinite(n) ? n : fallback;
}

/** The signing secret: given, or generated once and kept in the data folder so restarts keep sessions. */
function loadSecret(dataDir: string, given?: string): string {
  if (given) return given;
  const file = join(dataDir, 'secret.key');
  if (existsSync(file)) {
    ownerOnlyFile(file);
    return readFileSync(file, 'utf8').trim();
  }
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  return secret;
}

/**
 * QE_TRUST_PROXY: a number is how many proxies stand in front (the client is the address the
 * nearest of them saw); otherwise a comma-separated list of the proxies' addresses or subnets.
 * "true" is refused: believing every X-Forwarded-For lets any client choose its own address,
 * and so escape the per-address login limit.
 */
export function trustedProxies(value: string | undefined): false | number | string[] {
  const text = value?.trim() ?? '';
  if (text === '' || text === '0' || text.toLowerCase() === 'false') return false;
  if (/^\d+$/.test(text)) return Number(text);
  const list = text.split(',').map((s) => s.trim()).filter(Boolean);
  const address = /^(?:[\d.]+|[\da-f:.]+)(?:\/\d{1,3})?$/i;
  const bad = list.find((a) => !address.test(a) || !isIP(a.split('/')[0]));
  if (bad !== undefined || !list.length) {
    throw new Error(`QE_TRUST_PROXY must be the number of proxies in front of QE or a list of their addresses or subnets (e.g. 10.0.0.2,10.1.0.0/16); "${bad ?? text}" is neither`);
  }
  return list;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const dataDir = resolve(overrides.dataDir ?? env.DATA_DIR ?? './data');
  ownerOnlyFolder(dataDir);
  const config: Config = {
    port: int(env.PORT, 8080),
    host: env.HOST || '0.0.0.0',
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    secret: '',
    sessionHours: int(env.QE_SESSION_HOURS, 12),
    loginMaxFailures: int(env.QE_LOGIN_MAX_FAILURES, 10),
    loginMaxFailuresPerAddress: int(env.QE_LOGIN_MAX_FAILURES_PER_ADDRESS, 1000),
    loginWindowMinutes: int(env.QE_LOGIN_WINDOW_MINUTES, 15),
    clientDir: resolve(env.QE_CLIENT_DIR || 'dist/client'),
    storageDir: resolve(env.QE_STORAGE_DIR || join(dataDir, 'storage')),
    logLevel: env.LOG_LEVEL || 'info',
    tutorialUrl: env.QE_TUTORIAL_URL || '/qe/tutorial',
    trustProxy: trustedProxies(env.QE_TRUST_PROXY),
    schedulerSeconds: int(env.QE_SCHEDULER_SECONDS, 30),
    anonymousMixSeconds: Math.min(60, Math.max(1, int(env.QE_ANONYMOUS_MIX_SECONDS, 30))),
    anonymousMinGroup: Math.max(1, int(env.QE_ANONYMOUS_MIN_GROUP, 5)),
    google: {
      clientId: env.QE_GOOGLE_CLIENT_ID || '',
      clientSecret: env.QE_GOOGLE_CLIENT_SECRET || '',
      authUrl: env.QE_GOOGLE_AUTH_URL || 'https://accounts.google.com/o/oauth2/v2/auth',
      tokenUrl: env.QE_GOOGLE_TOKEN_URL || 'https://oauth2.googleapis.com/token',
      userInfoUrl: env.QE_GOOGLE_USERINFO_URL || 'https://openidconnect.googleapis.com/v1/userinfo',
    },
    publicUrl: env.QE_PUBLIC_URL || undefined,
    mailOutbox: ['1', 'true'].includes((env.QE_MAIL_OUTBOX ?? '').trim().toLowerCase()),
    ...overrides,
  };
  config.publicUrl = publicUrl(config.publicUrl);
  config.secret = loadSecret(dataDir, overrides.secret ?? env.QE_SECRET);
  return config;
}
