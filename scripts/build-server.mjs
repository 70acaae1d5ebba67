// The server as plain JavaScript (npm run build:server): TypeScript compiled by tsc into
// dist/node (tsconfig.server.json), then the files tsc does not carry — the workbook reader's
// worker modules (.mjs) and anything else under src/server that is not TypeScript — copied beside.
import { execFileSync } from 'node:child_process';
import process from 'node:process';
import { cpSync, readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createRequire } from 'node:module';

const OUT = 'dist/node';
rmSync(OUT, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.server.json'], { stdio: 'inherit' });

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else yield path;
  }
}
for (const path of files('src/server')) {
  if (path.endsWith('.ts')) continue;
  const target = join(OUT, relative('src', path));
  cpSync(path, target);
}
