import { bundleNodeSide } from '../../build/bundle-node';
import { E2E_SERVER_DIR } from './server-bundle';

/**
 * The browser tests' server: `npm run serve`'s core/serve.ts bundled fresh (as the desktop app's
 * main process is, by build/bundle-node.ts) before the first test. It answers in about 0.9 s where
 * tsx takes 2 s, a second saved for each of the tests' fresh servers, and the tests then also run
 * the code as it is bundled.
 */
export default async function globalSetup(): Promise<void> {
  await bundleNodeSide(E2E_SERVER_DIR, { serve: 'core/serve.ts' });
}
