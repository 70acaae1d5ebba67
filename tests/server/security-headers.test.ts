import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, login, testApp, type TestApp } from './harness.js';

/**
 * helmet's headers on every answer — worked out once at start (plugins/security-headers.ts) —
 * with QE's own settings: a policy that lets MUI's style tags and https images in, no upgrade to
 * https (schools serve QE over plain http on their own network), the Google popup's opener kept.
 */
describe('security headers', () => {
  let t: TestApp;
  let tk: string;
  beforeAll(async () => {
    t = await testApp({ demo: true });
    ({ tk } = await login(t.app, 'teacher01'));
  });
  afterAll(async () => t?.close());

  const expectHelmet = (headers: Record<string, unknown>) => {
    const policy = String(headers['content-security-policy']);
    expect(policy).toContain("default-src 'self'");
    expect(policy).toContain("script-src 'self';");
    expect(policy).toContain("style-src 'self' 'unsafe-inline'");
    expect(policy).toContain("img-src 'self' data: blob: https:");
    expect(policy).toContain("object-src 'none'");
    expect(policy).not.toContain('upgrade-insecure-requests');
    expect(headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(headers['strict-transport-security']).toMatch(/^max-age=\d+/);
    expect(headers['x-powered-by']).toBeUndefined();
  };

  it('are on an answer of the API, with its own content type and no-store', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/my/user-info', headers: bearer(tk) });
    expect(res.statusCode).toBe(200);
    expectHelmet(res.headers);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('are on refusals and errors too: no session, an unknown path, a malformed body', async () => {
    const refused = await t.app.inject({ method: 'GET', url: '/v1/my/user-info' });
    expect(refused.json().code).not.toBe(200);
    expectHelmet(refused.headers);
    expectHelmet((await t.app.inject({ method: 'GET', url: '/v1/no-such-thing', headers: bearer(tk) })).headers);
    const malformed = await t.app.inject({ method: 'POST', url: '/v1/login', headers: { 'content-type': 'application/json' }, payload: '{"username":' });
    expect(malformed.statusCode).toBeGreaterThanOrEqual(400);
    expectHelmet(malformed.headers);
  });

  it('a header set by one answer does not leak into the next', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/v1/my/user-info', headers: bearer(tk) });
    const second = await t.app.inject({ method: 'GET', url: '/v1/school-info' });
    expect(first.headers['content-security-policy']).toBe(second.headers['content-security-policy']);
    expect(second.headers['content-length']).not.toBe(first.headers['content-length']);
  });
});
