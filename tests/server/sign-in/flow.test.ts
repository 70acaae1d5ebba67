import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { login, testApp, type TestApp } from '../harness.js';
import { browserKey, providerBody, startIssuer, type Issuer, type TokenAnswer } from '../../support/oidc-issuer.js';
import { SIGN_IN_ANSWERS } from '../../../src/shared/calls/sign-in.js';
import { bearer, call, CALLBACK, complete, data, fits, message, refused, signIn, signInConfig, start } from './helpers.js';

/**
 * The sign-in with a school account, end to end against a real OpenID Connect provider on
 * loopback (tests/support/oidc-issuer.ts): every refusal is made by the real flow, with the token
 * endpoint's answer changed on its way by the provider's relay where the case needs a hostile one.
 */
describe('sign-in with a school account', () => {
  let t: TestApp;
  let idp: Issuer;
  let su: Record<string, string>;
  let providerId: number;
  const id = async (username: string) => (await t.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;
  const school = (username: string, address: string | null) => t.db.updateTable('users').set({ school_account: address }).where('username', '=', username).execute();
  /** the refusal's reason as the message words it, for provider "School account" */
  const reason = (key: Parameters<typeof message>[0], why: string) => message(key, { provider: 'School account', reason: why });

  beforeAll(async () => {
    idp = await startIssuer({
      redirectUris: [CALLBACK],
      accounts: {
        amy: { email: 'Amy@School.edu.hk', email_verified: true, name: 'Amy Chan' },
        tom: { email: 'tom@school.edu.hk', email_verified: true, name: 'Tom' },
        ada: { email: 'ada@school.edu.hk', email_verified: true },
        dis: { email: 'dis@school.edu.hk', email_verified: true },
        unverified: { email: 'una@school.edu.hk', email_verified: false },
        outsider: { email: 'out@other.org', email_verified: true },
        nobody: { email: 'nobody@school.edu.hk', email_verified: true },
      },
    });
    t = await testApp({ demo: true, config: signInConfig() });
    su = bearer((await login(t.app, 'superadmin')).tk);
    providerId = data<{ id: number }>(await call(t.app, 'POST', '/v1/identity-providers', providerBody(idp, { roles: ['TEACHER', 'STUDENT'] }), su)).id;
    await school('student001', 'amy@school.edu.hk');
    await school('teacher01', 'tom@school.edu.hk');
    await school('admin', 'ada@school.edu.hk');
    await school('student002', 'dis@school.edu.hk');
    await t.db.updateTable('users').set({ active: 0 }).where('username', '=', 'student002').execute();
  });
  afterAll(async () => {
    await t?.close();
    await idp?.close();
  });
  beforeEach(() => {
    idp.relay.onToken = null;
    idp.relay.hang = false;
  });

  /** A sign-in of `account` whose token answer `change` rewrites on its way to QE. */
  async function withToken(account: string, change: (answer: TokenAnswer) => TokenAnswer | Promise<TokenAnswer>) {
    idp.relay.onToken = change;
    try {
      return await signIn(t.app, idp, providerId, account);
    } finally {
      idp.relay.onToken = null;
    }
  }

  it('lists the enabled providers for the login page', async () => {
    const options = await call(t.app, 'GET', '/v1/sign-in/options');
    fits(options, SIGN_IN_ANSWERS.options[200]);
    expect(data(options)).toEqual({ providers: [{ id: providerId, kind: 'oidc', nameHk: '學校帳戶', nameEn: 'School account' }] });
  });

  it('sends the browser to the provider with the code flow, PKCE S256, a random state and nonce, and QE’s callback', async () => {
    const a = await start(t.app, providerId);
    fits(a.res, SIGN_IN_ANSWERS.link[200]);
    const b = await start(t.app, providerId);
    const link = new URL(a.link);
    expect(`${link.origin}${link.pathname}`).toBe(`${idp.origin}/auth`);
    expect(Object.fromEntries(link.searchParams)).toMatchObject({ response_type: 'code', client_id: idp.clientId, redirect_uri: CALLBACK, scope: 'openid email profile', code_challenge_method: 'S256' });
    for (const p of ['state', 'nonce', 'code_challenge']) {
      expect(link.searchParams.get(p)).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(new URL(b.link).searchParams.get(p)).not.toBe(link.searchParams.get(p));
    }
    // the database keeps hashes of the state and the key, never the values
    const row = await t.db.selectFrom('sign_in_flows').selectAll().where('provider_id', '=', providerId).orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    expect(JSON.stringify(await t.db.selectFrom('sign_in_flows').selectAll().execute())).not.toContain(link.searchParams.get('state'));
    expect(row.browser_key_hash).not.toBe(a.key);
    expect(row.expires_at - row.created_at).toBe(10 * 60_000);
  });

  it('signs a pupil in by the school account (any case), opens a session as the password login does, and links the provider’s account', async () => {
    const before = await t.db.selectFrom('users').select(['login_time']).where('username', '=', 'student001').executeTakeFirstOrThrow();
    const res = await signIn(t.app, idp, providerId, 'amy', { headers: { 'accept-language': 'zh-HK' } });
    fits(res, SIGN_IN_ANSWERS.completed[200]);
    const done = data<{ purpose: string; tk: string; userId: number; returnTo: string | null }>(res);
    expect(done).toMatchObject({ purpose: 'sign-in', userId: await id('student001'), returnTo: null });
    const me = data<{ username: string; userType: string }>(await call(t.app, 'GET', '/v1/my/user-info', undefined, bearer(done.tk)));
    expect(me).toMatchObject({ username: 'student001', userType: 'STUDENT' });
    const user = await t.db.selectFrom('users').select(['login_time', 'last_login', 'language']).where('username', '=', 'student001').executeTakeFirstOrThrow();
    expect(user.login_time).not.toBe(before.login_time);
    expect(user.last_login).toBe(before.login_time);
    expect(user.language).toBe('zh-hk');
    const mine = await call(t.app, 'GET', '/v1/my/sign-in-links', undefined, bearer(done.tk));
    fits(mine, SIGN_IN_ANSWERS.links[200]);
    const links = data<{ email: string; providerId: number; linkedAt: string; lastUsedAt: string }[]>(mine);
    expect(links).toEqual([expect.objectContaining({ providerId, kind: 'oidc', email: 'amy@school.edu.hk', nameEn: 'School account' })]);
    expect(links[0].lastUsedAt).toBeTruthy();
  });

  it('finds a linked account by its link, whatever its school account says now', async () => {
    await school('student001', null);
    const done = data<{ userId: number }>(await signIn(t.app, idp, providerId, 'amy'));
    expect(done.userId).toBe(await id('student001'));
    await school('student001', 'amy@school.edu.hk');
  });

  it('keeps where the user meant to go — a reminder mail’s link with its query — and refuses any other host (422 returnTo)', async () => {
    const returnTo = '/qe/app/quick?token=abc.def-ghi&x=%2F%2F';
    const done = data<{ returnTo: string }>(await signIn(t.app, idp, providerId, 'tom', { returnTo }));
    expect(done.returnTo).toBe(returnTo);
    for (const hostile of ['https://evil.example/', '//evil.example', '/\\evil', '/\\\\evil.example/qe/', '/qe/../../evil', 'javascript:alert(1)', '/qe//evil.example', '/other/', 'qe/app', '/qe/\u0001x', ' //evil.example']) {
      const { res } = await start(t.app, providerId, browserKey(), hostile);
      expect(res.statusCode, hostile).toBe(422);
      expect(Object.keys(res.json().data), hostile).toEqual(['returnTo']);
    }
  });

  it('completes a state once: the same code and state again are refused', async () => {
    const { link, key } = await start(t.app, providerId);
    const back = await idp.signIn(link, 'tom');
    expect(data<{ purpose: string }>(await complete(t.app, { code: back.code, iss: back.iss, state: back.state, browserKey: key })).purpose).toBe('sign-in');
    const again = await complete(t.app, { code: back.code, iss: back.iss, state: back.state, browserKey: key });
    fits(again, SIGN_IN_ANSWERS.completed['4xx']);
    expect(refused(again, 'SIGN_IN_FLOW_INVALID')).toBe(message('SIGN_IN_FLOW_INVALID', {}));
  });

  it('refuses an answer naming another issuer, or none where this provider names itself (a mix-up of providers, RFC 9207), before the code is sent anywhere', async () => {
    for (const iss of ['https://evil.example', null]) {
      const { link, key } = await start(t.app, providerId);
      const back = await idp.signIn(link, 'tom');
      expect(back.iss).toBe(idp.issuer);
      const before = idp.tokens.length;
      const res = await complete(t.app, { code: back.code, iss, state: back.state, browserKey: key });
      expect(refused(res, 'SIGN_IN_TOKEN_INVALID')).toBe(
        reason('SIGN_IN_TOKEN_INVALID', `the answer came back naming the issuer ${iss ?? '—'}, but this sign-in was started with ${idp.issuer}`),
      );
      // the code never reached a token endpoint, and the flow is spent
      expect(idp.tokens.length).toBe(before);
      refused(await complete(t.app, { code: back.code, iss: back.iss, state: back.state, browserKey: key }), 'SIGN_IN_FLOW_INVALID');
    }
  });

  it('refuses a state QE never gave, another browser’s key (the flow stays for its own), and an expired flow', async () => {
    const { link, key } = await start(t.app, providerId);
    const back = await idp.signIn(link, 'tom');
    refused(await complete(t.app, { code: back.code, iss: back.iss, state: `${back.state}x`, browserKey: key }), 'SIGN_IN_FLOW_INVALID');
    refused(await complete(t.app, { code: back.code, iss: back.iss, state: back.state, browserKey: browserKey() }), 'SIGN_IN_FLOW_INVALID');
    expect(data<{ purpose: string }>(await complete(t.app, { code: back.code, iss: back.iss, state: back.state, browserKey: key })).purpose).toBe('sign-in');

    const late = await start(t.app, providerId);
    const lateBack = await idp.signIn(late.link, 'tom');
    await t.db.updateTable('sign_in_flows').set({ expires_at: Date.now() - 1 }).execute();
    refused(await complete(t.app, { code: lateBack.code, iss: lateBack.iss, state: lateBack.state, browserKey: late.key }), 'SIGN_IN_FLOW_INVALID');
  });

  it('of 200 simultaneous completions of one state, exactly one signs in', async () => {
    const { link, key } = await start(t.app, providerId);
    const back = await idp.signIn(link, 'tom');
    const body = { code: back.code, iss: back.iss, state: back.state, browserKey: key };
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => t.app.inject({ method: 'POST', url: '/v1/sign-in/complete', payload: body, remoteAddress: `10.20.${i >> 8}.${i & 255}`, headers: { 'accept-language': 'en' } })),
    );
    const codes = answers.map((r) => r.json().code as number);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c !== 200).every((c) => c === 771)).toBe(true);
  });

  describe('an ID token that fails a check is refused (774), naming what was wrong', () => {
    it('a changed signature', async () => {
      const res = await withToken('tom', (a) => {
        const [h, p, s] = a.id_token.split('.');
        const flipped = `${s[0] === 'A' ? 'B' : 'A'}${s.slice(1)}`;
        return { ...a, id_token: `${h}.${p}.${flipped}` };
      });
      expect(refused(res, 'SIGN_IN_TOKEN_INVALID')).toBe(reason('SIGN_IN_TOKEN_INVALID', "the ID token's signature does not match the keys the provider publishes"));
    });

    it('a token signed with a key the provider does not publish', async () => {
      const unknownKid = await withToken('tom', async (a) => ({ ...a, id_token: await idp.foreignSign(JSON.parse(Buffer.from(a.id_token.split('.')[1], 'base64url').toString()), 'attacker-key') }));
      expect(refused(unknownKid, 'SIGN_IN_TOKEN_INVALID')).toContain('the ID token is signed with a key the provider does not publish (kid attacker-key)');
      const sameKid = await withToken('tom', async (a) => ({ ...a, id_token: await idp.foreignSign(JSON.parse(Buffer.from(a.id_token.split('.')[1], 'base64url').toString())) }));
      expect(refused(sameKid, 'SIGN_IN_TOKEN_INVALID')).toContain("the ID token's signature does not match");
    });

    it('an expired token', async () => {
      const exp = Math.floor(Date.now() / 1000) - 3600;
      const res = await withToken('tom', async (a) => ({ ...a, id_token: await idp.resign(a.id_token, { exp, iat: exp - 600 }) }));
      expect(refused(res, 'SIGN_IN_TOKEN_INVALID')).toBe(reason('SIGN_IN_TOKEN_INVALID', `the ID token expired at ${new Date(exp * 1000).toISOString()}`));
    });

    it('another audience, another issuer, another authorized party', async () => {
      const aud = await withToken('tom', async (a) => ({ ...a, id_token: await idp.resign(a.id_token, { aud: 'another-client' }) }));
      expect(refused(aud, 'SIGN_IN_TOKEN_INVALID')).toBe(reason('SIGN_IN_TOKEN_INVALID', `the token's audience is another-client, the client id is ${idp.clientId}`));
      const iss = await withToken('tom', async (a) => ({ ...a, id_token: await idp.resign(a.id_token, { iss: 'https://evil.example' }) }));
      expect(refused(iss, 'SIGN_IN_TOKEN_INVALID')).toBe(reason('SIGN_IN_TOKEN_INVALID', `the token's issuer is https://evil.example, the provider's is ${idp.issuer}`));
      const azp = await withToken('tom', async (a) => ({ ...a, id_token: await idp.resign(a.id_token, { aud: [idp.clientId, 'another-client'], azp: 'another-client' }) }));
      expect(refused(azp, 'SIGN_IN_TOKEN_INVALID')).toContain(`the token was issued to another-client (azp), the client id is ${idp.clientId}`);
    });

    it('another sign-in’s nonce, and a token replayed from an earlier sign-in', async () => {
      const nonce = await withToken('tom', async (a) => ({ ...a, id_token: await idp.resign(a.id_token, { nonce: 'not-this-one' }) }));
      expect(refused(nonce, 'SIGN_IN_TOKEN_INVALID')).toContain("the ID token belongs to another sign-in (its nonce is not this sign-in's)");
      const earlier = idp.tokens[0];
      const replayed = await withToken('tom', () => earlier);
      expect(refused(replayed, 'SIGN_IN_TOKEN_INVALID')).toContain('its nonce is not');
    });

    it('no ID token at all', async () => {
      const res = await withToken('tom', (a) => ({ ...a, id_token: undefined as unknown as string }));
      expect(refused(res, 'SIGN_IN_PROVIDER_REFUSED')).toContain('answered no ID token');
    });
  });

  describe('the address and the account', () => {
    it('refuses an address the provider does not assert as verified, or one outside the school’s domains (775)', async () => {
      expect(refused(await signIn(t.app, idp, providerId, 'unverified'), 'SIGN_IN_ADDRESS_REFUSED')).toBe(
        message('SIGN_IN_ADDRESS_REFUSED', { provider: 'School account', reason: 'the provider does not assert that una@school.edu.hk is verified (email_verified: false)' }),
      );
      expect(refused(await signIn(t.app, idp, providerId, 'outsider'), 'SIGN_IN_ADDRESS_REFUSED')).toContain('the address out@other.org is outside the domains school.edu.hk');
      const claimless = await withToken('tom', async (a) => ({ ...a, id_token: await idp.resign(a.id_token, { email: undefined, email_verified: undefined }) }));
      expect(refused(claimless, 'SIGN_IN_ADDRESS_REFUSED')).toContain('the provider sent no address (no claim email)');
      // a look-alike of teacher01's school account: the Kelvin sign K lower-cases to k
      const kelvin = await withToken('tom', async (a) => ({ ...a, id_token: await idp.resign(a.id_token, { email: 'tom@school.edu.h\u212A' }) }));
      expect(refused(kelvin, 'SIGN_IN_ADDRESS_REFUSED')).toContain('the address tom@school.edu.h\u212A holds characters other than plain letters');
      expect((await t.db.selectFrom('sign_in_links').select('email').execute()).filter((l) => l.email?.includes('\u212A'))).toEqual([]);
    });

    it('an account key (sub) that is not a string', async () => {
      for (const sub of [{ id: 1 }, 42, '']) {
        const res = await withToken('tom', async (a) => ({ ...a, id_token: await idp.resign(a.id_token, { sub: sub as never }) }));
        expect(refused(res, 'SIGN_IN_TOKEN_INVALID'), JSON.stringify(sub)).toContain("the ID token's claim sub is not valid");
      }
    });

    it('tells an address no account has (776), in the caller’s language', async () => {
      expect(refused(await signIn(t.app, idp, providerId, 'nobody'), 'SIGN_IN_NO_ACCOUNT')).toBe(message('SIGN_IN_NO_ACCOUNT', { email: 'nobody@school.edu.hk' }));
      const hk = await signIn(t.app, idp, providerId, 'nobody', { headers: { 'accept-language': 'zh-HK' } });
      expect(hk.json().msg).toContain('沒有 QE 帳戶的學校帳戶是 nobody@school.edu.hk');
    });

    it('refuses a disabled account (701) and a type the provider may not sign in (777), linking neither', async () => {
      refused(await signIn(t.app, idp, providerId, 'dis'), 'ACCOUNT_DISABLED');
      expect(refused(await signIn(t.app, idp, providerId, 'ada'), 'SIGN_IN_ROLE_REFUSED')).toBe(message('SIGN_IN_ROLE_REFUSED', { provider: 'School account', userType: 'Administrator' }));
      const links = await t.db.selectFrom('sign_in_links').select('user_id').where('user_id', 'in', [await id('student002'), await id('admin')]).execute();
      expect(links).toEqual([]);
    });

    it('unlinked by an administrator, the next sign-in links the account again by its school account', async () => {
      const admin = bearer((await login(t.app, 'admin')).tk);
      const pupil = await id('student001');
      const [link] = data<{ id: number }[]>(await call(t.app, 'GET', `/v1/users/${pupil}/sign-in-links`, undefined, admin));
      expect(data(await call(t.app, 'DELETE', `/v1/users/${pupil}/sign-in-links/${link.id}`, undefined, admin))).toBeNull();
      expect(data(await call(t.app, 'GET', `/v1/users/${pupil}/sign-in-links`, undefined, admin))).toEqual([]);
      refused(await call(t.app, 'DELETE', `/v1/users/${pupil}/sign-in-links/${link.id}`, undefined, admin), 'RECORD_NOT_FOUND');
      // its school account moved to another pupil meanwhile: the address decides now
      await school('student001', null);
      await school('student003', 'amy@school.edu.hk');
      expect(data<{ userId: number }>(await signIn(t.app, idp, providerId, 'amy')).userId).toBe(await id('student003'));
      const relinked = data<{ email: string }[]>(await call(t.app, 'GET', `/v1/users/${await id('student003')}/sign-in-links`, undefined, admin));
      expect(relinked).toEqual([expect.objectContaining({ providerId, email: 'amy@school.edu.hk' })]);
    });

    it('shows links to who may see the account: an administrator a pupil’s and a teacher’s, not the super administrator’s; a teacher none', async () => {
      const admin = bearer((await login(t.app, 'admin')).tk);
      const teacher = bearer((await login(t.app, 'teacher01')).tk);
      expect(data<unknown[]>(await call(t.app, 'GET', `/v1/users/${await id('teacher01')}/sign-in-links`, undefined, admin)).length).toBe(1);
      refused(await call(t.app, 'GET', `/v1/users/${await id('superadmin')}/sign-in-links`, undefined, admin), 'PERMISSION_DENIED');
      expect(data(await call(t.app, 'GET', `/v1/users/${await id('superadmin')}/sign-in-links`, undefined, su))).toEqual([]);
      refused(await call(t.app, 'GET', `/v1/users/${await id('student003')}/sign-in-links`, undefined, teacher), 'PERMISSION_DENIED');
      refused(await call(t.app, 'GET', '/v1/users/999999/sign-in-links', undefined, admin), 'RECORD_NOT_FOUND');
    });
  });
});

/**
 * Wrong passwords typed for an account (by anyone who knows its username) do not refuse its
 * owner's sign-in with the school account, whose ID token the provider signed; nor does that
 * sign-in clear the password count a guesser has run up.
 */
describe('sign-in with a school account after wrong passwords for the account', () => {
  const MAX = 3;
  let t: TestApp;
  let idp: Issuer;

  beforeAll(async () => {
    idp = await startIssuer({ redirectUris: [CALLBACK], accounts: { tom: { email: 'tom@school.edu.hk', email_verified: true } } });
    t = await testApp({ demo: true, config: signInConfig({}, { loginMaxFailures: MAX }) });
    await t.db.updateTable('users').set({ school_account: 'tom@school.edu.hk' }).where('username', '=', 'teacher01').execute();
  });
  afterAll(async () => {
    await t?.close();
    await idp?.close();
  });

  it('the teacher signs in with the school account although the password limit is used up, which stays used up', async () => {
    const su = bearer((await login(t.app, 'superadmin')).tk);
    const providerId = data<{ id: number }>(await call(t.app, 'POST', '/v1/identity-providers', providerBody(idp), su)).id;
    const password = (value: string) => t.app.inject({ method: 'POST', url: '/v1/login', remoteAddress: '10.7.7.7', headers: { 'accept-language': 'en' }, payload: { username: 'teacher01', password: value } });
    for (let i = 0; i < MAX; i++) refused(await password('wrong-guess'), 'LOGIN_FAILED');
    refused(await password('wrong-guess'), 'LOGIN_RATE_LIMITED');

    const teacher = (await t.db.selectFrom('users').select('id').where('username', '=', 'teacher01').executeTakeFirstOrThrow()).id;
    expect(data<{ userId: number }>(await signIn(t.app, idp, providerId, 'tom')).userId).toBe(teacher);
    // linked now: signing in again goes through as well
    expect(data<{ userId: number }>(await signIn(t.app, idp, providerId, 'tom')).userId).toBe(teacher);
    // the sign-in gave the guesser no fresh guesses: even the right password waits for the window
    refused(await password('Passw0rd!'), 'LOGIN_RATE_LIMITED');
  });
});
