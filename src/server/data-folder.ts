import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config, Settings } from './config.js';
import { ownerOnlyFile, ownerOnlyFolder } from './db/files.js';

/**
 * The data folder made ready as QE starts (main.ts, the backup commands): made if missing and
 * closed to other users, and the signing secret taken from QE_SECRET or, without it, from
 * DATA_DIR/secret.key — generated there once, so restarts keep everyone's sessions. This is the
 * only place starting QE writes before the database opens; reading the settings writes nothing.
 */
export function openDataFolder(settings: Settings): Config {
  ownerOnlyFolder(settings.dataDir);
  return { ...settings, secret: settings.secret ?? keptSecret(settings.dataDir) };
}

function keptSecret(dataDir: string): string {
  const file = join(dataDir, 'secret.key');
  if (existsSync(file)) {
    ownerOnlyFile(file);
    const secret = readFileSync(file, 'utf8').trim();
    if (secret) return secret;
  }
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  return secret;
}
