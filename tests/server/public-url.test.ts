import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.js';

// QE_PUBLIC_URL is where every link in a mail points, so a wrong one stops QE at start-up with
// a message that says what is wrong, rather than mailing broken links.
describe('QE_PUBLIC_URL', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'qe-public-url-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const load = (value: string | undefined) => loadConfig({ QE_PUBLIC_URL: value, QE_SECRET: 'test-secret' }, { dataDir }).publicUrl;

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
    expect(loadConfig({ QE_SECRET: 's' }, { dataDir, publicUrl: 'https://qe.test/' }).publicUrl).toBe('https://qe.test');
    expect(() => loadConfig({ QE_SECRET: 's' }, { dataDir, publicUrl: 'qe.test' })).toThrow(/QE_PUBLIC_URL/);
  });
});
