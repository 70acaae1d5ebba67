import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, login, testApp, type TestApp } from './harness.js';

/**
 * Security headers on every answer (plugins/security-headers.ts): the web app's pages get helmet's,
 * worked out once at start, with QE's own settings — a policy that lets MUI's style tags and https
 * images in, no upgrade to https (schools serve QE over plain http on their own network), the
 * Google popup's opener kept; the API's answers a policy that allows nothing at all.
 */
describe('security headers', () => {
  let t: TestApp;
  let tk: string;
  let clientDir: string;
  beforeAll(async () => {
    clientDir = join(process.env.TMPDIR ?? '/tmp', `qe-headers-${process.pid}-${Date.now()}`);
    mkdirSync(join(clientDir, 'assets'), { recursive: true });
    writeFileSync(join(clientDir, 'index.html'), '<!doctype html><html><body>QE</body></html>');
    t = await testApp({ demo: true, config: { clientDir } });
    ({ tk } = await login(t.app, 'teacher01'));
  });
  afterAll(async () => {
    await t?.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  const expectApi = (headers: Record<string, unknown>) => {
    expect(headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(headers['strict-transport-security']).toMatch(/^max-age=\d+/);
    expect(headers['cache-control']).toBe('no-store');
    expect(headers['x-powered-by']).toBeUndefined();
  };

  it("are on an answer of the API, with the answer's own content type", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/my/user-info', headers: bearer(tk) });
    expect(res.statusCode).toBe(200);
    expectApi(res.headers);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });

  it('are on refusals and errors too: no session, an unknown path, a malformed body', async () => {
    const refused = await t.app.inject({ method: 'GET', url: '/v1/my/user-info' });
    expect(refused.json().code).not.toBe(200);
    expectApi(refused.headers);
    expectApi((await t.app.inject({ method: 'GET', url: '/v1/no-such-thing', headers: bearer(tk) })).headers);
    const malformed = await t.app.inject({ method: 'POST', url: '/v1/login', headers: { 'content-type': 'application/json' }, payload: '{"username":' });
    expect(malformed.statusCode).toBeGreaterThanOrEqual(400);
    expectApi(malformed.headers);
  });

  it("the web app's page gets helmet's headers with QE's settings", async () => {
    const page = await t.app.inject({ method: 'GET', url: '/qe/login' });
    expect(page.statusCode).toBe(200);
    const policy = String(page.headers['content-security-policy']);
    expect(policy).toContain("default-src 'self'");
    expect(policy).toContain("script-src 'self';");
    expect(policy).toContain("style-src 'self' 'unsafe-inline'");
    expect(policy).toContain("img-src 'self' data: blob: https:");
    expect(policy).toContain("object-src 'none'");
    expect(policy).not.toContain('upgrade-insecure-requests');
    expect(page.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(page.headers['x-powered-by']).toBeUndefined();
  });
});
