import { defineConfig } from 'vitest/config';

// Several QE instances as one QE behind a real HAProxy (deploy/haproxy.cfg): three built servers
// (`npm run build` first) on one PostgreSQL database (DATABASE_URL is required). Files one after
// another: each starts its own three instances and balancer, and they would compete for 2 cores.
export default defineConfig({
  test: {
    name: 'deploy',
    include: ['tests/deploy/**/*.test.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 120_000,
    expect: { poll: { timeout: 20_000, interval: 200 } },
  },
});
