import { chmodSync, existsSync, mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';

/**
 * The data folder and what is in it belong to the user alone: the folder is 0700, files 0600.
 * (On Windows the modes are ignored; the folder is already in the user's own profile.)
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates the folder 0700, or narrows an existing one to 0700. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  narrow(dir, PRIVATE_DIR_MODE);
}

/** Narrows an existing file to 0600 (a file made earlier with a wider mode is fixed on start). */
export function makePrivate(file: string): void {
  if (existsSync(file)) narrow(file, PRIVATE_FILE_MODE);
}

/** Writes a file that only the user may read, replacing it atomically. */
export function writePrivateFile(file: string, content: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, content, { mode: PRIVATE_FILE_MODE });
  narrow(temporary, PRIVATE_FILE_MODE);
  renameSync(temporary, file);
}

function narrow(path: string, mode: number): void {
  if (process.platform === 'win32') return;
  if ((statSync(path).mode & 0o777) !== mode) chmodSync(path, mode);
}
