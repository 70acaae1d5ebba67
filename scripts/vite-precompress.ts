import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Text and TrueType fonts (not compressed inside, unlike WOFF2 or images). */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|ttf|txt|map)$/;
/** Below this a compressed copy saves less than a packet. */
const MIN_BYTES = 1024;

async function* files(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else yield path;
  }
}

/**
 * Writes `name.br` (brotli, best) and `name.gz` (gzip, best) beside every text file of the build,
 * once at build time, so the server sends them by Accept-Encoding without compressing on each
 * request (@fastify/static's preCompressed). A copy that is not smaller is not written.
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'qe-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async closeBundle() {
      const work: Promise<void>[] = [];
      for await (const path of files(outDir)) {
        if (!COMPRESSIBLE.test(path) || (await stat(path)).size < MIN_BYTES) continue;
        work.push((async () => {
          const content = await readFile(path);
          const [br, gzipped] = await Promise.all([
            brotli(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length } }),
            gz(content, { level: 9 }),
          ]);
          if (br.length < content.length) await writeFile(`${path}.br`, br);
          if (gzipped.length < content.length) await writeFile(`${path}.gz`, gzipped);
        })());
      }
      await Promise.all(work);
    },
  };
}
