import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { Config } from '../config.js';
import { createClient } from '../db/pool.js';

/** Rows read in pages of this many; between pages the event loop serves everyone else. */
const PAGE = 1000;
/**
 * On SQLite, whose reads answer within the turn, a page also ends once it has been read this
 * long: a thousand replies with their answers took 57 ms of one turn, and the page's JSON as much again.
 */
const PAGE_MS = 8;

export type Row = Record<string, unknown>;

/**
 * One consistent view of the whole database for a backup, on a connection of its own so the
 * server's own queries and writes go on beside it: SQLite — a read transaction on a second,
 * read-only connection (WAL keeps its snapshot while the server writes); PostgreSQL — a
 * REPEATABLE READ, READ ONLY transaction read through cursors.
 */
export interface Snapshot {
  database: 'sqlite' | 'postgres';
  /** the names of the migrations applied, in order */
  migrations(): Promise<string[]>;
  /** the tables the database has (one of an earlier level lacks those added since) */
  tables(): Promise<Set<string>>;
  /** about how many rows the table has, for the progress bar (the manifest counts what is written) */
  estimate(table: string): Promise<number>;
  /** the table's rows, a page at a time, in the order of `orderBy` (columns) or as stored */
  pages(table: string, orderBy?: string): AsyncGenerator<Row[]>;
  close(): Promise<void>;
}

const pause = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function openSnapshot(config: Pick<Config, 'databaseUrl' | 'dataDir'>): Promise<Snapshot> {
  return config.databaseUrl ? postgresSnapshot(config.databaseUrl) : sqliteSnapshot(join(config.dataDir, 'qe.sqlite'));
}

function sqliteSnapshot(file: string): Snapshot {
  const conn = new SQLite(file, { readonly: true, fileMustExist: true });
  conn.pragma('busy_timeout = 5000');
  // the snapshot starts with the first read and holds until the end
  conn.prepare('begin').run();
  conn.prepare('select count(*) from sqlite_master').get();
  return {
    database: 'sqlite',
    async migrations() {
      return (conn.prepare('select name from kysely_migration order by name').all() as { name: string }[]).map((r) => r.name);
    },
    async tables() {
      return new Set((conn.prepare("select name from sqlite_master where type = 'table'").all() as { name: string }[]).map((r) => r.name));
    },
    async estimate(table) {
      // counting millions of answer rows would hold the event loop: replies × answer rows per reply of a sample
      if (table === 'reply_answers') {
        const replies = Number((conn.prepare('select count(*) as n from replies').get() as { n: number }).n);
        const sample = conn.prepare('select count(*) as rows, count(distinct reply_id) as replies from reply_answers where reply_id in (select id from replies limit 50)').get() as { rows: number; replies: number };
        return sample.replies ? Math.round((replies * sample.rows) / sample.replies) : 0;
      }
      return Number((conn.prepare(`select count(*) as n from "${table}"`).get() as { n: number }).n);
    },
    async *pages(table, orderBy) {
      // a WITHOUT ROWID table (reply_answers) is named by its key; the others by rowid
      const rows = conn.prepare(`select * from "${table}" order by ${orderBy ?? 'rowid'}`).iterate() as IterableIterator<Row>;
      let page: Row[] = [];
      let started = performance.now();
      for (const row of rows) {
        page.push(row);
        if (page.length === PAGE || (page.length % 32 === 0 && performance.now() - started > PAGE_MS)) {
          yield page;
          page = [];
          await pause();
          started = performance.now();
        }
      }
      if (page.length) yield page;
    },
    async close() {
      try {
        conn.prepare('commit').run();
      } finally {
        conn.close();
      }
    },
  };
}

async function postgresSnapshot(url: string): Promise<Snapshot> {
  const client = createClient({ connectionString: url });
  await client.connect();
  await client.query('begin isolation level repeatable read read only');
  let cursors = 0;
  return {
    database: 'postgres',
    async migrations() {
      return (await client.query<{ name: string }>('select name from kysely_migration order by name')).rows.map((r) => r.name);
    },
    async tables() {
      return new Set((await client.query<{ name: string }>('select table_name as name from information_schema.tables where table_schema = current_schema()')).rows.map((r) => r.name));
    },
    async estimate(table) {
      return Number((await client.query<{ n: string }>(`select count(*) as n from "${table}"`)).rows[0].n);
    },
    async *pages(table, orderBy) {
      const cursor = `qe_backup_${++cursors}`;
      const order = orderBy ?? ((await hasId(client, table)) ? 'id' : '1');
      await client.query(`declare ${cursor} no scroll cursor for select * from "${table}" order by ${order}`);
      try {
        for (;;) {
          const { rows } = await client.query<Row>(`fetch ${PAGE} from ${cursor}`);
          if (!rows.length) break;
          yield rows;
          if (rows.length < PAGE) break;
        }
      } finally {
        await client.query(`close ${cursor}`);
      }
    },
    async close() {
      try {
        await client.query('commit');
      } finally {
        await client.end();
      }
    },
  };
}

async function hasId(client: pg.Client, table: string): Promise<boolean> {
  const { rows } = await client.query(`select 1 from information_schema.columns where table_schema = current_schema() and table_name = $1 and column_name = 'id'`, [table]);
  return rows.length > 0;
}
