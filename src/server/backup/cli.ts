import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { ConfigError, readConfig } from '../config.js';
import { openDataFolder } from '../data-folder.js';
import { createDb, isPostgres } from '../db/connect.js';
import { WriteGate } from '../plugins/write-gate.js';
import { RestoreHolds } from './restore-hold.js';
import { migrateToLatest } from '../db/migrate.js';
import { ArchiveRefused } from './read.js';
import { BusinessError } from '../plugins/errors.js';
import { errorText } from '../../shared/errors.js';
import { restoreArchive } from './restore.js';
import { writeBackup } from './write.js';
import { olderNodeProblem } from '../node-version.js';

/**
 * The operator's commands (README "Backup and restore"), on the database DATABASE_URL names
 * (SQLite in DATA_DIR without it), the server stopped or running:
 *   npm run backup -- --out FILE [--passphrase-env VAR]
 *   npm run restore -- FILE [--passphrase-env VAR] [--yes]
 * The passphrase comes from an environment variable, never the command line (ps would show it).
 */
function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

function passphraseOf(args: string[]): string | undefined {
  const variable = option(args, '--passphrase-env');
  if (!variable) return undefined;
  const value = process.env[variable];
  if (!value) throw new Error(`--passphrase-env ${variable}: that environment variable is empty`);
  return value;
}

const REASONS: Record<string, string> = {
  foreign: 'this file is not a QE backup',
  corrupt: 'the backup file is damaged or incomplete',
  tampered: 'the backup does not match its manifest (it may have been changed)',
  passphrase: 'the passphrase is wrong, or the backup was changed',
  passphraseNeeded: 'the backup is encrypted: give its passphrase with --passphrase-env VAR',
  newer: 'the backup was made by a newer QE: update QE first',
  content: 'the backup holds content QE does not accept',
  expands: 'the backup unpacks to far more than its size: it is not a normal backup',
  checking: 'another backup file is being checked: try again in a moment',
  school: 'the backup is of another school, or not made by this QE',
};

export async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  const older = olderNodeProblem();
  if (older) {
    console.error(older);
    return 1;
  }
  const config = openDataFolder(readConfig());
  const where = config.databaseUrl ? 'PostgreSQL' : `SQLite in ${config.dataDir}`;
  if (command === 'backup') {
    const out = option(args, '--out');
    if (!out) {
      console.error('usage: npm run backup -- --out FILE [--passphrase-env VAR]');
      return 2;
    }
    if (!config.databaseUrl && !existsSync(join(config.dataDir, 'qe.sqlite'))) {
      console.error(`there is no QE database in ${config.dataDir}: set DATA_DIR (or DATABASE_URL) to the school's`);
      return 1;
    }
    const started = Date.now();
    const manifest = await writeBackup(config, resolve(out), { passphrase: passphraseOf(args) });
    const rows = Object.values(manifest.tables).reduce((a, b) => a + b, 0);
    console.log(`backup of ${where} written to ${resolve(out)}: ${rows} rows, ${manifest.files} files, ${Date.now() - started} ms`);
    return 0;
  }
  if (command === 'restore') {
    const file = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--passphrase-env');
    if (!file || !existsSync(file)) {
      console.error('usage: npm run restore -- FILE [--passphrase-env VAR] [--yes]');
      return 2;
    }
    if (!args.includes('--yes')) {
      if (!process.stdin.isTTY) {
        console.error(`restore replaces every record of ${where}: run again with --yes to confirm`);
        return 2;
      }
      const rl = createInterface({ input: process.stdin, output: process.stdout });
      const answer = await rl.question(`Replace every record of ${where} with ${file}? Type "restore" to go on: `);
      rl.close();
      if (answer.trim() !== 'restore') return 1;
    }
    const db = createDb(config);
    // on PostgreSQL this command is an instance too while it restores: the running instances hold
    // their writes for its swap, and no start takes its staging schema for a dead one's
    const gate = new WriteGate();
    const holds = new RestoreHolds(db, gate, isPostgres(db));
    try {
      await migrateToLatest(db);
      await holds.start();
      const result = await restoreArchive(db, config, resolve(file), { passphrase: passphraseOf(args), instanceId: holds.instanceId, holdWrites: () => gate.holdEverywhere(60_000) });
      console.log(`restored ${result.rows} rows of ${result.tables} tables into ${where}; every session has ended`);
      return 0;
    } catch (error) {
      if (error instanceof ArchiveRefused) {
        console.error(`not restored — ${REASONS[error.reason]}${error.detail ? ` (${error.detail})` : ''}; the current data is unchanged`);
        return 1;
      }
      // a file that is not an image QE stores (766), and the like: the server's own English text
      if (error instanceof BusinessError) {
        console.error(`not restored — ${errorText(error.key, 'en', error.params)}`);
        return 1;
      }
      throw error;
    } finally {
      await holds.stop();
      await db.destroy();
    }
  }
  console.error('usage: backup --out FILE | restore FILE');
  return 2;
}

if (process.argv[1] && /backup[\\/]cli\.(ts|js)$/.test(process.argv[1])) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof ConfigError ? error.message : error);
      process.exit(1);
    },
  );
}
