import { existsSync, readFileSync } from 'node:fs';
import { largeProblemXml, UNLIKE } from '../helpers/itc-generated';

export { UNLIKE };

/** Generated problems: the UNLIKE ones, and those the bench solves only when named. */
export const GENERATED_PROBLEMS: Record<string, () => string> = {
  ...Object.fromEntries(Object.entries(UNLIKE).map(([name, { size, shape }]) => [name, () => largeProblemXml(1, size, shape)])),
  'generated-large': () => largeProblemXml(1, { courses: 800, students: 15_000, rooms: 400 }),
};
/** The reference totals (UniTime's solver): problem → budget in seconds → seed → total (see test/bench/README.md). */
export type ReferenceTotals = Record<string, Record<string, Record<string, number>>>;
export const REFERENCE_FILE = new URL('./itc-reference.json', import.meta.url);

export function referenceTotals(): ReferenceTotals {
  return existsSync(REFERENCE_FILE) ? (JSON.parse(readFileSync(REFERENCE_FILE, 'utf8')) as ReferenceTotals) : {};
}

/** The reference totals for a problem at a budget and seeds (only those seeds the file has). */
export function referenceFor(references: ReferenceTotals, problem: string, seconds: number, seeds: readonly number[]): number[] {
  const bySeed = references[problem]?.[String(seconds)] ?? {};
  return seeds.flatMap((seed) => (bySeed[String(seed)] === undefined ? [] : [bySeed[String(seed)] as number]));
}
