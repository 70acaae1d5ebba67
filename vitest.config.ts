import { fileURLToPath } from 'node:url';
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
        // pdfkit's browser build, as the browser runs it: its Node build writes Node Buffers, which
        // are not jsdom's Uint8Array (the PDF would come out garbled)
        resolve: { alias: [{ find: /^pdfkit$/, replacement: fileURLToPath(new URL('node_modules/pdfkit/js/pdfkit.browser.mjs', import.meta.url)) }] },
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
