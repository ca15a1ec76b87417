import { readdirSync, readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import { TEST_SERVER_DIR } from './test/helpers/server-bundle';

/**
 * Every test on SQLite (the laptop's store), and every HTTP test again on PostgreSQL (a shared server's), with the
 * shared server's own (test/server: several processes on one database), against TERMWISE_TEST_DATABASE_URL or a
 * throwaway server the run starts.
 */
const ON_SQLITE = ['core', 'http', 'electron', 'renderer', 'build'];
const ON_POSTGRES = ['http', 'server'];
/** Every project's global setup: the server bundle the tests that start a process of its own run (test/helpers/server-bundle.ts). */
const BUNDLE = ['test/helpers/server-bundle.ts'];
const POSTGRES = { env: { TERMWISE_TEST_STORE: 'postgres' }, globalSetup: [...BUNDLE, 'test/helpers/postgres-setup.ts'] };

const testFiles = (folders: readonly string[]): string[] => folders.map((folder) => `test/${folder}/**/*.test.ts`);

/**
 * Files that replace a module (vi.mock, vi.doMock), or give the process a page's globals (installPageWindow sets
 * `window` and `document`, after which WebAssembly loaders such as XGBoost's take Node for a browser): they load the core
 * afresh, in a process of their own. Every other
 * file shares its worker's loaded modules with the files before it (isolate: false), which spares each file loading
 * the core again: that loading was a quarter of the suite's time. Each test makes its own server and store.
 */
const OWN_MODULES = readdirSync('test', { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.test.ts'))
  .map((file) => `test/${file.replaceAll('\\', '/')}`)
  .filter((file) => /\bvi\.(do)?[mM]ock\(|\binstallPageWindow\(/.test(readFileSync(file, 'utf8')));
/**
 * HTTP test files whose server is a process of its own on SQLite in either project (files sent to `npm run serve` as an
 * attacker on the machine would, refused before anything is stored): on PostgreSQL they would only run again.
 */
const SQLITE_PROCESS_ONLY = ['test/http/hostile-uploads.test.ts'];
const ownModulesIn = (folders: readonly string[]): string[] => OWN_MODULES.filter((file) => folders.some((folder) => file.startsWith(`test/${folder}/`)));

export default defineConfig({
  test: {
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: one worker on a 2-core machine. The HTTP
    // tests wait on their store and server processes as much as they compute, so two keep both cores busy.
    maxWorkers: 2,
    testTimeout: 30_000,
    // The default report, then the slowest files (test/helpers/slowest-files-reporter.ts).
    reporters: ['default', './test/helpers/slowest-files-reporter.ts'],
    hookTimeout: 30_000,
    // Worker threads run the bundled modules (core/workers.ts, siblingModule), as the spawned servers do.
    env: { TERMWISE_WORKER_BUNDLE: TEST_SERVER_DIR },
    projects: [
      {
        extends: true,
        test: { name: 'sqlite', include: testFiles(ON_SQLITE), exclude: OWN_MODULES, isolate: false, globalSetup: BUNDLE },
      },
      {
        extends: true,
        test: { name: 'postgres', include: testFiles(ON_POSTGRES), exclude: [...OWN_MODULES, ...SQLITE_PROCESS_ONLY], isolate: false, ...POSTGRES },
      },
      {
        extends: true,
        test: { name: 'sqlite, own modules', include: ownModulesIn(ON_SQLITE), globalSetup: BUNDLE },
      },
      {
        extends: true,
        test: { name: 'postgres, own modules', include: ownModulesIn(ON_POSTGRES), ...POSTGRES },
      },
    ],
  },
});
