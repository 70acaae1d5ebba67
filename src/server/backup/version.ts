import { readFileSync } from 'node:fs';

/** QE's version (package.json), read once: the manifest of every archive names it. */
export const QE_VERSION: string = (() => {
  for (const path of ['../../../package.json', '../../../../package.json']) {
    try {
      return String((JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as { version?: string }).version ?? '0.0.0');
    } catch {
      // compiled (dist/node/server/backup) or run from source (src/server/backup): one of the two is there
    }
  }
  return '0.0.0';
})();
