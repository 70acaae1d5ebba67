// Lint: the recommended rules of ESLint and typescript-eslint, and the rules of hooks for the client.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

export default tseslint.config(
  // tests/fixtures/generated: what the codegen test writes from its fixture schema (git-ignored)
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.tmp/**', 'data/**', 'tests/fixtures/generated/**', 'tests/fixtures/generated-client/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/client/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    // Kysely's own idiom: migrations and dialect helpers work on a schema-less Kysely<any>
    files: ['src/server/db/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
