import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** What the app page is built from: its own sources, the core modules it shares, and the locked dependencies. */
export const RENDERER_SOURCES = ['renderer', 'core', 'package-lock.json'];
export const BUILT_PAGE = join('dist', 'renderer', 'index.html');

const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.git']);
/** A bound on the walk: a tree this large is not ours, and the page is then rebuilt to be safe. */
const MAX_ENTRIES = 20_000;

/** The newest modification time (ms) under a path, and the file it belongs to; null when the walk hit the bound. */
function newestUnder(root: string, path: string, budget: { left: number }): { mtime: number; file: string } | null {
  const full = join(root, path);
  if (!existsSync(full)) return { mtime: 0, file: path };
  const stats = statSync(full);
  if (!stats.isDirectory()) return { mtime: stats.mtimeMs, file: path };
  let newest = { mtime: 0, file: path };
  for (const entry of readdirSync(full, { withFileTypes: true })) {
    if (--budget.left < 0) return null;
    if (entry.isDirectory() && SKIPPED_DIRS.has(entry.name)) continue;
    const found = newestUnder(root, join(path, entry.name), budget);
    if (found === null) return null;
    if (found.mtime > newest.mtime) newest = found;
  }
  return newest;
}

/** Why the app page must be built before serving (a sentence for the console), or null when it is up to date. */
export function rendererBuildReason(root: string, sources: readonly string[] = RENDERER_SOURCES): string | null {
  const page = join(root, BUILT_PAGE);
  if (!existsSync(page)) return 'first start';
  const built = statSync(page).mtimeMs;
  const budget = { left: MAX_ENTRIES };
  for (const source of sources) {
    const newest = newestUnder(root, source, budget);
    if (newest === null) return 'too many source files to compare';
    if (newest.mtime > built) return `${newest.file} changed since the last build`;
  }
  return null;
}
