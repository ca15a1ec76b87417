/**
 * Quota mode: instead of the model's yes/no, a run offers at most N courses of each category,
 * filling the categories in order with the highest-scoring courses not already chosen. A category
 * is a course prefix, optionally with a course type ("ECE core", "PHYS elective", "MTH" for any
 * type). The department's categories come from its profile (Settings), else from its catalog:
 * every prefix × type present.
 */
export interface QuotaCategory {
  /** "ece_core", "phys": the prefix in lower case, then the type if any. */
  key: string;
  label: string;
  prefix: string;
  /** null: any type of the prefix (not masters or minor courses: see fillsCategory). */
  type: string | null;
  /** How many courses the category offers when a run does not say. */
  count: number;
}

/** Course types that are programmes of their own: their courses fill only categories of that type. */
export const PROGRAMME_TYPES: readonly string[] = ['masters', 'minor'];

export function categoryKey(prefix: string, type: string | null): string {
  return type === null ? prefix.toLowerCase() : `${prefix.toLowerCase()}_${type.toLowerCase()}`;
}

export function categoryLabel(prefix: string, type: string | null): string {
  return type === null ? prefix : `${prefix} ${type}`;
}

/**
 * The category a key names, given the prefixes and types the catalog has: "csc_core" is CSC core
 * courses, "mth" every MTH course. Null when the key names no prefix (or type) of the catalog.
 */
export function categoryOfKey(key: string, prefixes: ReadonlySet<string>, types: ReadonlySet<string>): Omit<QuotaCategory, 'count'> | null {
  const match = /^([a-z]+)(?:_([a-z]+))?$/.exec(key.trim().toLowerCase());
  if (!match) return null;
  const prefix = (match[1] ?? '').toUpperCase();
  const type = match[2] ?? null;
  if (!prefixes.has(prefix) || (type !== null && !types.has(type))) return null;
  return { key: categoryKey(prefix, type), label: categoryLabel(prefix, type), prefix, type };
}

/**
 * Whether a course (its prefixes, a cross-listed course several, and types) fills a category: its
 * prefix, and its type when the category names one. A masters or minor course fills only a
 * category of that type; other categories take the undergraduate programme's courses.
 */
export function fillsCategory(course: { prefixes: readonly string[]; types: readonly string[] }, category: Pick<QuotaCategory, 'prefix' | 'type'>): boolean {
  if (!course.prefixes.includes(category.prefix)) return false;
  if (category.type !== null && PROGRAMME_TYPES.includes(category.type)) return course.types.includes(category.type);
  if (course.types.some((t) => PROGRAMME_TYPES.includes(t))) return false;
  return category.type === null || course.types.includes(category.type);
}
