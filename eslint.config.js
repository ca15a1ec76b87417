// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'dist-electron/', 'release/', 'test-results/', 'playwright-report/', 'coverage/', '**/*.js', '**/*.cjs', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      '@typescript-eslint/only-throw-error': 'error',
    },
  },
  {
    // The core knows nothing of Electron or React.
    files: ['core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['electron', 'electron/*', 'react', 'react-dom', 'react/*', '**/renderer/**', '**/electron/**'], message: 'core/ must not depend on Electron, React or the renderer.' }] }],
    },
  },
  {
    // The domain layer is pure: rules and constants both sides use, with no I/O and nothing outside core/domain.
    files: ['core/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^node:', message: 'core/domain is pure: no Node APIs (put I/O in a feature\'s service or repo).' },
            { regex: '^(better-sqlite3|exceljs|papaparse|fastify|@fastify/.*|yauzl|zod|electron|react|react-dom)$', message: 'core/domain is pure: no libraries with I/O or UI.' },
            { regex: '^\\.\\./', message: 'core/domain imports only from core/domain.' },
          ],
        },
      ],
    },
  },
  {
    // The renderer talks to the core only through its API client; it may import core types, and values from core/domain only.
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(\\.\\./)+(core/(?!domain/)|electron/)', message: 'Values come from core/domain only; use `import type` for other core and bridge types, and call the core through src/api.', allowTypeImports: true },
            { regex: '^electron$', message: 'The renderer is sandboxed: use window.termwise via src/api.' },
          ],
        },
      ],
    },
  },
);
