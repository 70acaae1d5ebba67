import { defineConfig } from 'vitest/config';

// The built client and the real server in Debian's Chromium. One server and one database
// for the whole run (global setup); files run one after another, as they share that school.
export default defineConfig({
  test: {
    name: 'e2e',
    include: ['tests/e2e/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['tests/e2e/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // a polled condition waits as long as a locator does (Vitest's 1 s default failed a backup on
    // a busy 2-core CI run): bounded waits, no timed assertions
    expect: { poll: { timeout: 15_000 } },
  },
});
