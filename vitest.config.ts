import { defineConfig } from 'vitest/config';

/**
 * Two projects: every test on SQLite (the laptop's store), and every HTTP test again on PostgreSQL
 * (a shared server's), with the shared server's own (test/server: several processes on one
 * database), against TERMWISE_TEST_DATABASE_URL or a throwaway server the run starts.
 */
export default defineConfig({
  test: {
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: one worker on a 2-core machine. The HTTP
    // tests wait on their store and server processes as much as they compute, so two keep both cores busy.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'sqlite',
          include: ['test/core/**/*.test.ts', 'test/http/**/*.test.ts', 'test/electron/**/*.test.ts', 'test/renderer/**/*.test.ts', 'test/build/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: ['test/http/**/*.test.ts', 'test/server/**/*.test.ts'],
          env: { TERMWISE_TEST_STORE: 'postgres' },
          globalSetup: ['test/helpers/postgres-setup.ts'],
        },
      },
    ],
  },
});
