import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The installed Electron binary, or null. Found from the electron package's path.txt rather than
 * by requiring 'electron', which (since Electron 42) starts a download when the binary is missing.
 */
export function electronBinary(): string | null {
  try {
    const dir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
    const pathFile = join(dir, 'path.txt');
    if (!existsSync(pathFile)) return null;
    const binary = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
    return existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}
