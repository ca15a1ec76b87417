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

export function portFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.TERMWISE_PORT;
  if (raw === undefined || raw === '') return DEFAULT_PORT;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`TERMWISE_PORT must be a port number (0–65535), not "${raw}"`);
  return port;
}
