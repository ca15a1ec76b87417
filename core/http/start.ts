import { existsSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { Core } from '../index';
import { CoreError } from '../errors';
import { buildServer } from './server';
import { serveRenderer } from './renderer';
import { ENV_TOKEN_SOURCE, loadApiToken, regenerateApiToken } from './token';

export interface StartedApi {
  app: FastifyInstance;
  url: string;
  tokenSource: string;
  close(): Promise<void>;
}

/**
 * Starts the REST API on 127.0.0.1 for a core (headless mode and the Electron main process),
 * with the stored token, and the renderer page when a built one is given.
 */
export async function startApi(core: Core, options: { port: number; rendererDir?: string; env?: NodeJS.ProcessEnv }): Promise<StartedApi> {
  const loaded = loadApiToken(core.dataDir, options.env);
  let token = loaded.token;
  const current = (): string => token;
  const rendererDir = options.rendererDir;
  const app = await buildServer({
    core,
    token: current,
    extend: rendererDir && existsSync(rendererDir) ? (server) => serveRenderer(server, rendererDir, current) : undefined,
  });
  await app.listen({ host: '127.0.0.1', port: options.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const url = `http://127.0.0.1:${port}/`;
  core.context.access = {
    url,
    token: current,
    source: loaded.source,
    regenerate: () => {
      if (loaded.source === ENV_TOKEN_SOURCE) throw new CoreError('invalid', 'The token is set by TERMWISE_API_TOKEN; change that variable instead');
      token = regenerateApiToken(core.dataDir);
      return token;
    },
  };
  return { app, url, tokenSource: loaded.source, close: () => app.close() };
}
