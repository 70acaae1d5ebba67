import { defineConfig } from 'vitest/config';

// `npm test`: server integration (real SQLite file, or PostgreSQL when DATABASE_URL is set)
// and client components (jsdom). The browser suite has its own config (vitest.e2e.config.ts).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts', 'tests/shared/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        esbuild: { jsx: 'automatic' },
        test: {
          name: 'client',
          include: ['tests/client/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['tests/client/support/setup.ts'],
          testTimeout: 30_000,
        },
      },
    ],
  },
});
