import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from '../../src/server/config.js';
import { openDataFolder } from '../../src/server/data-folder.js';

const root = mkdtempSync(join(tmpdir(), 'qe-config-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
/** a data folder that does not exist yet */
let folders = 0;
const freshDir = () => join(root, `data-${++folders}`);

// QE_PUBLIC_URL is where every link in a mail points, so a wrong one stops QE at start-up with
// a message that says what is wrong, rather than mailing broken links.
describe('QE_PUBLIC_URL', () => {
  const load = (value: string | undefined) => readConfig({ QE_PUBLIC_URL: value }, { dataDir: freshDir() }).publicUrl;

  it('is unset when not given or empty', () => {
    expect(load(undefined)).toBeUndefined();
    expect(load('')).toBeUndefined();
    expect(load('   ')).toBeUndefined();
  });

  it.each([
    ['https://qe.school.edu.hk', 'https://qe.school.edu.hk'],
    ['https://qe.school.edu.hk/', 'https://qe.school.edu.hk'],
    ['  https://QE.School.edu.hk:8443//  ', 'https://qe.school.edu.hk:8443'],
    ['http://10.0.0.5:8080', 'http://10.0.0.5:8080'],
    ['https://www.school.edu.hk/survey/', 'https://www.school.edu.hk/survey'],
  ])('takes %j as %j (an absolute http(s) address, trailing slash trimmed)', (given, taken) => {
    expect(load(given)).toBe(taken);
  });

  it.each([
    ['qe.school.edu.hk', 'is not an absolute address'],
    ['/qe', 'is not an absolute address'],
    ['ftp://qe.school.edu.hk', 'must start with https:// or http://'],
    ['javascript:alert(1)', 'must start with https:// or http://'],
    ['https://admin:pw@qe.school.edu.hk', 'must not hold a user name or password'],
    ['https://qe.school.edu.hk/?next=evil', 'must not have a query'],
    ['https://qe.school.edu.hk?', 'must not have a query'],
    ['https://qe.school.edu.hk/#top', 'must not have a query (?…) or fragment'],
  ])('refuses %j at start-up: %s', (given, why) => {
    expect(() => load(given)).toThrow(`QE_PUBLIC_URL "${given}" ${why}`);
    expect(() => load(given)).toThrow('give the address users reach QE at, such as https://qe.school.edu.hk');
  });

  it('checks a value given in code (tests, tools) the same way', () => {
    expect(readConfig({}, { dataDir: freshDir(), publicUrl: 'https://qe.test/' }).publicUrl).toBe('https://qe.test');
    expect(() => readConfig({}, { dataDir: freshDir(), publicUrl: 'qe.test' })).toThrow(/QE_PUBLIC_URL/);
  });
});

describe('the settings, read and checked in one place', () => {
  it('gives the README defaults for what is unset or empty', () => {
    const config = readConfig({ PORT: '', LOG_LEVEL: ' ' }, { dataDir: freshDir() });
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      databaseUrl: undefined,
      secret: undefined,
      sessionHours: 12,
      loginMaxFailures: 10,
      loginMaxFailuresPerAddress: 1000,
      loginWindowMinutes: 15,
      logLevel: 'info',
      trustProxy: false,
      schedulerSeconds: 30,
      anonymousMixSeconds: 30,
      anonymousMinGroup: 5,
      mailOutbox: false,
      backupUploadMb: 4096,
      drainSeconds: 5,
    });
  });

  it('reads the values given', () => {
    const config = readConfig(
      { PORT: '9000', QE_SESSION_HOURS: '0.5', LOG_LEVEL: 'warn', QE_MAIL_OUTBOX: 'true', QE_SCHEDULER_SECONDS: '0', QE_ANONYMOUS_MIX_SECONDS: '60', DATABASE_URL: 'postgresql://qe:pw@db:5432/qe', QE_SECRET: ' kept-by-the-operator-0123456789abcdef ', QE_BACKUP_UPLOAD_MB: '100', QE_TRUST_PROXY: '1', QE_DRAIN_SECONDS: '0' },
      { dataDir: freshDir() },
    );
    expect(config).toMatchObject({ port: 9000, sessionHours: 0.5, logLevel: 'warn', mailOutbox: true, schedulerSeconds: 0, anonymousMixSeconds: 60, databaseUrl: 'postgresql://qe:pw@db:5432/qe', secret: 'kept-by-the-operator-0123456789abcdef', backupUploadMb: 100, trustProxy: 1, drainSeconds: 0 });
  });

  it.each([
    ['PORT', 'abc', 'PORT="abc" must be a whole number from 0 to 65535'],
    ['PORT', '70000', 'PORT="70000" must be a whole number from 0 to 65535'],
    ['QE_SESSION_HOURS', '0', 'QE_SESSION_HOURS="0" must be a number above 0'],
    ['QE_SESSION_HOURS', '-2', 'QE_SESSION_HOURS="-2" must be a number above 0'],
    ['QE_LOGIN_MAX_FAILURES', '0', 'QE_LOGIN_MAX_FAILURES="0" must be a whole number from 1'],
    ['QE_LOGIN_WINDOW_MINUTES', '1.5', 'QE_LOGIN_WINDOW_MINUTES="1.5" must be a whole number from 1 to 1440'],
    ['LOG_LEVEL', 'verbose', 'LOG_LEVEL="verbose" must be one of fatal, error, warn, info, debug, trace, silent'],
    ['QE_ANONYMOUS_MIX_SECONDS', '0', 'QE_ANONYMOUS_MIX_SECONDS="0" must be a whole number from 1 to 60'],
    ['QE_ANONYMOUS_MIX_SECONDS', '600', 'QE_ANONYMOUS_MIX_SECONDS="600" must be a whole number from 1 to 60'],
    ['QE_ANONYMOUS_MIN_GROUP', '0', 'QE_ANONYMOUS_MIN_GROUP="0" must be a whole number from 1 to 1000'],
    ['QE_MAIL_OUTBOX', 'yes', 'QE_MAIL_OUTBOX="yes" must be 1 (on) or 0 (off)'],
    ['DATABASE_URL', 'mysql://root@db/qe', 'DATABASE_URL must be a postgres://user:password@host:5432/database address'],
    ['QE_GOOGLE_TOKEN_URL', 'oauth2.googleapis.com/token', 'QE_GOOGLE_TOKEN_URL="oauth2.googleapis.com/token" must be an absolute http:// or https:// address'],
    ['QE_TRUST_PROXY', 'true', 'QE_TRUST_PROXY must be the number of proxies in front of QE or a list of their addresses'],
    ['QE_DRAIN_SECONDS', '2.5', 'QE_DRAIN_SECONDS="2.5" must be a whole number from 0 to 600'],
    ['QE_BACKUP_UPLOAD_MB', '-1', 'QE_BACKUP_UPLOAD_MB="-1" must be a whole number from 1'],
    ['QE_SECRET', 'secret', 'QE_SECRET must be at least 32 random characters'],
    ['QE_SECRET', 'x'.repeat(31), 'QE_SECRET must be at least 32 random characters'],
    ['QE_SECRET', 'a'.repeat(32), 'QE_SECRET must be at least 32 random characters, 10 or more of them different'],
    ['QE_SECRET', 'ab'.repeat(32), 'QE_SECRET must be at least 32 random characters, 10 or more of them different'],
    ['QE_SECRET', 'abcdefghi0'.repeat(4), 'no piece repeated'],
    ['QE_SECRET', '012345678'.repeat(3) + '0123456', 'QE_SECRET must be at least 32 random characters, 10 or more of them different'],
    ['HOST', 'every interface', 'HOST="every interface" must be an IP address to listen on, such as 0.0.0.0'],
    ['HOST', 'qe_host', 'HOST="qe_host" must be an IP address to listen on'],
    ['QE_TUTORIAL_URL', 'javascript:alert(1)', 'QE_TUTORIAL_URL="javascript:alert(1)" must be a path on this site such as /qe/tutorial, or an absolute http:// or https:// address'],
    ['QE_TUTORIAL_URL', 'tutorial.html', 'QE_TUTORIAL_URL="tutorial.html" must be a path on this site'],
  ])('refuses %s=%j with a message naming it and what to give', (name, value, message) => {
    const dataDir = freshDir();
    expect(() => readConfig({ [name]: value }, { dataDir })).toThrow(ConfigError);
    expect(() => readConfig({ [name]: value }, { dataDir })).toThrow(message);
  });

  it('refuses a short or repetitive QE_SECRET without repeating it, and takes what openssl rand gives', () => {
    const dataDir = freshDir();
    const refusal = (secret: string) => {
      try {
        readConfig({ QE_SECRET: secret }, { dataDir });
      } catch (e) {
        return (e as Error).message;
      }
      return '';
    };
    for (const secret of ['hunter2-school-secret', 'hunter2hunter2hunter2hunter2hunter2', 'zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz']) {
      const message = refusal(secret);
      expect(message).toContain('QE_SECRET must be at least 32 random characters');
      expect(message).not.toContain(secret.slice(0, 7));
    }
    // `openssl rand -hex 32` and `openssl rand -base64 32`, many times over: never refused
    for (let i = 0; i < 500; i++) {
      for (const secret of [randomBytes(32).toString('hex'), randomBytes(32).toString('base64')]) expect(readConfig({ QE_SECRET: secret }, { dataDir }).secret).toBe(secret);
    }
    expect(readConfig({ QE_SECRET: 'correct horse battery staple 2026' }, { dataDir }).secret).toBe('correct horse battery staple 2026');
  });

  describe('QE_TRUST_PROXY', () => {
    const trust = (value: string) => readConfig({ QE_TRUST_PROXY: value }, { dataDir: freshDir() }).trustProxy;

    it('takes the proxies\' own addresses and subnets, a hop count, or nothing', () => {
      expect(trust('10.0.0.2')).toEqual(['10.0.0.2']);
      expect(trust('10.0.0.0/8, 172.16.0.0/12,192.168.0.0/16,fc00::/7,')).toEqual(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7']);
      expect(trust('::1,::ffff:10.0.0.1,2001:db8::/32,0.0.0.0/1')).toEqual(['::1', '::ffff:10.0.0.1', '2001:db8::/32', '0.0.0.0/1']);
      expect(trust('2')).toBe(2);
      expect(trust('false')).toBe(false);
    });

    it.each([
      ['0.0.0.0/0', 'IPv4'],
      ['0.0.0.0/1,128.0.0.0/1', 'IPv4'],
      ['128.0.0.0/1, 64.0.0.0/2,10.0.0.0/8, 0.0.0.0/2', 'IPv4'],
      ['1.2.3.4/0', 'IPv4'],
      ['::ffff:0:0/96', 'IPv4'],
      ['::ffff:0.0.0.0/97,128.0.0.0/1', 'IPv4'],
      ['::/0', 'IPv6'],
      ['::/1,8000::/1', 'IPv6'],
      ['0.0.0.0/1,128.0.0.0/1,::1', 'IPv4'],
      ['8000::/1,::/2,4000::/2', 'IPv6'],
      ['::/1,8000::/2,c000::/2', 'IPv6'],
      ['fc00::/7,8000::/1,::/1', 'IPv6'],
      ['::/1', 'IPv4'],
    ])('refuses %j: together it covers every %s address', (value, family) => {
      let error: unknown;
      try {
        trust(value);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual([
        `QE_TRUST_PROXY="${value}" covers every ${family} address, so any client could choose its own address: give the number of proxies in front of QE or a list of their addresses or subnets (e.g. 10.0.0.2,10.1.0.0/16)`,
      ]);
    });

    it('merges the ranges to find a gap: a list that leaves one is taken, the same list closing it is refused', () => {
      expect(trust('0.0.0.0/1,128.0.0.0/2,192.0.0.0/3,224.0.0.0/4,240.0.0.0/5,248.0.0.0/6,252.0.0.0/7,254.0.0.0/8,255.0.0.0/9,255.128.0.0/10')).toHaveLength(10);
      expect(() => trust('0.0.0.0/1,128.0.0.0/2,192.0.0.0/3,224.0.0.0/4,240.0.0.0/5,248.0.0.0/6,252.0.0.0/7,254.0.0.0/7')).toThrow('covers every IPv4 address');
    });

    it.each(['true', 'yes', 'loopback', '10.0.0.0/33', 'fe80::/129', '10.0.0.0/', '10.0.0.1/8/8', '1.2.3', '10.0.0.0/255.0.0.0', 'fe80::1%eth0', ',', '10.0.0.1;10.0.0.2'])('refuses %j, which is no list of addresses, with the sentence alone', (value) => {
      let error: unknown;
      try {
        trust(value);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigError);
      const [problem] = (error as ConfigError).problems;
      expect(problem).toMatch(/^QE_TRUST_PROXY must be the number of proxies in front of QE or a list of their addresses or subnets \(e\.g\. 10\.0\.0\.2,10\.1\.0\.0\/16\); ".*" is neither$/);
    });
  });

  it('names every wrong setting at once, not only the first', () => {
    let error: unknown;
    try {
      readConfig({ PORT: 'eighty', LOG_LEVEL: 'loud', QE_GOOGLE_CLIENT_ID: 'id-without-secret' }, { dataDir: freshDir() });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'PORT="eighty" must be a whole number from 0 to 65535',
      'LOG_LEVEL="loud" must be one of fatal, error, warn, info, debug, trace, silent',
      'QE_GOOGLE_CLIENT_ID is set without QE_GOOGLE_CLIENT_SECRET: give both, or neither',
    ]);
  });

  it('writes nothing: reading the settings makes no folder and no secret', () => {
    const dataDir = freshDir();
    readConfig({}, { dataDir });
    expect(existsSync(dataDir)).toBe(false);
  });
});

describe('the data folder, made ready at start', () => {
  it('is made for QE alone, with a secret generated once and kept across starts', () => {
    const dataDir = freshDir();
    const first = openDataFolder(readConfig({}, { dataDir }));
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    const file = join(dataDir, 'secret.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(first.secret.length).toBeGreaterThanOrEqual(64);
    expect(readFileSync(file, 'utf8').trim()).toBe(first.secret);
    expect(openDataFolder(readConfig({}, { dataDir })).secret).toBe(first.secret);
  });

  it('keeps no secret file when QE_SECRET gives the secret', () => {
    const dataDir = freshDir();
    expect(openDataFolder(readConfig({ QE_SECRET: 'given-by-the-operator-0123456789ab' }, { dataDir })).secret).toBe('given-by-the-operator-0123456789ab');
    expect(existsSync(join(dataDir, 'secret.key'))).toBe(false);
  });
});

describe('starting QE with a wrong setting', () => {
  it('stops at once with the message alone, before touching the data folder', () => {
    const dataDir = freshDir();
    const env = { PATH: process.env.PATH, DATA_DIR: dataDir, PORT: '80a', QE_ANONYMOUS_MIX_SECONDS: '0', QE_TRUST_PROXY: '0.0.0.0/0', QE_SECRET: 'a'.repeat(32) };
    const started = spawnSync('node_modules/.bin/tsx', ['src/server/main.ts'], { env, encoding: 'utf8', timeout: 60_000 });
    expect(started.status).toBe(1);
    expect(started.stderr).toContain('QE cannot start:');
    expect(started.stderr).toContain('QE_TRUST_PROXY="0.0.0.0/0" covers every IPv4 address');
    expect(started.stderr).toContain('QE_SECRET must be at least 32 random characters');
    expect(started.stderr).not.toContain('a'.repeat(32));
    expect(started.stderr).toContain('PORT="80a" must be a whole number from 0 to 65535');
    expect(started.stderr).toContain('QE_ANONYMOUS_MIX_SECONDS="0" must be a whole number from 1 to 60');
    // a message for the operator, not a stack trace
    expect(started.stderr).not.toMatch(/^\s+at /m);
    expect(existsSync(dataDir)).toBe(false);
  }, 70_000);

  it('says which of PORT or HOST to put right when the system refuses to listen, without a stack trace', async () => {
    const taken = createServer();
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done));
    const port = (taken.address() as AddressInfo).port;
    try {
      const start = (env: Record<string, string>) => spawnSync('node_modules/.bin/tsx', ['src/server/main.ts'], { env: { PATH: process.env.PATH, DATA_DIR: freshDir(), QE_SCHEDULER_SECONDS: '0', LOG_LEVEL: 'silent', ...env }, encoding: 'utf8', timeout: 60_000 });
      const busy = start({ PORT: String(port), HOST: '127.0.0.1' });
      expect(busy.status).toBe(1);
      expect(busy.stderr.trim()).toBe(`QE cannot start: PORT=${port} is in use by another program on 127.0.0.1: give a free port, or stop that program`);
      const foreign = start({ PORT: '0', HOST: '192.0.2.77' });
      expect(foreign.status).toBe(1);
      expect(foreign.stderr.trim()).toBe('QE cannot start: HOST="192.0.2.77" is not an address of this machine: give 0.0.0.0 (every interface), 127.0.0.1 or one of its own addresses');
    } finally {
      taken.close();
    }
  }, 130_000);
});
