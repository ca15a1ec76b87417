import { homedir } from 'node:os';
import { join } from 'node:path';

export const APP_NAME = 'Termwise';
export const DEFAULT_PORT = 4610;

/**
 * The data folder: TERMWISE_DATA_DIR when set, else the platform's application-data folder,
 * the same one Electron's app.getPath('userData') gives for this app.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.TERMWISE_DATA_DIR) return env.TERMWISE_DATA_DIR;
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), APP_NAME);
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', APP_NAME);
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), APP_NAME);
}

/** The built app page `npm run serve` serves: TERMWISE_PAGE_DIR when set (a build kept elsewhere), else the repository's `dist/renderer`. */
export function pageDirFrom(fallback: string, env: NodeJS.ProcessEnv = process.env): string {
  return env.TERMWISE_PAGE_DIR?.trim() || fallback;
}

export function portFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.TERMWISE_PORT;
  if (raw === undefined || raw === '') return DEFAULT_PORT;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`TERMWISE_PORT must be a port number (0–65535), not "${raw}"`);
  return port;
}

/**
 * The PostgreSQL database a shared server keeps its data in: `--database <url>` on the command
 * line, else TERMWISE_DATABASE_URL; undefined (SQLite in the data folder) when neither is given.
 */
export function databaseUrlFrom(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): string | undefined {
  const at = argv.findIndex((arg) => arg === '--database' || arg.startsWith('--database='));
  const given = at < 0 ? env.TERMWISE_DATABASE_URL : argv[at]?.startsWith('--database=') ? argv[at]?.slice('--database='.length) : argv[at + 1];
  if (given === undefined || given === '') {
    if (at >= 0) throw new Error('--database needs a PostgreSQL URL, e.g. --database postgres://termwise@localhost/termwise');
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new Error('The database URL must be a PostgreSQL URL such as postgres://termwise@localhost:5432/termwise');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')
    throw new Error(`The database URL must start with postgres:// (it starts with ${url.protocol}//)`);
  return given;
}

/**
 * Where the server listens: TERMWISE_HOST (a campus server: 0.0.0.0, or the address its proxy
 * reaches), else 127.0.0.1 — a laptop answers only this machine.
 */
export function listenHostFrom(env: NodeJS.ProcessEnv = process.env): string {
  const host = env.TERMWISE_HOST?.trim();
  if (host === undefined || host === '') return '127.0.0.1';
  if (!/^[A-Za-z0-9.:[\]-]{1,100}$/.test(host)) throw new Error(`TERMWISE_HOST must be an address to listen on (such as 0.0.0.0), not "${host.slice(0, 100)}"`);
  return host;
}

/**
 * The reverse proxies in front of a campus server (TERMWISE_TRUSTED_PROXIES, comma-separated
 * addresses or CIDR ranges, such as 127.0.0.1): their X-Forwarded-For names the client, so sign-in
 * attempts are bounded per client and not per proxy. None by default: the header is ignored.
 */
export function trustedProxiesFrom(env: NodeJS.ProcessEnv = process.env): string[] {
  return listFrom(env, 'TERMWISE_TRUSTED_PROXIES', (text) => {
    if (!/^[0-9A-Fa-f.:]{2,45}(\/\d{1,3})?$/.test(text))
      throw new Error(`TERMWISE_TRUSTED_PROXIES must list addresses such as 127.0.0.1 or 10.0.0.0/8, not "${text.slice(0, 100)}"`);
    return text;
  });
}

/** A comma-separated setting, each part trimmed and read by `read` (which throws naming the setting); none when unset. */
function listFrom<T>(env: NodeJS.ProcessEnv, name: string, read: (text: string) => T): T[] {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return [];
  return raw.split(',').map((part) => read(part.trim()));
}

/**
 * The addresses people reach a campus server by (TERMWISE_PUBLIC_URL, comma-separated, such as
 * https://termwise.campus.edu): requests addressed to their host names are answered, and the page
 * may be served from their origins. None on a laptop.
 */
export function publicUrlsFrom(env: NodeJS.ProcessEnv = process.env): URL[] {
  return listFrom(env, 'TERMWISE_PUBLIC_URL', (text) => {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new Error(`TERMWISE_PUBLIC_URL must list addresses such as https://termwise.campus.edu, not "${text.slice(0, 100)}"`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`TERMWISE_PUBLIC_URL must list http(s) addresses, not "${text.slice(0, 100)}"`);
    return url;
  });
}
