import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, errorText } from '../../../src/shared/errors.js';
import { trustedProxies } from '../../../src/server/config.js';
import { bearer, login, testApp, type TestApp } from '../harness.js';

const PASSWORD = 'Passw0rd!';

/** Attacks on the password checks: bursts of guesses, old-password guessing, shared addresses, forged proxies. */
describe('login limits under attack', () => {
  let t: TestApp;
  beforeAll(async () => {
    // the shipped defaults: 10 failures per account, 1,000 per address, 15 minutes
    t = await testApp({ demo: true });
  });
  afterAll(async () => t?.close());

  const attempt = (username: string, password: string, remoteAddress = '127.0.0.1') =>
    t.app.inject({ method: 'POST', url: '/v1/login', payload: { username, password }, remoteAddress });

  it('checks at most the configured number of 200 simultaneous wrong guesses for one account, and then refuses the right password', async () => {
    expect(t.config.loginMaxFailures).toBe(10);
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => attempt('teacher01', `guess-${i}`)));
    const codes = answers.map((r) => r.json().code);
    const checked = codes.filter((c) => c === ERRORS.LOGIN_FAILED.code).length;
    const refused = codes.filter((c) => c === ERRORS.LOGIN_RATE_LIMITED.code).length;
    expect(checked).toBeLessThanOrEqual(t.config.loginMaxFailures);
    expect(checked + refused).toBe(200);
    for (const r of answers.filter((a) => a.json().code === 702)) expect(r.statusCode).toBe(429);

    // the right password, sent after the burst — and inside one: the tries of a burst are counted
    // in whatever order the database takes them (PostgreSQL on several connections), so the right
    // one is checked only if it is among the first ten counted; never more than ten are checked
    expect((await attempt('teacher01', PASSWORD)).json().code).toBe(702);
    const burst = await Promise.all([...Array.from({ length: 20 }, (_, i) => attempt('teacher02', `guess-${i}`)), attempt('teacher02', PASSWORD)]);
    const burstCodes = burst.map((r) => r.json().code);
    expect(burstCodes.filter((c) => c === 700 || c === 200).length).toBeLessThanOrEqual(10);
    expect(burstCodes.filter((c) => c === 702).length).toBeGreaterThanOrEqual(11);
    expect((await attempt('teacher02', PASSWORD)).json().code).toBe(burstCodes.at(-1) === 200 ? 200 : 702);

    // until the window has passed
    const windowMs = t.config.loginWindowMinutes * 60_000;
    await t.db.updateTable('login_failures').set({ window_start: Date.now() - windowMs - 1000 }).where('key', 'in', ['account:teacher01', 'account:teacher02']).execute();
    expect((await attempt('teacher01', PASSWORD)).json().code).toBe(200);
    expect((await attempt('teacher02', PASSWORD)).json().code).toBe(200);
  });

  it('does not lock a class out of one shared address because one pupil kept mistyping', async () => {
    const school = '203.0.113.7';
    const mistakes = await Promise.all(Array.from({ length: 150 }, (_, i) => attempt('student010', `typo-${i}`, school)));
    expect(mistakes.filter((r) => r.json().code === 700).length).toBeLessThanOrEqual(10);
    // the rest of the class, behind the same router, logs in
    for (const name of ['student011', 'student012', 'student013', 'student014', 'student015']) {
      expect((await attempt(name, PASSWORD, school)).json().code, name).toBe(200);
    }
    // and a few more pupils mistype once each before getting it right
    for (const name of ['student016', 'student017', 'student018']) {
      expect((await attempt(name, 'typo', school)).json().code).toBe(700);
      expect((await attempt(name, PASSWORD, school)).json().code).toBe(200);
    }
  });

  it('stops an address that sprays guesses over many accounts at the per-address ceiling', async () => {
    const sprayer = '198.51.100.9';
    await t.db.insertInto('login_failures').values({ key: `address:${sprayer}`, count: t.config.loginMaxFailuresPerAddress, window_start: Date.now() }).execute();
    const res = await attempt('student020', PASSWORD, sprayer);
    expect(res.json().code).toBe(702);
    // another address is not affected
    expect((await attempt('student020', PASSWORD, '198.51.100.10')).json().code).toBe(200);
  });

  it("limits guesses of the old password when changing one's password, also in a burst", async () => {
    const { tk } = await login(t.app, 'teacher05');
    const change = (oldPassword: string) =>
      t.app.inject({ method: 'POST', url: '/v1/change-password', headers: bearer(tk), payload: { oldPassword, newPassword: 'N3wSecret' } });
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => change(`guess-${i}`)));
    const wrong = answers.filter((r) => r.statusCode === 422);
    const refused = answers.filter((r) => r.json().code === 702);
    expect(wrong.length).toBeLessThanOrEqual(t.config.loginMaxFailures);
    expect(wrong.length + refused.length).toBe(60);
    expect(refused[0].statusCode).toBe(429);
    expect(refused[0].json().msg).toBe(errorText('PASSWORD_RATE_LIMITED', 'zh-hk').replace('%{minutes}', String(t.config.loginWindowMinutes)));
    // the right old password is refused too until the window has passed; the password is unchanged
    expect((await change(PASSWORD)).json().code).toBe(702);
    expect((await attempt('teacher05', PASSWORD)).json().code).toBe(200);
  });
});

describe('client addresses behind a reverse proxy', () => {
  it('reads QE_TRUST_PROXY as a hop count or a list of proxy addresses, and refuses "believe everyone"', () => {
    expect(trustedProxies(undefined)).toBe(false);
    expect(trustedProxies('')).toBe(false);
    expect(trustedProxies('0')).toBe(false);
    expect(trustedProxies('1')).toBe(1);
    expect(trustedProxies('2')).toBe(2);
    expect(trustedProxies('10.0.0.2, 10.1.0.0/16,::1')).toEqual(['10.0.0.2', '10.1.0.0/16', '::1']);
    expect(() => trustedProxies('true')).toThrow(/QE_TRUST_PROXY/);
    expect(() => trustedProxies('proxy.school.local')).toThrow(/QE_TRUST_PROXY/);
  });

  for (const [setting, value] of [['one proxy in front', 1], ['the proxy by address', ['127.0.0.1']]] as const) {
    describe(setting, () => {
      let t: TestApp;
      beforeAll(async () => {
        t = await testApp({ demo: true, config: { trustProxy: value as number | string[], loginMaxFailures: 3 } });
      });
      afterAll(async () => t?.close());

      it('takes the address the proxy saw, so a forged X-Forwarded-For does not escape the limit', async () => {
        // the proxy (127.0.0.1) appends the address it saw; whatever the client wrote before it is ignored
        const answers = [];
        for (let i = 0; i < 8; i++) {
          answers.push(
            await t.app.inject({
              method: 'POST',
              url: '/v1/login',
              remoteAddress: '127.0.0.1',
              headers: { 'x-forwarded-for': `10.9.${i}.${i}, 192.0.2.44` },
              payload: { username: `nobody-${i}`, password: 'wrong-password' },
            }),
          );
        }
        expect(answers.map((r) => r.json().code).every((c) => c === 700)).toBe(true);
        const rows = await t.db.selectFrom('login_failures').select(['key', 'count']).where('key', 'like', 'address:%').execute();
        expect(rows).toEqual([{ key: 'address:192.0.2.44', count: 8 }]);
      });
    });
  }

  describe('a list that trusts everyone, however it is spelled', () => {
    const everyone = ['0.0.0.0/1,128.0.0.0/1', '0.0.0.0/0', '::/0', '::/1,8000::/1', '::ffff:0:0/96', '10.0.0.2,128.0.0.0/1,0.0.0.0/2,64.0.0.0/2'];
    let t: TestApp;
    // what a school may give: its proxy and its own subnets; the attacker is outside them
    const accepted = trustedProxies('10.0.0.2,172.16.0.0/12,fd00::/8');
    beforeAll(async () => {
      t = await testApp({ demo: true, config: { trustProxy: accepted, loginMaxFailures: 3, loginMaxFailuresPerAddress: 5 } });
    });
    afterAll(async () => t?.close());

    it('cannot be given: each spelling of "every address" is refused', () => {
      for (const value of everyone) expect(() => trustedProxies(value), value).toThrow(/^QE_TRUST_PROXY=".*" covers every IPv[46] address/);
    });

    it('so a peer outside the proxies forging X-Forwarded-For is counted by its own address and stopped at the per-address limit', async () => {
      const codes: number[] = [];
      for (let i = 0; i < 40; i++) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/v1/login',
          // every other try over IPv6's mapped form, as a dual-stack listener sees IPv4 peers
          remoteAddress: i % 2 ? '::ffff:203.0.113.7' : '203.0.113.7',
          headers: { 'x-forwarded-for': `10.0.0.2, 172.16.${i}.${i + 1}` },
          payload: { username: `nobody-${i}`, password: 'wrong-password' },
        });
        codes.push(res.json().code);
      }
      // 5 checked and refused as wrong, the other 35 refused unchecked: the limit held
      expect(codes.filter((c) => c === 700)).toHaveLength(5);
      expect(codes.filter((c) => c === 702)).toHaveLength(35);
      const keys = (await t.db.selectFrom('login_failures').select('key').where('key', 'like', 'address:%').execute()).map((r) => r.key);
      expect(keys).toEqual(['address:203.0.113.7']);
      // the right password from that address is refused too; from the proxy, a pupil gets in
      expect((await t.app.inject({ method: 'POST', url: '/v1/login', remoteAddress: '203.0.113.7', payload: { username: 'student030', password: PASSWORD } })).json().code).toBe(702);
      const viaProxy = await t.app.inject({ method: 'POST', url: '/v1/login', remoteAddress: '10.0.0.2', headers: { 'x-forwarded-for': '172.16.5.9' }, payload: { username: 'student030', password: PASSWORD } });
      expect(viaProxy.json().code).toBe(200);
    });

    it('counts an IPv6 peer by its /64: taking a new address of its own block for every try does not escape either', async () => {
      const codes: number[] = [];
      for (let i = 0; i < 12; i++) {
        const res = await t.app.inject({ method: 'POST', url: '/v1/login', remoteAddress: `2001:db8:7:9:${i.toString(16)}::${i + 1}`, payload: { username: `someone-${i}`, password: 'wrong-password' } });
        codes.push(res.json().code);
      }
      expect(codes.filter((c) => c === 700)).toHaveLength(5);
      expect(codes.slice(5).every((c) => c === 702)).toBe(true);
      // the next block is someone else
      expect((await t.app.inject({ method: 'POST', url: '/v1/login', remoteAddress: '2001:db8:7:a::1', payload: { username: 'student031', password: PASSWORD } })).json().code).toBe(200);
    });
  });
});
