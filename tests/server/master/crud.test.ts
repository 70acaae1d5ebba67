import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, login, testApp, type TestApp } from '../harness.js';

describe('master data API', () => {
  let t: TestApp;
  let admin: string;
  let teacher: string;
  beforeAll(async () => {
    t = await testApp({ demo: true });
    admin = (await login(t.app, 'admin')).tk;
    teacher = (await login(t.app, 'teacher01')).tk;
  });
  afterAll(async () => t?.close());

  const call = (tk: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: bearer(tk), payload: payload as object });

  it('lists positions', async () => {
    const res = await call(admin, 'GET', '/v1/positions');
    console.log(res.body.slice(0, 500));
    expect(res.json().code).toBe(200);
  });

  it('lists students of a class, sorted', async () => {
    const res = await call(admin, 'GET', '/v1/students?size=3&sort=nameEn&order=desc&q=chan');
    console.log(res.body.slice(0, 800));
    expect(res.json().code).toBe(200);
  });

  it('creates a teacher who can log in', async () => {
    const res = await call(admin, 'POST', '/v1/teachers', { code: 'T900', username: 'newteacher', password: 'abc12345', nameHk: '新老師', nameEn: 'New Teacher', email: '' });
    console.log(res.body);
    expect(res.json().code).toBe(201);
    await login(t.app, 'newteacher', 'abc12345');
  });

  it('refuses a teacher', async () => {
    const res = await call(teacher, 'GET', '/v1/teachers');
    expect(res.statusCode).toBe(403);
  });

  it('school years and grades', async () => {
    console.log((await call(admin, 'GET', '/v1/school-years')).body.slice(0, 400));
    const g = await call(admin, 'GET', '/v1/grade-classes/1');
    console.log(g.body.slice(0, 600));
    const d = await call(admin, 'DELETE', '/v1/grade-classes/1');
    console.log(d.body);
    const m = await call(admin, 'GET', '/v1/mail-settings');
    console.log(m.body);
  });
});
