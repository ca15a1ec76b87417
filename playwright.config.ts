import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH, disabledFeaturesSwitch } from './test/e2e/chromium';

/** End-to-end tests: Debian's Chromium against `npm run serve`, a fresh data folder per test. */
export default defineConfig({
  testDir: 'test/e2e',
  globalSetup: './test/e2e/global-setup.ts',
  outputDir: 'test-results/e2e',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  reporter: [['list']],
  use: {
    viewport: { width: 1280, height: 800 },
    // Debian's Chromium, headless, without the parts of its own window a test never sees (test/e2e/chromium.ts).
    launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...disabledFeaturesSwitch()] },
    acceptDownloads: true,
    // A failed test keeps its trace (each action with its timing, the console, the network, the sources) and a
    // screenshot of where it ended. The trace's DOM snapshots and film of screenshots are left out: recording them took
    // a seventh and a fifth of the browser tests' CPU. To see the page's DOM at each step, run the failing test again
    // with `npx playwright test <spec> --trace on`.
    trace: { mode: 'retain-on-failure', snapshots: false, screenshots: false, sources: true },
    screenshot: 'only-on-failure',
  },
});
