import { COURSE_TYPES } from '../domain/course-types';
import type { FieldProblem } from '../domain/errors';
import { categoryKey, categoryLabel, categoryOfKey, fillsCategory, type QuotaCategory } from '../domain/quotas';
import { campusHistory, termsWithData, type History } from './planning-view';

/** Terms looked back over for a category's usual number of courses. */
const USUAL_TERMS = 4;

export interface QuotaCandidate {
  code: string;
  prefixes: string[];
  types: string[];
  score: number;
}

/**
 * The department's categories from its catalog: every prefix × type present, prefixes with the
 * most courses first, types in the catalog's order. Each category's count is how many of its
 * courses the campus offered in a usual term (the median of its last four Fall/Spring terms), or
 * half its courses without history.
 */
export function catalogCategories(history: History, campus: string): QuotaCategory[] {
  const byPrefix = new Map<string, Map<string, string[]>>();
  for (const course of history.courses) {
    for (const prefix of course.prefixes) {
      const types = byPrefix.get(prefix) ?? new Map<string, string[]>();
      byPrefix.set(prefix, types);
      for (const type of course.types) types.set(type, [...(types.get(type) ?? []), course.code]);
    }
  }
  const typeOrder = (t: string): number => {
    const i = (COURSE_TYPES as readonly string[]).indexOf(t);
    return i < 0 ? COURSE_TYPES.length : i;
  };
  const size = (types: Map<string, string[]>): number => new Set([...types.values()].flat()).size;
  const prefixes = [...byPrefix.entries()].sort((a, b) => size(b[1]) - size(a[1]) || a[0].localeCompare(b[0]));
  const own = campusHistory(history, campus);
  const recent = termsWithData(own).slice(-USUAL_TERMS);
  const categories: QuotaCategory[] = [];
  for (const [prefix, types] of prefixes) {
    for (const type of [...types.keys()].sort((a, b) => typeOrder(a) - typeOrder(b) || a.localeCompare(b))) {
      const category = { prefix, type };
      const members = history.courses.filter((c) => fillsCategory(c, category));
      if (members.length === 0) continue;
      const offeredPerTerm = recent.map((t) => members.filter((c) => own.stats.get(c.code)?.[t]?.offered === true).length).sort((a, b) => a - b);
      const count = offeredPerTerm.length > 0 ? (offeredPerTerm[Math.floor((offeredPerTerm.length - 1) / 2)] ?? 0) : Math.ceil(members.length / 2);
      categories.push({ key: categoryKey(prefix, type), label: categoryLabel(prefix, type), prefix, type, count });
    }
  }
  return categories;
}

/**
 * The categories a run fills, in order, with their counts. Without `slots`, every category of the
 * department with its usual count. With `slots`, exactly the categories named: the department's in
 * its order, then any other prefix ("mth") or prefix_type ("csc_core") of the catalog in the order
 * given. A key naming nothing in the catalog is refused with the keys that would do.
 */
export function categoriesForRun(
  slots: Readonly<Record<string, number>> | undefined,
  department: readonly QuotaCategory[],
  catalog: { prefixes: ReadonlySet<string>; types: ReadonlySet<string> },
): QuotaCategory[] | FieldProblem {
  if (slots === undefined) return [...department];
  const named = new Map<string, QuotaCategory>();
  for (const [key, count] of Object.entries(slots)) {
    const known = department.find((c) => c.key === key.toLowerCase()) ?? categoryOfKey(key, catalog.prefixes, catalog.types);
    if (!known) {
      const keys = department.map((c) => c.key);
      return {
        field: 'slots',
        message: `"${key.slice(0, 40)}" is not a quota category of this department (${keys.slice(0, 12).join(', ')}${keys.length > 12 ? ', …' : ''}, or a prefix such as "${keys[0]?.split('_')[0] ?? 'abc'}")`,
      };
    }
    named.set(known.key, { ...known, count });
  }
  const ordered = department.flatMap((c) => {
    const chosen = named.get(c.key);
    return chosen ? [chosen] : [];
  });
  return [...ordered, ...[...named.values()].filter((c) => !department.some((d) => d.key === c.key))];
}

/** The prefixes and types the catalog has: what a category key may name. */
export function catalogVocabulary(history: Pick<History, 'courses'>): { prefixes: Set<string>; types: Set<string> } {
  return { prefixes: new Set(history.courses.flatMap((c) => c.prefixes)), types: new Set(history.courses.flatMap((c) => c.types)) };
}

/** The codes chosen: each category in order takes its count of highest-scoring courses not already chosen. */
export function selectByQuotas(candidates: readonly QuotaCandidate[], categories: readonly Pick<QuotaCategory, 'prefix' | 'type' | 'count'>[]): Set<string> {
  const chosen = new Set<string>();
  const ranked = [...candidates].sort((a, b) => b.score - a.score || a.code.localeCompare(b.code));
  for (const category of categories) {
    let left = category.count;
    for (const c of ranked) {
      if (left <= 0) break;
      if (chosen.has(c.code) || !fillsCategory(c, category)) continue;
      chosen.add(c.code);
      left--;
    }
  }
  return chosen;
}
