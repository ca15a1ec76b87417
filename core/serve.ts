import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createCore } from './index';
import { defaultDataDir, portFromEnv } from './config';
import { buildServer } from './http/server';
import { serveRenderer } from './http/renderer';
import { loadApiToken } from './http/token';

/** Headless Termwise: the core and REST API under plain Node, plus the renderer page at "/". */
async function main(): Promise<void> {
  const dataDir = defaultDataDir();
  const core = createCore({ dataDir });
  const { token, source } = loadApiToken(dataDir);
  const rendererDir = fileURLToPath(new URL('../dist/renderer/', import.meta.url));
  const app = await buildServer({
    core,
    token,
    extend: existsSync(rendererDir) ? (server) => serveRenderer(server, rendererDir, token) : undefined,
  });
  const port = portFromEnv();
  await app.listen({ host: '127.0.0.1', port });
  const address = app.server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  console.log(`Termwise is running at http://127.0.0.1:${actualPort}/`);
  console.log(`Data folder: ${dataDir}`);
  console.log(`API token: kept in ${source}`);
  if (!existsSync(rendererDir)) console.log('The renderer page is not built yet (npm run build:renderer); the REST API is up.');
  const stop = (): void => {
    void app.close().then(() => {
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
