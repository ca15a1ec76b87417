import { defineConfig } from 'vitest/config';

/**
 * Every test on SQLite (the laptop's store), and every HTTP test again on PostgreSQL (a shared server's), with the
 * shared server's own (test/server: several processes on one database), against TERMWISE_TEST_DATABASE_URL or a
 * throwaway server the run starts.
 */
const ON_SQLITE = ['test/core/**/*.test.ts', 'test/http/**/*.test.ts', 'test/electron/**/*.test.ts', 'test/renderer/**/*.test.ts', 'test/build/**/*.test.ts'];
const ON_POSTGRES = ['test/http/**/*.test.ts', 'test/server/**/*.test.ts'];
const POSTGRES = { env: { TERMWISE_TEST_STORE: 'postgres' }, globalSetup: ['test/helpers/postgres-setup.ts'] };

/**
 * Files that replace a module of the core (vi.mock): they load the core afresh, in a process of their own. Every
 * other file shares its worker's loaded modules with the files before it (isolate: false), which spares each file
 * loading the core again: that loading was a quarter of the suite's time. Each test makes its own server and store.
 */
const OWN_MODULES = ['test/http/autofill-new-rule.test.ts']; // HTTP tests: each runs on both stores.

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
        test: { name: 'sqlite', include: ON_SQLITE, exclude: OWN_MODULES, isolate: false },
      },
      {
        extends: true,
        test: { name: 'postgres', include: ON_POSTGRES, exclude: OWN_MODULES, isolate: false, ...POSTGRES },
      },
      {
        extends: true,
        test: { name: 'sqlite, own modules', include: OWN_MODULES },
      },
      {
        extends: true,
        test: { name: 'postgres, own modules', include: OWN_MODULES, ...POSTGRES },
      },
    ],
  },
});
