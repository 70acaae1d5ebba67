import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'kysely';
import type { DB } from '../db/connect.js';
import { ERRORS, errorText, type ErrorKey } from '../../shared/errors.js';
import { BusinessError, requestLang } from './errors.js';
import type { WriteGate } from './write-gate.js';

/**
 * Where this instance is in its life, for a load balancer: serving; draining (SIGTERM: readiness
 * answers 503 so the balancer takes it out, while every call is still served); closing (no longer
 * accepting; calls still arriving on an open connection are told SERVER_CLOSING, untouched).
 */
export class InstanceState {
  private stage: 'serving' | 'draining' | 'closing' = 'serving';

  get draining(): boolean {
    return this.stage !== 'serving';
  }

  get closing(): boolean {
    return this.stage === 'closing';
  }

  drain(): void {
    if (this.stage === 'serving') this.stage = 'draining';
  }

  close(): void {
    this.stage = 'closing';
  }
}

/** A trivial query slower than this counts as a database that does not answer. */
export const READY_QUERY_MS = 1000;

async function databaseAnswers(db: DB): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), READY_QUERY_MS)));
  const asked = sql`select 1`.execute(db).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([asked, late]);
  } finally {
    clearTimeout(timer);
  }
}

// checked every few seconds by every balancer: neither logged per call nor kept by a cache
const probe = { config: { permission: 'public' as const }, logLevel: 'warn' as const, schema: { hide: true } };

/**
 * `GET /qe/health/live` (the process runs; no database) and `GET /qe/health/ready` (this
 * instance should be sent calls: its database answers, it is not draining and no restore holds
 * writes), for a load balancer's health checks. Also the closing instance's answer to a call that
 * still arrives: SERVER_CLOSING with `Connection: close`, before anything of it runs, so a
 * balancer may send it on to another instance.
 */
export const healthPlugin = fp<{ db: DB; gate: WriteGate; instance: InstanceState }>(async function health(app: FastifyInstance, { db, gate, instance }) {
  app.addHook('onRequest', (_request, reply, done) => {
    if (!instance.closing) return done();
    reply.header('connection', 'close');
    done(new BusinessError('SERVER_CLOSING'));
  });
  // while draining, no connection is kept for another call: the balancer opens a new one for the
  // next, which goes to an instance still in service once this one is taken out
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (instance.draining) reply.header('connection', 'close');
    done(null, payload);
  });

  const unready = (reply: FastifyReply, key: ErrorKey, lang: ReturnType<typeof requestLang>) =>
    reply.status(503).header('cache-control', 'no-store').send({ code: ERRORS[key].code, msg: errorText(key, lang), data: null });

  app.get('/qe/health/live', probe, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { code: 200, msg: 'success', data: { live: true } };
  });

  app.get('/qe/health/ready', probe, async (request, reply) => {
    const lang = requestLang(request);
    if (instance.draining) return unready(reply, 'SERVER_CLOSING', lang);
    if (gate.isClosed) return unready(reply, 'RESTORING', lang);
    if (!(await databaseAnswers(db))) return unready(reply, 'DATABASE_UNAVAILABLE', lang);
    reply.header('cache-control', 'no-store');
    return { code: 200, msg: 'success', data: { ready: true } };
  });
});
