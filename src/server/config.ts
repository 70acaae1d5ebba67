import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { coversAFamily, ipRange, type IpRange } from './ip-ranges.js';

/** Every setting QE reads, with its default. The README lists them; readConfig below reads and checks them. */
export interface Config {
  /** HTTP port (PORT, default 8080) */
  port: number;
  /** address to listen on (HOST, default 0.0.0.0) */
  host: string;
  /** folder for the SQLite file, the signing secret and uploads (DATA_DIR, default ./data) */
  dataDir: string;
  /** postgres://… selects PostgreSQL; unset means SQLite in dataDir (DATABASE_URL) */
  databaseUrl?: string;
  /** how long a SQLite write waits for another writer before DATABASE_UNAVAILABLE (ms; 5000; not read from the environment, a test's setting) */
  sqliteBusyMs?: number;
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
  /** where uploaded files are kept on SQLite (QE_STORAGE_DIR, default DATA_DIR/storage); on PostgreSQL the database keeps them (storage/file-store.ts) */
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
   * sign-in with the school's accounts (src/server/sign-in/): how long QE waits for a provider's
   * every answer (discovery, keys, token) before it tells the user it is unavailable
   * (QE_SIGN_IN_TIMEOUT_MS, default 10000), and where the Microsoft and Google issuers are (their
   * own; tests point them at a loopback provider)
   */
  signIn: {
    timeoutMs: number;
    microsoftAuthority: string;
    googleIssuer: string;
  };
  /**
   * the address users reach QE at, without a trailing slash (QE_PUBLIC_URL): the origin of every
   * link in a mail (required for reminders) and of the Google sign-in redirect
   */
  publicUrl: string | undefined;
  /**
   * mails are kept in the database (the development outbox) and shown on the mail setting screen instead of being sent
   * (QE_MAIL_OUTBOX=1; on for `npm run demo`): for trying reminders without a mail server, never
   * for a school's real use
   */
  mailOutbox: boolean;
  /** the largest backup file an administrator may upload to restore, in MiB (QE_BACKUP_UPLOAD_MB, default 4096) */
  backupUploadMb: number;
  /**
   * after SIGTERM, how long QE keeps serving with its readiness answering 503 before it stops
   * accepting (QE_DRAIN_SECONDS, default 5): time for a load balancer's health checks to take it out
   */
  drainSeconds: number;
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

/**
 * QE_TRUST_PROXY: a number is how many proxies stand in front (the client is the address the
 * nearest of them saw); otherwise a comma-separated list of the proxies' addresses or subnets.
 * "true" is refused, and so is a list whose subnets together cover every IPv4 or every IPv6
 * address (0.0.0.0/1 with 128.0.0.0/1, ::/0, ::ffff:0:0/96…): believing every X-Forwarded-For
 * lets any client choose its own address, and so escape the per-address login limit.
 */
export function trustedProxies(value: string | undefined): false | number | string[] {
  const text = value?.trim() ?? '';
  if (text === '' || text === '0' || text.toLowerCase() === 'false') return false;
  if (/^\d+$/.test(text)) return Number(text);
  const takes = 'the number of proxies in front of QE or a list of their addresses or subnets (e.g. 10.0.0.2,10.1.0.0/16)';
  const list = text.split(',').map((s) => s.trim()).filter(Boolean);
  const ranges = list.map(ipRange);
  const bad = list.length ? list.find((_, i) => !ranges[i]) : text;
  if (bad !== undefined) throw new Error(`QE_TRUST_PROXY must be ${takes}; "${bad}" is neither`);
  const everyone = coversAFamily(ranges as IpRange[]);
  if (everyone) throw new Error(`QE_TRUST_PROXY="${text}" covers ${everyone}, so any client could choose its own address: give ${takes}`);
  return list;
}

const HOST_NAME = /^[a-z\d]([a-z\d-]*[a-z\d])?(\.[a-z\d]([a-z\d-]*[a-z\d])?)*$/i;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** The settings as the environment gives them: `secret` only when QE_SECRET does (data-folder.ts keeps one otherwise). */
export type Settings = Omit<Config, 'secret'> & { secret?: string };

/** Settings QE cannot start with: every problem at once, each naming its variable and what to give. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`QE cannot start: ${problems.length === 1 ? problems[0] : problems.map((p) => `\n  - ${p}`).join('')}`);
    this.name = 'ConfigError';
  }
}

/**
 * The signing secret an operator gives: long enough, and varied enough, that a login token
 * (HMAC-SHA256), which anyone logged in holds, cannot be used to guess it offline and sign tokens
 * of their own. 32 × "a", "abab…" or a word repeated has the length but not the randomness; the
 * output of `openssl rand -hex 32` (64 characters of 16) has some 16 distinct characters and is
 * no repetition. Never repeated in the message.
 */
export const SECRET_MIN_LENGTH = 32;
export const SECRET_MIN_DISTINCT = 10;
function givenSecret(value: string | undefined): string | undefined {
  const secret = value?.trim();
  if (!secret) return undefined;
  const repeated = (secret + secret).indexOf(secret, 1) < secret.length;
  if (secret.length < SECRET_MIN_LENGTH || new Set(secret).size < SECRET_MIN_DISTINCT || repeated) {
    throw new Error(`QE_SECRET must be at least ${SECRET_MIN_LENGTH} random characters, ${SECRET_MIN_DISTINCT} or more of them different and no piece repeated (it signs login tokens; e.g. the output of \`openssl rand -hex 32\`), or unset to have one generated into DATA_DIR/secret.key`);
  }
  return secret;
}

/** Reads variables, noting each one that is given but wrong instead of falling back to its default unnoticed. */
function variables(env: NodeJS.ProcessEnv) {
  const problems: string[] = [];
  const given = (name: string) => {
    const value = env[name]?.trim();
    return value ? value : undefined;
  };
  const wrong = <T>(fallback: T, problem: string) => {
    problems.push(problem);
    return fallback;
  };
  return {
    problems,
    text: (name: string, fallback: string) => given(name) ?? fallback,
    optional: (name: string) => given(name),
    /** a whole number from min to max */
    integer(name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
      const value = given(name);
      if (value === undefined) return fallback;
      const n = Number(value);
      return /^\d+$/.test(value) && n >= min && n <= max ? n : wrong(fallback, `${name}="${value}" must be a whole number from ${min} to ${max === Number.MAX_SAFE_INTEGER ? 'up' : max}`);
    },
    /** a number above zero, fractions allowed */
    positive(name: string, fallback: number, max: number): number {
      const value = given(name);
      if (value === undefined) return fallback;
      const n = Number(value);
      return /^\d+(\.\d+)?$/.test(value) && n > 0 && n <= max ? n : wrong(fallback, `${name}="${value}" must be a number above 0, at most ${max}`);
    },
    oneOf(name: string, fallback: string, allowed: string[]): string {
      const value = given(name);
      if (value === undefined) return fallback;
      return allowed.includes(value) ? value : wrong(fallback, `${name}="${value}" must be one of ${allowed.join(', ')}`);
    },
    /** 1 or true turns it on; 0, false or unset leave it off */
    flag(name: string): boolean {
      const value = given(name)?.toLowerCase();
      if (value === undefined || value === '0' || value === 'false') return false;
      return value === '1' || value === 'true' ? true : wrong(false, `${name}="${env[name]}" must be 1 (on) or 0 (off)`);
    },
    /** an absolute http(s) address */
    address(name: string, fallback: string): string {
      const value = given(name);
      if (value === undefined) return fallback;
      return /^https?:\/\/[^\s/]+/i.test(value) && URL.canParse(value) ? value : wrong(fallback, `${name}="${value}" must be an absolute http:// or https:// address`);
    },
    postgres(name: string): string | undefined {
      const value = given(name);
      if (value === undefined) return undefined;
      return /^postgres(ql)?:\/\//i.test(value) && URL.canParse(value) ? value : wrong(undefined, `${name} must be a postgres://user:password@host:5432/database address (unset for SQLite in DATA_DIR)`);
    },
    /** text `fits` accepts, else refused with `what` it must be */
    matching(name: string, fallback: string, fits: (value: string) => boolean, what: string): string {
      const value = given(name);
      if (value === undefined) return fallback;
      return fits(value) ? value : wrong(fallback, `${name}="${value}" must be ${what}`);
    },
    /** a value checked by a function that throws an Error explaining what is wrong */
    checked<T>(fallback: T, check: () => T): T {
      try {
        return check();
      } catch (error) {
        return wrong(fallback, (error as Error).message);
      }
    },
  };
}

/**
 * Every setting QE reads, from the environment (README "Settings"), checked in this one place:
 * a value given but wrong stops QE with a ConfigError naming each such variable, rather than
 * leaving it to run on a default nobody chose. `overrides` come from code (the demo, tests).
 * Reading writes nothing: the data folder and its secret are made ready by data-folder.ts at start.
 */
export function readConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Settings {
  const v = variables(env);
  const dataDir = resolve(overrides.dataDir ?? v.text('DATA_DIR', './data'));
  const settings: Settings = {
    port: v.integer('PORT', 8080, 0, 65_535),
    host: v.matching('HOST', '0.0.0.0', (h) => isIP(h) !== 0 || HOST_NAME.test(h), 'an IP address to listen on, such as 0.0.0.0 (every interface) or 127.0.0.1, or a host name'),
    dataDir,
    databaseUrl: v.postgres('DATABASE_URL'),
    secret: v.checked(undefined, () => givenSecret(env.QE_SECRET)),
    sessionHours: v.positive('QE_SESSION_HOURS', 12, 24 * 366),
    loginMaxFailures: v.integer('QE_LOGIN_MAX_FAILURES', 10, 1),
    loginMaxFailuresPerAddress: v.integer('QE_LOGIN_MAX_FAILURES_PER_ADDRESS', 1000, 1),
    loginWindowMinutes: v.integer('QE_LOGIN_WINDOW_MINUTES', 15, 1, 24 * 60),
    clientDir: resolve(v.text('QE_CLIENT_DIR', 'dist/client')),
    storageDir: resolve(v.text('QE_STORAGE_DIR', join(dataDir, 'storage'))),
    logLevel: v.oneOf('LOG_LEVEL', 'info', LOG_LEVELS),
    tutorialUrl: v.matching('QE_TUTORIAL_URL', '/qe/tutorial', (u) => /^\/(?!\/)/.test(u) || (/^https?:\/\/[^\s/]+/i.test(u) && URL.canParse(u)), 'a path on this site such as /qe/tutorial, or an absolute http:// or https:// address'),
    trustProxy: v.checked(false, () => trustedProxies(env.QE_TRUST_PROXY)),
    schedulerSeconds: v.integer('QE_SCHEDULER_SECONDS', 30, 0, 24 * 3600),
    anonymousMixSeconds: v.integer('QE_ANONYMOUS_MIX_SECONDS', 30, 1, 60),
    anonymousMinGroup: v.integer('QE_ANONYMOUS_MIN_GROUP', 5, 1, 1000),
    google: {
      clientId: v.text('QE_GOOGLE_CLIENT_ID', ''),
      clientSecret: v.text('QE_GOOGLE_CLIENT_SECRET', ''),
      authUrl: v.address('QE_GOOGLE_AUTH_URL', 'https://accounts.google.com/o/oauth2/v2/auth'),
      tokenUrl: v.address('QE_GOOGLE_TOKEN_URL', 'https://oauth2.googleapis.com/token'),
      userInfoUrl: v.address('QE_GOOGLE_USERINFO_URL', 'https://openidconnect.googleapis.com/v1/userinfo'),
    },
    signIn: {
      timeoutMs: v.integer('QE_SIGN_IN_TIMEOUT_MS', 10_000, 100, 120_000),
      microsoftAuthority: v.address('QE_SIGN_IN_MICROSOFT_AUTHORITY', 'https://login.microsoftonline.com').replace(/\/+$/, ''),
      googleIssuer: v.address('QE_SIGN_IN_GOOGLE_ISSUER', 'https://accounts.google.com'),
    },
    publicUrl: undefined,
    mailOutbox: v.flag('QE_MAIL_OUTBOX'),
    backupUploadMb: v.integer('QE_BACKUP_UPLOAD_MB', 4096, 1, 1024 * 1024),
    drainSeconds: v.integer('QE_DRAIN_SECONDS', 5, 0, 600),
    ...overrides,
  };
  settings.publicUrl = v.checked(undefined, () => publicUrl('publicUrl' in overrides ? overrides.publicUrl : env.QE_PUBLIC_URL));
  if (settings.google.clientId && !settings.google.clientSecret) v.problems.push('QE_GOOGLE_CLIENT_ID is set without QE_GOOGLE_CLIENT_SECRET: give both, or neither');
  if (v.problems.length) throw new ConfigError(v.problems);
  return settings;
}
