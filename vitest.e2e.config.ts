import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Files about the browser side alone — layouts, accessibility, keyboard, menus, glyphs, the
 * bundle's delivery, texts on screen — whose calls are the ones every other file makes too. CI
 * runs every file on SQLite and, with QE_E2E_DATABASE_ONLY=1, the others again on PostgreSQL:
 * these would find nothing there that the SQLite run and the PostgreSQL unit suite have not.
 */
const BROWSER_ONLY = [
  'accessibility',
  'accessibility-dialogs',
  'accessibility-standalone',
  'chinese-glyphs',
  'delivery',
  'form-first-click',
  'keyboard-journey',
  'list-widths',
  'messages',
  'patterns',
  'phone-filters',
  'phone-menu',
  'tutorial',
];

// The built client and the real server in Debian's Chromium. One server and one database
// for the whole run (global setup); files run one after another, as they share that school.
export default defineConfig({
  test: {
    name: 'e2e',
    include: ['tests/e2e/**/*.test.ts'],
    exclude: process.env.QE_E2E_DATABASE_ONLY ? [...configDefaults.exclude, ...BROWSER_ONLY.map((name) => `tests/e2e/${name}.test.ts`)] : configDefaults.exclude,
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
