import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { quickLink } from '../../../src/server/filling/quick.js';
import { signInStamp } from '../../../src/server/auth/sign-in-stamp.js';
import type { Config } from '../../../src/server/config.js';
import { bearer, testApp, type TestApp } from '../harness.js';
import { as, classId, classStudents, processing } from '../questionnaires/helpers.js';

// /app/quick: the link of a reminder mail logs its respondent into that questionnaire only.
describe('reminder links', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
  });
  afterAll(async () => t?.close());

  const quickLogin = (token: string) => t.app.inject({ method: 'POST', url: '/v1/quick-login', payload: { token } });
  const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
  /** The link a reminder to `userId` carries (the account's sign-in stamp read as the mail does). */
  const linkOf = async (userId: number, questionnaireId: number, endDate: string | null, config: Config = t.config) =>
    quickLink(config, 'http://qe.test', userId, questionnaireId, endDate, (await signInStamp(t.db, userId))!);

  it('opens a session that reaches that questionnaire and nothing else', async () => {
    const teacher = await as(t, 'teacher01');
    const q = await processing(teacher, [{ kind: 'CLASS', ids: [await classId(t.db, '1A')] }]);
    const other = await processing(teacher, [{ kind: 'CLASS', ids: [await classId(t.db, '1A')] }]);
    const [student] = await classStudents(t.db, '1A');
    const link = await linkOf(student, q.id, q.endDate);
    expect(link).toMatch(/^http:\/\/qe\.test\/qe\/app\/quick\?token=/);

    const res = await quickLogin(tokenOf(link));
    expect(res.json()).toMatchObject({ code: 200, data: { userId: student, questionnaireId: q.id } });
    const headers = bearer(res.json().data.tk);
    const get = (url: string) => t.app.inject({ method: 'GET', url, headers });
    expect((await get(`/v1/my/questionnaires/${q.id}`)).json().code).toBe(200);
    expect((await get('/v1/my/user-info')).json().code).toBe(200);
    const reply = await t.app.inject({ method: 'POST', url: `/v1/my/questionnaires/${q.id}/replies`, headers, payload: { submissionKey: 'quick-key-1', answers: { q1: 'Music' } } });
    expect(reply.json().code).toBe(200);
    // not the other questionnaire, not the list, not anything of the staff side
    expect((await get(`/v1/my/questionnaires/${other.id}`)).json().code).toBe(405);
    expect((await get('/v1/my/questionnaires')).json().code).toBe(405);
    expect((await get('/v1/school-years')).json().code).toBe(405);
    expect((await t.app.inject({ method: 'POST', url: '/v1/change-password', headers, payload: { oldPassword: 'Passw0rd!', newPassword: 'Other123' } })).json().code).toBe(405);
  });

  it('refuses a tampered, expired or foreign link', async () => {
    const teacher = await as(t, 'teacher01');
    const q = await processing(teacher, [{ kind: 'CLASS', ids: [await classId(t.db, '1B')] }]);
    const [student] = await classStudents(t.db, '1B');
    const [outsider] = await classStudents(t.db, '2A');
    const good = tokenOf(await linkOf(student, q.id, q.endDate));
    expect((await quickLogin(`${good.slice(0, -3)}abc`)).json().code).toBe(401);
    const expired = tokenOf(await linkOf(student, q.id, new Date(Date.now() - 60_000).toISOString()));
    expect((await quickLogin(expired)).json().code).toBe(401);
    const foreign = tokenOf(await linkOf(student, q.id, q.endDate, { ...t.config, secret: 'another-secret-of-another-school' }));
    expect((await quickLogin(foreign)).json().code).toBe(401);
    const notAsked = tokenOf(await linkOf(outsider, q.id, q.endDate));
    expect((await quickLogin(notAsked)).json().code).toBe(405);
    // a link of another account's stamp, or one made before links carried a stamp
    const [classmate] = (await classStudents(t.db, '1B')).slice(1);
    const stampOfAnother = tokenOf(await quickLink(t.config, 'http://qe.test', student, q.id, q.endDate, (await signInStamp(t.db, classmate))!));
    expect((await quickLogin(stampOfAnother)).json().code).toBe(401);
    const unstamped = await new SignJWT({ purpose: 'qe-quick', uid: student, qid: q.id }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(new TextEncoder().encode(`${t.config.secret}:quick-link`));
    expect((await quickLogin(unstamped)).json().code).toBe(401);
  });
});
