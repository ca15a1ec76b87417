// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { readFileSync } from 'node:fs';

/** The core's features: another feature may import only a feature's index and its repositories. */
const { features: CORE_FEATURES } = JSON.parse(readFileSync(new URL('./core/features.json', import.meta.url), 'utf8'));
const CORE_BOUNDARY = {
  group: ['electron', 'electron/*', 'react', 'react-dom', 'react/*', '**/renderer/**', '**/electron/**'],
  message: 'core/ must not depend on Electron, React or the renderer.',
};

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      '.scratch/',
      'dist/',
      'dist-electron/',
      '.e2e-server/',
      '.test-server/',
      'release/',
      'test-results/',
      'playwright-report/',
      'coverage/',
      '**/*.js',
      '**/*.cjs',
      '**/*.mjs',
    ],
  },
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
      // Prettier wraps code at 160; what it cannot wrap (comments) is held here. Long messages stay one string, to be found by grep.
      'max-len': ['error', { code: 160, ignoreUrls: true, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true }],
    },
  },
  {
    // The core knows nothing of Electron or React.
    files: ['core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [CORE_BOUNDARY] }],
    },
  },
  // A feature reaches another only through its index (public surface) or its repositories: never its internals.
  ...CORE_FEATURES.map((feature) => ({
    files: [`core/${feature}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            CORE_BOUNDARY,
            {
              regex: `^\\.\\./(?!${feature}/)(${CORE_FEATURES.join('|')})/(?!(index|repo|[a-z-]+-repo)$)`,
              message: `Another feature's internals: import from its index ('../<feature>') or its repository ('../<feature>/repo'), or move the shared rule to core/domain.`,
            },
          ],
        },
      ],
    },
  })),
  {
    // The domain layer is pure: rules and constants both sides use, with no I/O and nothing outside core/domain.
    files: ['core/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^node:', message: "core/domain is pure: no Node APIs (put I/O in a feature's service or repo)." },
            {
              regex: '^(better-sqlite3|exceljs|papaparse|fastify|@fastify/.*|yauzl|zod|electron|react|react-dom)$',
              message: 'core/domain is pure: no libraries with I/O or UI.',
            },
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
            {
              regex: '^(\\.\\./)+(core/(?!domain/)|electron/)',
              message: 'Values come from core/domain only; use `import type` for other core and bridge types, and call the core through src/api.',
              allowTypeImports: true,
            },
            { regex: '^electron$', message: 'The renderer is sandboxed: use window.termwise via src/api.' },
          ],
        },
      ],
    },
  },
);
