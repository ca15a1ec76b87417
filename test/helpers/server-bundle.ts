import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { bundleNodeSide } from '../../build/bundle-node';

/**
 * `npm run serve`'s server as the desktop app's bundler builds it (build/bundle-node.ts), for the
 * tests that run it as a process of its own: it starts in half tsx's time, and its worker threads
 * load plain JavaScript where under tsx each new thread compiled the core's TypeScript again (a
 * hostile upload that ends its thread starts another). The tests of `npm run serve` itself (its
 * first start, the campus guide's commands) still run it under tsx, as a user does.
 */
export const TEST_SERVER_DIR = join(process.cwd(), '.test-server');
export const TEST_SERVER = join(TEST_SERVER_DIR, 'serve.js');

/** Kept on the run's process, not this module: vitest loads a global setup once per project that names it. */
const run = globalThis as typeof globalThis & { termwiseServerBundle?: Promise<void> };

const writeBundle = (): Promise<void> => bundleNodeSide(TEST_SERVER_DIR, { serve: 'core/serve.ts' });

/**
 * Vitest's global setup: the bundle is written once for the run (about 0.2 s), whichever project
 * asks first; the others wait for it, and never write it again under a running test. In watch mode
 * it is written again before each rerun, so that the processes and threads run the code as edited.
 */
export default async function bundleTestServer(project: TestProject): Promise<void> {
  if (run.termwiseServerBundle === undefined) {
    run.termwiseServerBundle = writeBundle();
    project.onTestsRerun(async () => {
      await (run.termwiseServerBundle = writeBundle());
    });
  }
  await run.termwiseServerBundle;
}
