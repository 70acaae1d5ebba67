import pg from 'pg';

/**
 * How long a request waits for a connection to PostgreSQL before it is told to try again
 * (DATABASE_UNAVAILABLE): long enough for a burst to queue behind the pool, short enough that
 * a request does not hang while the server is down.
 */
export const CONNECT_TIMEOUT_MS = 10_000;

/**
 * A pg pool that never ends the process on an 'error' event. pg-pool listens for a client's
 * 'error' only while it is idle: a backend terminated (pg_terminate_backend, a server restart)
 * while a client is checked out emits 'error' with no listener, and Node ends the process. Every
 * client gets a listener of its own when it connects; the query under way is rejected anyway
 * (mapped to DATABASE_UNAVAILABLE), and the pool drops the broken client when it is released.
 */
export function createPool(options: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool({ connectionTimeoutMillis: CONNECT_TIMEOUT_MS, ...options });
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  return pool;
}

/** A lone pg client (a backup's snapshot) with the same listener: its failure rejects its queries, never the process. */
export function createClient(options: pg.ClientConfig): pg.Client {
  const client = new pg.Client({ connectionTimeoutMillis: CONNECT_TIMEOUT_MS, ...options });
  client.on('error', () => undefined);
  return client;
}
