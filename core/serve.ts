import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createCore } from './index';
import { defaultDataDir, portFromEnv } from './config';
import { startApi } from './http/start';

/** Headless Termwise: the core and REST API under plain Node, plus the renderer page at "/". */
async function main(): Promise<void> {
  const dataDir = defaultDataDir();
  const core = createCore({ dataDir });
  const rendererDir = fileURLToPath(new URL('../dist/renderer/', import.meta.url));
  const api = await startApi(core, { port: portFromEnv(), rendererDir });
  console.log(`Termwise is running at ${api.url}`);
  console.log(`Data folder: ${dataDir}`);
  console.log(`API token: kept in ${api.tokenSource}`);
  if (!existsSync(rendererDir)) console.log('The app page is not built (npm run build); the REST API is up.');
  const stop = (): void => {
    void api.close().then(() => {
      core.close();
      process.exit(0);
    });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
