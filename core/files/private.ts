import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readSync, renameSync, statSync, writeFileSync } from 'node:fs';

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

/**
 * A small file read at start-up (a setting, the token), or null when there is none: it must be a
 * regular file (a link to a device or a named pipe would block the read for ever) within `maxBytes`.
 * Problems are thrown in words naming the file.
 */
export function readSmallFile(path: string, maxBytes: number): string | null {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    return null;
  }
  if (!stats.isFile()) throw new Error(`${path}: not a regular file (a device, a pipe or a folder); replace it with a file or remove it`);
  if (stats.size > maxBytes) throw new Error(`${path}: larger than ${Math.round(maxBytes / 1024)} KB; this file holds a few lines`);
  const fd = openSync(path, 'r');
  try {
    // Read at most maxBytes + 1, so a file growing meanwhile is still refused in bounded time.
    const buffer = Buffer.alloc(maxBytes + 1);
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    if (read > maxBytes) throw new Error(`${path}: larger than ${Math.round(maxBytes / 1024)} KB; this file holds a few lines`);
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** Refuses to start on a data file that exists but is not a regular file (the database opened on a pipe would hang). */
export function assertRegularOrAbsent(path: string): void {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    return;
  }
  if (!stats.isFile()) throw new Error(`${path}: not a regular file (a device, a pipe or a folder); replace it with a file or remove it`);
}
