import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createCore } from './index';
import { databaseUrlFrom, defaultDataDir, pageDirFrom, portFromEnv } from './config';
import { storeDescription } from './db/store';
import { startApi } from './http/start';

/** Opens a URL in the user's browser (`npm run serve -- --open`). */
function openInBrowser(url: string): void {
  const [command, args] =
    process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : process.platform === 'darwin' ? ['open', [url]] : ['xdg-open', [url]];
  const child = spawn(command, args, { stdio: 'ignore', detached: true });
  child.on('error', () => console.log(`Could not open a browser (${command}); open the sign-in link above yourself.`));
  child.unref();
}

/** Headless Termwise: the core and REST API under plain Node, plus the renderer page at "/". */
async function main(): Promise<void> {
  const dataDir = defaultDataDir();
  const databaseUrl = databaseUrlFrom(process.argv.slice(2));
  const core = await createCore({ dataDir, databaseUrl });
  const rendererDir = pageDirFrom(fileURLToPath(new URL('../dist/renderer/', import.meta.url)));
  const api = await startApi(core, { port: portFromEnv(), rendererDir });
  console.log(`Termwise is running at ${api.url}`);
  console.log(`Data folder: ${dataDir}`);
  console.log(`Data kept in: ${storeDescription(core.context.store.config)}`);
  console.log(`API token (for scripts): kept in ${api.tokenSource}`);
  const login = await api.loginUrl();
  if (login && api.campus) {
    // A campus server's console ends up in a service's logs: the registrar's link stays in its private file.
    console.log(`The registrar's one-time sign-in link is in ${api.loginFile ?? 'the data folder'} (readable by this server's user alone).`);
    console.log('  Everyone else signs in with their login and password.');
  } else if (login) {
    console.log(`Sign in to the app by opening: ${login}`);
    console.log(`  (the link works once; the next one is always in ${api.loginFile ?? 'the data folder'})`);
  }
  if (login && process.argv.includes('--open')) openInBrowser(login);
  if (!existsSync(rendererDir)) console.log('The app page is not built (npm run build); the REST API is up.');
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    console.log(`Stopping (${signal}): open pages are disconnected, work in progress is finished or left unwritten.`);
    // Bounded: whatever still holds on after the grace period is cut off.
    setTimeout(() => exitBy(signal), STOP_GRACE_MS).unref();
    void api
      .close()
      .then(() => core.close())
      .catch((error: unknown) => console.error(`While stopping: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => exitBy(signal));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/** How long a stop waits for requests in flight and the store before the process ends anyway. */
const STOP_GRACE_MS = 4_000;

/**
 * Ends the process as stopped by the signal (a shell sees 128 + its number, a service manager a clean
 * stop): the handler is taken off and the signal raised again.
 */
function exitBy(signal: NodeJS.Signals): void {
  process.removeAllListeners(signal);
  process.kill(process.pid, signal);
}

/** What to tell someone whose start failed: the reason, and for a busy port how to pick another. */
function startFailure(error: unknown, port: number | null): string {
  if ((error as NodeJS.ErrnoException | null)?.code === 'EADDRINUSE') {
    const other =
      port === null ? 'TERMWISE_PORT=0 npm run serve (any free port)' : `TERMWISE_PORT=${port + 1} npm run serve (TERMWISE_PORT=0 picks any free port)`;
    return `${port === null ? 'The port' : `Port ${port}`} is already in use (is Termwise already running? Open its address, or stop it). To run on another port: ${other}.`;
  }
  return error instanceof Error ? error.message : String(error);
}

main().catch((error: unknown) => {
  let port: number | null = null;
  try {
    port = portFromEnv();
  } catch {
    // The port setting itself was the problem: the error says so.
  }
  console.error(startFailure(error, port));
  process.exit(1);
});
