import { join } from 'node:path';
import { z } from 'zod';
import { CampusList, DEFAULT_CAMPUSES, type CampusSpec } from './domain/campuses';
import { parseBoundedJson } from './domain/bounds';
import { readSmallFile } from './files/private';

/** The file in the data folder that names this installation's campuses. */
export const CAMPUS_FILE = 'campuses.json';
const MAX_BYTES = 64 * 1024;

const spelling = z.string().trim().min(1);
const campusFileSchema = z.union([
  z.array(z.union([spelling, z.object({ name: spelling, aliases: z.array(spelling).default([]) })])),
  z.object({ campuses: z.array(z.union([spelling, z.object({ name: spelling, aliases: z.array(spelling).default([]) })])) }),
]);

/**
 * The campuses of the installation at `dataDir`: `campuses.json` when present — a list of names,
 * or of `{ "name": "Urbana", "aliases": ["UIUC"] }`, optionally under a "campuses" key — else the
 * defaults. A file that cannot be used stops start-up with a message naming the problem.
 */
export function readCampusConfig(dataDir: string): CampusList {
  const file = join(dataDir, CAMPUS_FILE);
  const fail = (problem: string): never => {
    throw new Error(`${file}: ${problem}`);
  };
  // A regular file within its size, else start-up stops naming the problem (never a read that blocks).
  const text = readSmallFile(file, MAX_BYTES);
  if (text === null) return new CampusList(DEFAULT_CAMPUSES);
  let document: unknown;
  try {
    document = parseBoundedJson(text, 'The campus list');
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
  const parsed = campusFileSchema.safeParse(document);
  if (!parsed.success) return fail('expected a list of campus names, or of {"name": ..., "aliases": [...]}');
  const items = parsed.data;
  const list = Array.isArray(items) ? items : items.campuses;
  const specs: CampusSpec[] = list.map((item) => (typeof item === 'string' ? { name: item, aliases: [] } : item));
  try {
    return new CampusList(specs);
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
}
