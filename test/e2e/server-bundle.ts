import { join } from 'node:path';

/** Where the browser tests' global setup bundles the headless server (one folder below the project's root, as a bundle needs). */
export const E2E_SERVER_DIR = join(process.cwd(), '.e2e-server');
export const E2E_SERVER = join(E2E_SERVER_DIR, 'serve.js');
