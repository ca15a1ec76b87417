import { statement, type Db } from '../db/connection';
import type { CoreContext } from '../context';
import type { Term } from '../domain/terms';
import { bookingOf, entriesOfCourses, listEntries, type EntryRow } from './repo';
import { partsByCode } from './terms';
import { curriculumConflicts, curriculumGroups, curriculumNotes, type CurriculumConflict, type CurriculumNote, type CurriculumCourse, type CurriculumGroup } from './curriculum';

const CURRICULUM_COLUMNS = 'code, prefix, course_level, type, study_plan';

/** The catalog courses that can belong to a cohort: those with a study plan, and core courses. */
function cohortCourses(db: Db): CurriculumCourse[] {
  return statement<[], CurriculumCourse>(db, `SELECT ${CURRICULUM_COLUMNS} FROM courses WHERE (study_plan IS NOT NULL AND trim(study_plan) != '') OR type LIKE '%core%'`).all();
}

function courseOf(db: Db, code: string): CurriculumCourse | undefined {
  return statement<[string], CurriculumCourse>(db, `SELECT ${CURRICULUM_COLUMNS} FROM courses WHERE code = ?`).get(code);
}

/** Each course's cohorts in the term's semester, worked out once per course. */
function groupLookup(courses: readonly CurriculumCourse[], term: Term): (code: string) => readonly CurriculumGroup[] {
  const byCode = new Map(courses.map((c) => [c.code, c]));
  const cache = new Map<string, CurriculumGroup[]>();
  return (code) => {
    let groups = cache.get(code);
    if (!groups) {
      const course = byCode.get(code);
      groups = course ? curriculumGroups(course, term.semester) : [];
      cache.set(code, groups);
    }
    return groups;
  };
}

function conflictsAmong(ctx: CoreContext, term: Term, rows: readonly EntryRow[], groupsOf: (code: string) => readonly CurriculumGroup[]): CurriculumConflict[] {
  const parts = partsByCode(ctx, term);
  return curriculumConflicts(rows.map((row) => bookingOf(row, parts)), groupsOf);
}

/** Every curriculum conflict of a term (its meetings read unless given). */
export function termCurriculumConflicts(ctx: CoreContext, term: Term, rows: readonly EntryRow[] = listEntries(ctx.db, term)): CurriculumConflict[] {
  return conflictsAmong(ctx, term, rows, groupLookup(cohortCourses(ctx.db), term));
}

/** The curriculum groups (keys) of each given course in a term, for the auto-fill's soft goal. */
export function courseCohorts(ctx: CoreContext, term: Term, codes: Iterable<string>): Map<string, string[]> {
  const groupsOf = groupLookup(cohortCourses(ctx.db), term);
  return new Map([...new Set(codes)].map((code) => [code, groupsOf(code).map((g) => g.key)]));
}

/** Curriculum notes of a whole term's meetings, by entry id. */
export function termCurriculumNotes(ctx: CoreContext, term: Term, rows: readonly EntryRow[]): Map<number, CurriculumNote[]> {
  return curriculumNotes(termCurriculumConflicts(ctx, term, rows));
}

/**
 * Curriculum notes of one meeting just written: only the courses that share a cohort with it
 * are read, so a write whose course has none costs one lookup.
 */
export function meetingCurriculumNotes(ctx: CoreContext, row: EntryRow): CurriculumNote[] {
  const term: Term = { year: row.year, semester: row.semester };
  const course = courseOf(ctx.db, row.course_code);
  if (!course || curriculumGroups(course, term.semester).length === 0) return [];
  const courses = cohortCourses(ctx.db);
  const groupsOf = groupLookup(courses, term);
  const mine = new Set(groupsOf(row.course_code).map((g) => g.key));
  const peers = courses.filter((c) => groupsOf(c.code).some((g) => mine.has(g.key))).map((c) => c.code);
  const conflicts = conflictsAmong(ctx, term, entriesOfCourses(ctx.db, term, peers), groupsOf).filter((c) => c.courses.includes(row.course_code));
  return curriculumNotes(conflicts).get(row.id) ?? [];
}
