import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login, testApp, type TestApp } from './harness.js';

describe('demo login', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp({ demo: true });
  });
  afterAll(async () => t?.close());

  it('answers a token and the user id for a demo account', async () => {
    const { tk, userId } = await login(t.app, 'teacher01');
    expect(tk.split('.')).toHaveLength(3);
    expect(userId).toBeGreaterThan(0);
  });
});
