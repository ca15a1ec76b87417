import { storedList } from '../domain/lists';
import type { Db } from '../db/store';
import { codePrefixes } from '../domain/codes';
import { courseTypes } from '../domain/course-types';
import { listCourses } from '../catalog/repo';
import type { PlannedSemester } from '../domain/terms';
import type { Campus } from '../domain/campuses';
import { plannedOfferings } from '../offerings/repo';
import { type IncompleteTerm, leftOutTerms, campusTermKey } from '../offerings';

/**
 * The planning view of the database: the catalog with derived facts, and per campus the
 * Fall/Spring history on a calendar of terms (index 2y = Spring y, 2y+1 = Fall y, from the
 * first year with data). Summer records are kept in the database but never planned for.
 */
export interface CourseInfo {
  code: string;
  name: string;
  prefix: string;
  prefixes: string[];
  types: string[];
  level: number;
  prerequisites: string[];
  studyPlan: string | null;
  /** Courses that need this one, directly or through a chain of prerequisites. */
  dependents: number;
}

/** Courses alike for the prior of a course without history: same prefix, level and types. */
export function similarityKey(course: Pick<CourseInfo, 'prefix' | 'level' | 'types'>): string {
  return `${course.prefix}|${course.level}|${course.types.join(',')}`;
}

export interface TermStat {
  offered: boolean;
  enrolled: number;
  passed: number;
  failed: number;
}

export interface CampusHistory {
  campus: Campus;
  /** Term index → whether any record exists for this campus in that term. */
  hasData: boolean[];
  /** Course → term index → what happened. */
  stats: Map<string, (TermStat | undefined)[]>;
  /** Course → its prefix, level and type (similarityKey), for the prior of courses without history. */
  similarityKeys: ReadonlyMap<string, string>;
}

export interface History {
  baseYear: number;
  courses: CourseInfo[];
  campuses: Record<Campus, CampusHistory>;
  /** Index of the last term with data at any campus, or -1. */
  lastIndex: number;
  /** Terms that look incomplete and staff have not confirmed: left out, as if no report existed. */
  leftOut: IncompleteTerm[];
}

/** The left-out terms as a sorted list of keys: what a model was trained without. */
export function leftOutKeys(history: Pick<History, 'leftOut'>): string[] {
  return history.leftOut.map(campusTermKey).sort();
}

/** One campus's history; empty for a campus without records. */
export function campusHistory(history: History, campus: Campus): CampusHistory {
  return history.campuses[campus] ?? { campus, hasData: [], stats: new Map(), similarityKeys: new Map() };
}

export function termIndex(baseYear: number, year: number, semester: PlannedSemester): number {
  return (year - baseYear) * 2 + (semester === 'Fall' ? 1 : 0);
}

export function termAt(baseYear: number, index: number): { year: number; semester: PlannedSemester } {
  return { year: baseYear + Math.floor(index / 2), semester: index % 2 === 1 ? 'Fall' : 'Spring' };
}

export function parsePrerequisites(value: string | null): string[] {
  return storedList(value);
}

/** For each course, how many courses depend on it transitively through prerequisites. */
export function transitiveDependents(prerequisites: ReadonlyMap<string, readonly string[]>): Map<string, number> {
  const direct = new Map<string, string[]>();
  for (const [course, prereqs] of prerequisites) for (const p of prereqs) direct.set(p, [...(direct.get(p) ?? []), course]);
  const result = new Map<string, number>();
  for (const course of prerequisites.keys()) {
    const seen = new Set<string>();
    const stack = [...(direct.get(course) ?? [])];
    while (stack.length > 0) {
      const next = stack.pop() as string;
      if (seen.has(next) || next === course) continue;
      seen.add(next);
      stack.push(...(direct.get(next) ?? []));
    }
    result.set(course, seen.size);
  }
  return result;
}

/** The Fall/Spring terms of the given campuses that are left out as incomplete. */
export async function plannedLeftOut(db: Db, department: number, campusNames: readonly Campus[]): Promise<IncompleteTerm[]> {
  return (await leftOutTerms(db, department)).filter((t) => campusNames.includes(t.campus) && t.semester !== 'Summer');
}

/** The planning view of a department's catalog and of its history at the given campuses. */
export async function loadHistory(db: Db, department: number, campusNames: readonly Campus[], leftOutTerms?: readonly IncompleteTerm[]): Promise<History> {
  const courses = await listCourses(db, department);
  const prerequisiteMap = new Map(courses.map((c) => [c.code, parsePrerequisites(c.prerequisites)]));
  const dependents = transitiveDependents(prerequisiteMap);
  // The caller may have found the left-out terms already (of these campuses or more).
  const leftOut = leftOutTerms ? leftOutTerms.filter((t) => campusNames.includes(t.campus)) : await plannedLeftOut(db, department, campusNames);
  const skipped = new Set(leftOut.map(campusTermKey));
  const rows = (await plannedOfferings(db, department, campusNames)).filter((row) => !skipped.has(campusTermKey(row)));
  const baseYear = rows.reduce((min, r) => Math.min(min, r.year), Number.POSITIVE_INFINITY);
  const catalog = courses.map((c): CourseInfo => ({
    code: c.code,
    name: c.name,
    prefix: c.prefix,
    prefixes: codePrefixes(c.code),
    types: courseTypes(c.type),
    level: c.course_level,
    prerequisites: prerequisiteMap.get(c.code) ?? [],
    studyPlan: c.study_plan,
    dependents: dependents.get(c.code) ?? 0,
  }));
  const similarityKeys = new Map(catalog.map((c) => [c.code, similarityKey(c)]));
  const history: History = {
    baseYear: Number.isFinite(baseYear) ? baseYear : 0,
    courses: catalog,
    campuses: Object.fromEntries(campusNames.map((campus) => [campus, { campus, hasData: [], stats: new Map(), similarityKeys }])),
    lastIndex: -1,
    leftOut,
  };
  for (const row of rows) {
    const index = termIndex(history.baseYear, row.year, row.semester);
    const campus = history.campuses[row.campus];
    if (!campus) continue;
    campus.hasData[index] = true;
    let series = campus.stats.get(row.course_code);
    if (!series) campus.stats.set(row.course_code, (series = []));
    series[index] = { offered: row.is_offered === 1, enrolled: row.total_enrolled, passed: row.passed_count, failed: row.failed_count };
    history.lastIndex = Math.max(history.lastIndex, index);
  }
  return history;
}

/** Term indices with data at a campus, in order. */
export function termsWithData(campus: CampusHistory): number[] {
  const indices: number[] = [];
  campus.hasData.forEach((has, i) => {
    if (has) indices.push(i);
  });
  return indices;
}
