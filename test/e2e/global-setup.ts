import { bundleNodeSide } from '../../build/bundle-node';
import { E2E_SERVER_DIR } from './server-bundle';
import { DISABLED_FEATURES_ENV, disabledFeatures } from './chromium';

/**
 * The browser tests' server: `npm run serve`'s core/serve.ts bundled fresh (as the desktop app's
 * main process is, by build/bundle-node.ts) before the first test. It answers in about 0.9 s where
 * tsx takes 2 s, a second saved for each of the tests' fresh servers, and the tests then also run
 * the code as it is bundled. Then the features the tests' Chromium starts without, for the
 * workers, which read the environment set here (test/e2e/chromium.ts).
 */
export default async function globalSetup(): Promise<void> {
  await bundleNodeSide(E2E_SERVER_DIR, { serve: 'core/serve.ts' });
  process.env[DISABLED_FEATURES_ENV] = (await disabledFeatures()).join(',');
}
