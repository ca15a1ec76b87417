import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Core } from '../index';
import { CoreError } from '../domain/errors';
import { writePrivateFile } from '../files/private';
import { buildServer } from './server';
import { listenHostFrom, publicUrlsFrom, trustedProxiesFrom } from '../config';
import type { ServerAccess } from './guard';
import { serveRenderer } from './renderer';
import { BrowserSessions, loginUrl } from './session';
import { ENV_TOKEN_SOURCE, loadApiToken, regenerateApiToken } from './token';

/** How often a process checks that its sign-in link still works (another process may have used it). */
const LOGIN_LINK_CHECK_MS = 5_000;

/** The file holding the current one-time sign-in link, for scripts that open the browser. */
export const LOGIN_URL_FILE = 'login-url';

export interface StartedApi {
  app: FastifyInstance;
  url: string;
  tokenSource: string;
  /** This process's current one-time sign-in link of the app page, or null when no page is served. */
  loginUrl(): Promise<string | null>;
  /** Where the sign-in link is kept (mode 0600), or null when no page is served. */
  loginFile: string | null;
  /** A campus server (PostgreSQL, or a public address): the sign-in link is not printed, only where it is kept. */
  campus: boolean;
  close(): Promise<void>;
}

/** What a server accepts beyond localhost: the host names and origins of its public addresses. */
export function serverAccess(publicUrls: readonly URL[]): ServerAccess {
  return { hosts: new Set(publicUrls.map((url) => url.hostname.toLowerCase())), origins: new Set(publicUrls.map((url) => url.origin.toLowerCase())) };
}

/**
 * Starts the REST API on 127.0.0.1 for a core (headless mode and the Electron main process),
 * with the stored token, and the renderer page when a built one is given.
 */
export async function startApi(core: Core, options: { port: number; rendererDir?: string; env?: NodeJS.ProcessEnv }): Promise<StartedApi> {
  const env = options.env ?? process.env;
  const loaded = loadApiToken(core.dataDir, options.env);
  const publicUrls = publicUrlsFrom(env);
  const access = serverAccess(publicUrls);
  const campus = core.context.store.config.kind === 'postgres' || publicUrls.length > 0;
  let token = loaded.token;
  const current = (): string => token;
  const rendererDir = options.rendererDir && existsSync(options.rendererDir) ? options.rendererDir : null;
  const sessions = rendererDir ? new BrowserSessions(core.identity) : null;
  const app = await buildServer({
    core,
    token: current,
    ...(sessions ? { sessions } : {}),
    access,
    trustedProxies: trustedProxiesFrom(env),
    extend: rendererDir && sessions ? (server) => serveRenderer(server, rendererDir, sessions, access) : undefined,
  });
  await app.listen({ host: listenHostFrom(env), port: options.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const url = `http://127.0.0.1:${port}/`;
  const loginFile = sessions ? join(core.dataDir, LOGIN_URL_FILE) : null;
  if (sessions && loginFile) {
    const keep = (nonce: string): void => writePrivateFile(loginFile, `${loginUrl(url, nonce)}\n`);
    sessions.onNonceChange(keep);
    await sessions.loginNonce();
    // A link expired or used (through any process) is replaced within seconds, so the login-url file always holds one that works
    // (one small read of the store each time).
    setInterval(() => void sessions.loginNonce().catch(() => undefined), LOGIN_LINK_CHECK_MS).unref();
  }
  core.context.access = {
    url,
    token: current,
    source: loaded.source,
    regenerable: loaded.source !== ENV_TOKEN_SOURCE,
    campus,
    regenerate: async () => {
      if (loaded.source === ENV_TOKEN_SOURCE) throw new CoreError('invalid', 'The token is set by TERMWISE_API_TOKEN; change that variable instead');
      token = regenerateApiToken(core.dataDir);
      // A new token is the way to lock everybody out: browser sessions end with it.
      await sessions?.signOutAll();
      return token;
    },
  };
  return {
    app,
    url,
    tokenSource: loaded.source,
    loginUrl: async () => (sessions ? loginUrl(url, await sessions.loginNonce()) : null),
    loginFile,
    campus,
    close: () => app.close(),
  };
}
