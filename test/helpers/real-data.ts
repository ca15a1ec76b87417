import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The real data shared with the project (../shared/data next to the checkout; see its README). */
export const REAL_DATA_DIR = fileURLToPath(new URL('../../../shared/data/', import.meta.url));

/**
 * A real data file's path, or null (with the reason printed once) when this checkout has no shared
 * data next to it: tests that need it are then skipped with that reason.
 */
export function realDataFile(relative: string): string | null {
  const path = `${REAL_DATA_DIR}${relative}`;
  if (existsSync(path)) return path;
  console.warn(`Skipping tests that need ${relative}: the real data is not at ${REAL_DATA_DIR} (see docs/configuration.md, "Real data")`);
  return null;
}
