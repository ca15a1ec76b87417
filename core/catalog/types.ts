import { readListCell } from '../import/lists';
import type { CourseType } from '../domain/course-types';

const TYPE_ALIASES: Record<string, CourseType> = {
  core: 'core',
  required: 'core',
  major: 'core',
  elective: 'elective',
  electives: 'elective',
  masters: 'masters',
  master: 'masters',
  "master's": 'masters',
  graduate: 'masters',
  minor: 'minor',
};

function normaliseOne(value: string): string {
  const key = value.trim().toLowerCase();
  return TYPE_ALIASES[key] ?? key;
}

/**
 * Reads an uploaded type: a word, a JSON-array string, an array, or "core, elective".
 * Returns the stored form (a single word, or a JSON-array string for several) or null.
 */
export function normaliseCourseType(value: unknown): string | null {
  if (typeof value !== 'string' && !Array.isArray(value)) return null;
  const items = readListCell(value, { separators: ',;|' });
  if (!items) return null;
  const normalised = [...new Set(items.map(normaliseOne).filter((t) => t !== ''))];
  if (normalised.length === 0) return null;
  if (normalised.length === 1 && !Array.isArray(value) && !String(value).trim().startsWith('[')) return normalised[0] ?? null;
  return JSON.stringify(normalised);
}
