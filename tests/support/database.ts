import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A fresh QE on a real database of its own: a new SQLite file in a temp folder, or, when
 * DATABASE_URL is set, a new PostgreSQL database created on that server and dropped at close.
 */
export async function createTestDatabase(): Promise<{ databaseUrl?: string; dataDir: string; drop(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'qe-test-'));
  const base = process.env.DATABASE_URL;
  if (!base) {
    if (process.env.REQUIRE_POSTGRES === '1') throw new Error('REQUIRE_POSTGRES=1 but DATABASE_URL is not set');
    return { dataDir, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const name = `qe_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    databaseUrl: url.toString(),
    dataDir,
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

