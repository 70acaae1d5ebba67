import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../../src/shared/errors.js';
import { instances, onPostgres } from '../instances.js';

/**
 * The public routes' limits per client address (src/server/plugins/address-limit.ts) are counted
 * in the database: with counts in process memory, 90 of 100 bad quick-login tries were accepted
 * through three instances (30 through each). Now N instances on one database allow together what
 * one allows — on SQLite the three "instances" are the one app.
 */
describe(`public routes' limits per address (${onPostgres ? 'three instances on one PostgreSQL' : 'one SQLite app'})`, () => {
  let t: Awaited<ReturnType<typeof instances>>;

  beforeAll(async () => {
    t = await instances(3);
  }, 120_000);
  afterAll(async () => t?.close());

  /** `count` calls at once, spread in turn over the instances, from `address`; the answers' codes. */
  const burst = async (count: number, url: string, payload: object, address: (i: number) => string) => {
    const answers = await Promise.all(
      Array.from({ length: count }, (_, i) => t.apps[i % t.apps.length].inject({ method: 'POST', url, payload, remoteAddress: address(i), headers: { 'accept-language': 'en' } })),
    );
    return answers.map((a) => ({ status: a.statusCode, code: a.json().code as number, retryAfter: a.headers['retry-after'] }));
  };
  const limited = <A extends { code: number; status: number }>(answers: A[]) => answers.filter((a) => a.status === 429 && a.code === ERRORS.RATE_LIMITED.code);

  it('100 bad quick-login tries from one address over three instances: 30 answered, 70 refused with 429 RATE_LIMITED', async () => {
    const answers = await burst(100, '/v1/quick-login', { token: 'not-a-link' }, () => '203.0.113.7');
    const refused = limited(answers);
    expect(refused).toHaveLength(70);
    // the 30 let through were read, and answered as the bad link they are
    expect(answers.filter((a) => a.status !== 429).map((a) => a.code)).toEqual(Array(30).fill(ERRORS.SESSION_EXPIRED.code));
    for (const r of refused) expect(Number(r.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(refused[0].retryAfter)).toBeLessThanOrEqual(60);
  });

  it("another address keeps its own count, while the same address's other spelling and the same IPv6 /64 share one", async () => {
    expect(limited(await burst(5, '/v1/quick-login', { token: 'x' }, () => '203.0.113.8'))).toHaveLength(0);
    // the IPv4 address mapped into IPv6 is the one already over its limit
    expect(limited(await burst(3, '/v1/quick-login', { token: 'x' }, () => '::ffff:203.0.113.7'))).toHaveLength(3);
    // a host taking a new address of its /64 for every try is counted as one
    const v6 = await burst(40, '/v1/quick-login', { token: 'x' }, (i) => `2001:db8:39:1::${(i + 1).toString(16)}`);
    expect(limited(v6)).toHaveLength(10);
  });

  it('the first-run form: 20 a minute per address over three instances, then 429', async () => {
    const answers = await burst(45, '/v1/init', {}, () => '198.51.100.4');
    expect(limited(answers)).toHaveLength(25);
  });
});
