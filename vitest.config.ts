import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/core/**/*.test.ts', 'test/http/**/*.test.ts', 'test/electron/**/*.test.ts', 'test/renderer/**/*.test.ts', 'test/build/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
