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

/** Summer session dates staff would enter before importing the real summer terms: Summer I (4 weeks), Summer II (8 weeks) and its two halves. */
export function summerParts(year: number): { code: string; name: string; start_date: string; end_date: string }[] {
  return [
    { code: 'S1', name: 'Summer session I', start_date: `${year}-05-15`, end_date: `${year}-06-09` },
    { code: 'S2', name: 'Summer session II', start_date: `${year}-06-12`, end_date: `${year}-08-04` },
    { code: 'S2A', name: 'Summer II, first half', start_date: `${year}-06-12`, end_date: `${year}-07-07` },
    { code: 'S2B', name: 'Summer II, second half', start_date: `${year}-07-10`, end_date: `${year}-08-04` },
  ];
}
