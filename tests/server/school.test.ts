import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, errorText } from '../../src/shared/errors.js';
import { fieldMessage } from '../../src/shared/field-messages.js';
import { DEFAULT_GRANTS } from '../support/default-grants.js';
import { bearer, login, testApp, type TestApp } from './harness.js';

const VALID = {
  schoolNameHk: '測試中學',
  schoolNameEn: 'Test Secondary School',
  username: 'principal',
  password: 'Fir5tPass',
  nameHk: '陳校長',
  nameEn: 'Principal Chan',
  email: 'principal@test.school',
};

describe('first run on an empty database', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });
  afterAll(async () => t?.close());

  const init = (payload: object, headers: Record<string, string> = {}) => t.app.inject({ method: 'POST', url: '/v1/init', payload, headers });

  it('answers 712 for GET /v1/school-info', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/school-info' });
    expect(res.statusCode).toBe(ERRORS.NOT_INITIALISED.http);
    expect(res.json()).toEqual({ code: 712, msg: errorText('NOT_INITIALISED', 'zh-hk'), data: null });
    const en = await t.app.inject({ method: 'GET', url: '/v1/school-info', headers: { 'accept-language': 'en' } });
    expect(en.json().msg).toBe(errorText('NOT_INITIALISED', 'en'));
  });

  it('tells through GET /v1/init that the set-up is still open', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/init' });
    expect(res.json()).toEqual({ code: 200, msg: expect.any(String), data: { initialised: false } });
  });

  it('refuses an empty body with a field error for every required field', async () => {
    const res = await init({});
    expect(res.statusCode).toBe(422);
    const required = fieldMessage('required', 'zh-hk');
    expect(res.json()).toMatchObject({
      code: 422,
      data: { schoolNameHk: required, schoolNameEn: required, username: required, password: required, nameHk: required, nameEn: required },
    });
    expect(res.json().data).not.toHaveProperty('email');
  });

  it('refuses a short password, a username with spaces inside and blank names, field by field, in the language asked', async () => {
    const res = await init({ ...VALID, password: 'abc', username: 'the principal', nameEn: '   ' }, { 'accept-language': 'en' });
    expect(res.statusCode).toBe(422);
    expect(res.json().data).toEqual({
      password: fieldMessage('minLength', 'en', { limit: 6 }),
      username: fieldMessage('pattern', 'en'),
      nameEn: fieldMessage('minLength', 'en', { limit: 1 }),
    });
  });

  it('refuses a password longer than 15 characters and a field it does not know', async () => {
    const res = await init({ ...VALID, password: 'a'.repeat(16), role: 'ADMIN' });
    expect(res.statusCode).toBe(422);
    expect(res.json().data).toEqual({ password: fieldMessage('maxLength', 'zh-hk', { limit: 15 }), role: fieldMessage('additionalProperties', 'zh-hk') });
  });

  it('has created nothing after refused tries', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/v1/init' })).json().data).toEqual({ initialised: false });
    expect(await t.db.selectFrom('users').select('id').execute()).toEqual([]);
  });

  it('creates the school and its first super administrator, who can log in', async () => {
    const res = await init({ ...VALID, username: `  ${VALID.username} `, schoolNameEn: ` ${VALID.schoolNameEn} ` });
    expect(res.json()).toMatchObject({ code: 201 });

    expect((await t.app.inject({ method: 'GET', url: '/v1/init' })).json().data).toEqual({ initialised: true });
    const school = (await t.app.inject({ method: 'GET', url: '/v1/school-info' })).json();
    expect(school).toMatchObject({
      code: 200,
      data: { nameHk: VALID.schoolNameHk, nameEn: VALID.schoolNameEn, requiredChinese: true, requiredEnglish: true },
    });
    expect(school.data.languageList.map((l: { code: string }) => l.code).sort()).toEqual(['en', 'zh-hk']);

    const { tk, userId } = await login(t.app, VALID.username, VALID.password);
    const info = (await t.app.inject({ method: 'GET', url: '/v1/my/user-info', headers: bearer(tk) })).json().data;
    expect(info).toMatchObject({ userId, username: VALID.username, nameHk: VALID.nameHk, nameEn: VALID.nameEn, email: VALID.email, userType: 'SUPER_ADMIN', active: true });
    const actions = (await t.app.inject({ method: 'GET', url: '/v1/my/action-list', headers: bearer(tk) })).json().data;
    expect(actions).toEqual(DEFAULT_GRANTS.SUPER_ADMIN);
  });

  it('keeps the password hashed', async () => {
    const row = await t.db.selectFrom('users').select('password_hash').where('username', '=', VALID.username).executeTakeFirstOrThrow();
    expect(row.password_hash).not.toContain(VALID.password);
  });

  it('refuses a second set-up with 705 and changes nothing', async () => {
    const res = await init({ ...VALID, schoolNameEn: 'Another School', username: 'intruder' });
    expect(res.statusCode).toBe(ERRORS.ALREADY_INITIALISED.http);
    expect(res.json()).toEqual({ code: 705, msg: errorText('ALREADY_INITIALISED', 'zh-hk'), data: null });
    expect((await t.app.inject({ method: 'GET', url: '/v1/school-info' })).json().data.nameEn).toBe(VALID.schoolNameEn);
    expect((await t.app.inject({ method: 'POST', url: '/v1/login', payload: { username: 'intruder', password: VALID.password } })).json().code).toBe(700);
  });
});

describe('two first runs at once', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });
  afterAll(async () => t?.close());

  it('let exactly one create the school; the other answers 705', async () => {
    const [a, b] = await Promise.all([
      t.app.inject({ method: 'POST', url: '/v1/init', payload: { ...VALID, username: 'first' } }),
      t.app.inject({ method: 'POST', url: '/v1/init', payload: { ...VALID, username: 'second' } }),
    ]);
    expect([a.json().code, b.json().code].sort()).toEqual([201, 705]);
    expect(await t.db.selectFrom('school').select('id').execute()).toHaveLength(1);
    expect(await t.db.selectFrom('users').select('username').execute()).toHaveLength(1);
  });
});

describe('GET /v1/school-info on the demo school', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp({ demo: true });
  });
  afterAll(async () => t?.close());

  it('answers every school field of the spec, without login', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/school-info' });
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    for (const field of ['schoolId', 'nameHk', 'nameEn', 'schoolLogo', 'addressHk', 'addressEn', 'tel', 'fax', 'app_logo', 'app_view', 'host', 'email',
      'graduate_grade', 'school_pre', 'grade_range', 'edac_connect', 'languageList', 'requiredChinese', 'requiredEnglish']) {
      expect(data, field).toHaveProperty(field);
    }
    expect(data).toMatchObject({ nameEn: 'QE Demonstration Secondary School', nameHk: '啟思示範中學' });
  });

  it('refuses POST /v1/init with 705', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/init', payload: VALID });
    expect(res.json().code).toBe(705);
  });
});
